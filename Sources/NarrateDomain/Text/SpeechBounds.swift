/// Bounds on what one text may ask of the engine, checked before anything is synthesized, so
/// a hostile or mistaken input fails at once with a clear error instead of spending minutes and
/// gigabytes first. (The engine bounds each utterance's audio too, as a backstop.)
public struct SpeechBounds: Sendable, Equatable {
    /// The longest pause one SSML `<break>` may ask for.
    public var maxBreakSeconds: Double
    /// The most audio one text may give, estimated from its length, the speaking rate and its
    /// pauses: about what a WAV file holds (27 hours) is far more than anyone says in one go.
    public var maxHours: Double

    public init(maxBreakSeconds: Double = 60, maxHours: Double = 24) {
        self.maxBreakSeconds = maxBreakSeconds
        self.maxHours = maxHours
    }

    public static let standard = SpeechBounds()

    /// Checks `text` (SSML when `isSSML`) as spoken by `voice`.
    /// - Throws: `SpeechError.pauseTooLong` for an SSML break past the limit,
    ///   `SpeechError.textTooLong` when the audio would pass `maxHours`.
    public func check(_ text: String, isSSML: Bool, voice: VoiceProfile) throws(SpeechError) {
        try check(scalars: text.unicodeScalars.count, ssml: isSSML ? text : nil, voice: voice)
    }

    /// Checks a prepared text as spoken by `voice` (its length as given).
    public func check(_ text: SpeechText, voice: VoiceProfile) throws(SpeechError) {
        try check(scalars: text.givenScalarCount, ssml: text.isSSML ? text.text : nil, voice: voice)
    }

    private func check(scalars: Int, ssml: String?, voice: VoiceProfile) throws(SpeechError) {
        var pauses = 0.0
        if let ssml {
            for seconds in Self.breakSeconds(in: ssml) {
                guard seconds <= maxBreakSeconds else { throw .pauseTooLong(seconds: seconds, limitSeconds: maxBreakSeconds) }
                pauses += seconds
            }
        }
        let hours = (Self.speakingSeconds(scalars: scalars, rate: voice.rate) + pauses) / 3600
        guard hours <= maxHours else { throw .textTooLong(estimatedHours: hours, limitHours: maxHours) }
    }

    /// Seconds of speech for a text of `scalars` characters at `rate` words per minute, counting
    /// six characters a word (a word and its space) as English prose averages.
    static func speakingSeconds(scalars: Int, rate: Int) -> Double {
        Double(scalars) / 6 / Double(max(rate, 1)) * 60
    }

    /// The pause each `<break time="…">` of an SSML text asks for, in seconds ("2s", "500ms";
    /// a bare number is milliseconds, as eSpeak reads it). Breaks without a time are short.
    static func breakSeconds(in ssml: String) -> [Double] {
        var seconds: [Double] = []
        let lowered = ssml.lowercased()
        var rest = Substring(lowered)
        while let open = rest.firstRange(of: "<break") {
            let tagEnd = rest[open.upperBound...].firstIndex(of: ">") ?? rest.endIndex
            if let value = attribute("time", in: rest[open.upperBound..<tagEnd]) {
                seconds.append(duration(value))
            }
            rest = rest[tagEnd...]
        }
        return seconds
    }

    /// The value of `name="…"` (or `'…'`) in a lowercased tag.
    private static func attribute(_ name: String, in tag: Substring) -> Substring? {
        guard let nameRange = tag.firstRange(of: name + "="),
              let quote = tag[nameRange.upperBound...].first, quote == "\"" || quote == "'"
        else { return nil }
        let valueStart = tag.index(after: nameRange.upperBound)
        let valueEnd = tag[valueStart...].firstIndex(of: quote) ?? tag.endIndex
        return tag[valueStart..<valueEnd]
    }

    private static func duration(_ value: Substring) -> Double {
        let trimmed = String(value).trimmingWhitespace
        let (number, scale): (Substring, Double) = if trimmed.hasSuffix("ms") {
            (trimmed.dropLast(2), 0.001)
        } else if trimmed.hasSuffix("s") {
            (trimmed.dropLast(), 1)
        } else {
            (Substring(trimmed), 0.001)
        }
        // A number too large for a Double is infinite: past any limit.
        return (Double(number) ?? 0) * scale
    }
}
