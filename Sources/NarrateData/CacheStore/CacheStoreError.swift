/// What went wrong with the S3-compatible cache store. No case carries a credential: the
/// messages name the store, the status and the store's error code only.
public enum CacheStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `--cache-store` or a setting around it is not usable (said at start, before any work).
    case badSetting(String)
    /// The store could not be reached (refused, reset, DNS, TLS).
    case unreachable(host: String, reason: String)
    /// The store took longer than the timeout to connect or to answer.
    case timedOut(host: String, seconds: Double)
    /// The store refused the request (401/403): the credentials cannot do this.
    case refused(status: Int, code: String)
    /// Any other answer that is not the object (5xx, an unexpected status).
    case failed(status: Int, code: String)
    /// The object is larger than any cache entry may be.
    case tooLarge(bytes: Int)

    public var description: String {
        switch self {
        case let .badSetting(message): message
        case let .unreachable(host, reason): "the cache store at \(host) cannot be reached (\(reason))"
        case let .timedOut(host, seconds): "the cache store at \(host) did not answer within \(Self.seconds(seconds)) s"
        case let .refused(status, code): "the cache store refused the request (HTTP \(status)\(code.isEmpty ? "" : " \(code)"))"
        case let .failed(status, code): "the cache store failed the request (HTTP \(status)\(code.isEmpty ? "" : " \(code)"))"
        case let .tooLarge(bytes): "a cache store object of \(bytes) bytes is larger than any cache entry"
        }
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
