/// When to ask a store that failed again: after a failure it stays open (no requests) for a
/// pause that doubles with each failure in a row, up to a ceiling; when the pause is over
/// requests go through again, and one success closes it.
struct CircuitBreaker: Sendable {
    let firstPause: Duration
    let longestPause: Duration
    private(set) var openUntil: ContinuousClock.Instant?
    private(set) var pause: Duration
    /// Failures in a row.
    private(set) var failures = 0

    init(firstPause: Duration = .seconds(15), longestPause: Duration = .seconds(300)) {
        self.firstPause = firstPause
        self.longestPause = longestPause
        pause = firstPause
    }

    /// Whether a request may go to the store at `now`.
    func allows(at now: ContinuousClock.Instant) -> Bool {
        guard let openUntil else { return true }
        return now >= openUntil
    }

    /// Records a failure at `now`: the breaker opens for the pause, which then doubles.
    /// - Returns: the pause it opened for; `nil` when it was open already (a request that
    ///   started before it opened).
    mutating func recordFailure(at now: ContinuousClock.Instant) -> Duration? {
        failures += 1
        if let openUntil, now < openUntil { return nil }
        let opened = pause
        openUntil = now + opened
        pause = min(pause * 2, longestPause)
        return opened
    }

    /// Records an answer: the breaker closes and the pause starts over.
    /// - Returns: whether it was open (the store is back).
    mutating func recordSuccess() -> Bool {
        defer {
            openUntil = nil
            pause = firstPause
            failures = 0
        }
        return openUntil != nil
    }
}
