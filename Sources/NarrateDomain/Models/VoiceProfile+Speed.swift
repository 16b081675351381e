/// OpenAI's `speed`: a factor on the voice's own rate (1 is the profile's rate), 0.25 to 4.0.
/// The one rule that turns it into a speaking rate, for every front end that takes it.
extension VoiceProfile {
    /// The speeds this profile can be spoken at: OpenAI's 0.25–4.0, narrowed to what keeps the
    /// rate within `rateRange`, to two decimals.
    public var speedRange: ClosedRange<Double> {
        let low = max(0.25, Double(usableRateRange.lowerBound) / Double(rate))
        let high = min(4.0, Double(usableRateRange.upperBound) / Double(rate))
        return ((low * 100).rounded(.up) / 100)...((high * 100).rounded(.down) / 100)
    }

    /// This profile spoken at `speed` times its rate (rounded to a whole rate within
    /// `rateRange`); `nil` when `speed` is not finite or outside `speedRange`.
    public func atSpeed(_ speed: Double) -> VoiceProfile? {
        let usable = speedRange
        guard speed.isFinite, speed >= usable.lowerBound - 1e-9, speed <= usable.upperBound + 1e-9 else { return nil }
        var profile = self
        profile.rate = min(usableRateRange.upperBound, max(usableRateRange.lowerBound, Int((Double(rate) * speed).rounded())))
        return profile
    }
}
