import Foundation

/// When a failed request to a speech API is tried again: on 408, 429, 5xx and connection errors,
/// after an exponential backoff with full jitter (or what `Retry-After` asks, if longer), up to
/// `maxAttempts` attempts and `deadline` for one text.
public struct RemoteRetryPolicy: Sendable, Hashable {
    public var maxAttempts: Int
    /// The first backoff's ceiling; each retry doubles it, up to `maxDelay`.
    public var baseDelay: Duration
    public var maxDelay: Duration
    /// One text's whole budget, retries included.
    public var deadline: Duration

    public init(maxAttempts: Int = 5, baseDelay: Duration = .milliseconds(500), maxDelay: Duration = .seconds(30), deadline: Duration = .seconds(300)) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.deadline = deadline
    }

    /// Whether an answer with `status` is worth another attempt.
    public static func isRetryable(status: Int) -> Bool {
        status == 408 || status == 429 || (500...599).contains(status)
    }

    /// The wait before attempt `attempt + 1`: a uniform draw from zero to `baseDelay × 2^(attempt−1)`
    /// (at most `maxDelay`), or `retryAfter` when the server asked for longer.
    /// - Parameter unit: a draw from 0 to 1 (random; fixed in tests).
    public func delay(afterAttempt attempt: Int, retryAfter: Duration?, unit: Double = Double.random(in: 0...1)) -> Duration {
        let exponent = min(max(attempt - 1, 0), 30)
        let ceiling = min(maxDelay, baseDelay * (1 << exponent))
        let jittered = ceiling * min(max(unit, 0), 1)
        guard let retryAfter else { return jittered }
        return max(retryAfter, jittered)
    }

    /// A `Retry-After` value: delay-seconds, or an HTTP date (then the time until it from `now`).
    /// `nil` when it is neither, or negative.
    public static func retryAfter(_ value: String, now: Date = Date()) -> Duration? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(trimmed) {
            guard seconds.isFinite, seconds >= 0 else { return nil }
            return .milliseconds(Int(min(seconds, 86_400) * 1000))
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: trimmed) else { return nil }
        let seconds = max(0, min(date.timeIntervalSince(now), 86_400))
        return .milliseconds(Int(seconds * 1000))
    }
}
