import Foundation

/// How `narrate serve` listens and what it accepts.
public struct ServerConfiguration: Sendable {
    /// The HTTP address; loopback unless told otherwise.
    public var host = "127.0.0.1"
    /// The HTTP port; 0 asks for an ephemeral port (printed at start).
    public var port = 8880
    /// The Wyoming (Home Assistant) TCP port; `nil`: no Wyoming.
    public var wyomingPort: Int?
    /// The most characters one speech request may have.
    public var maxInput = 4_096
    /// Requests that may wait for a synthesis slot; one more gets 429.
    public var queueLimit = 64
    /// Accepted bearer keys; none: no authentication (only allowed on loopback unless
    /// `allowUnauthenticated`).
    public var apiKeys: [String] = []
    /// Serve without keys on a non-loopback address.
    public var allowUnauthenticated = false
    /// The largest book file `POST /v1/books` takes.
    public var maxUploadBytes = 64 * 1_024 * 1_024
    /// How long SIGTERM waits for requests in flight.
    public var shutdownDeadline: Duration = .seconds(30)
    /// Whether the listening room (the web page at `/`) is served.
    public var web = true
    /// The voice used when a request names none (Wyoming); a preset or eSpeak voice.
    public var defaultVoice = "narrator"
    /// Host names beyond loopback, IP addresses and `host` that requests may name
    /// (`--allowed-host`): a name, `.example.com` for every name under it, or `*`.
    public var allowedHosts: [String] = []
    /// Origins whose pages may use the API, with CORS (`--allowed-origin`); `*` for every one.
    public var allowedOrigins: [String] = []
    /// The most bytes the finished exports kept for download may take (`--exports-max-bytes`).
    public var exportsMaxBytes: Int64 = 4 << 30
    /// How long a finished export is kept (`--exports-max-age`).
    public var exportsMaxAge: Duration = .seconds(168 * 3_600)

    public init() {}

    /// `4G`, `500M`, `64K` or a number of bytes; `nil` when it is none of these.
    public static func byteCount(_ text: String) -> Int64? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).uppercased()
        let shifts: [Character: Int64] = ["K": 10, "M": 20, "G": 30, "T": 40]
        var digits = trimmed
        var shift: Int64 = 0
        if let last = trimmed.last, let found = shifts[last] {
            digits = String(trimmed.dropLast())
            shift = found
        }
        guard let value = Int64(digits), value >= 0, value <= Int64.max >> shift else { return nil }
        return value << shift
    }

    /// Whether `host` is a loopback address (127.0.0.0/8, ::1, localhost).
    public var isLoopback: Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    /// Why this configuration may not start, in one line, or `nil`.
    public var problem: String? {
        if apiKeys.isEmpty, !isLoopback, !allowUnauthenticated {
            return "serving on \(host) without API keys would let anyone on the network use it: give --api-key-file FILE, or --allow-unauthenticated if that is what you want"
        }
        if !(0...65_535).contains(port) { return "--port must be from 0 to 65535 (got \(port))" }
        if let wyomingPort, !(0...65_535).contains(wyomingPort) { return "--wyoming-port must be from 0 to 65535 (got \(wyomingPort))" }
        if maxInput < 1 || maxInput > 1_000_000 { return "--max-input must be from 1 to 1000000 characters (got \(maxInput))" }
        if queueLimit < 0 || queueLimit > 100_000 { return "--queue must be from 0 to 100000 (got \(queueLimit))" }
        if let origin = allowedOrigins.first(where: { $0 != "*" && !(($0.hasPrefix("http://") || $0.hasPrefix("https://")) && !$0.dropFirst(8).contains("/")) }) {
            return "--allowed-origin '\(origin)' is not an origin: give scheme://host[:port], such as https://reader.example.com"
        }
        if let host = allowedHosts.first(where: { $0.isEmpty || $0.contains("/") || $0.contains(" ") }) {
            return "--allowed-host '\(host)' is not a host name: give a name such as narrate.lan, .example.com or *"
        }
        if exportsMaxBytes < 1 << 20 { return "--exports-max-bytes must be at least 1M (got \(exportsMaxBytes))" }
        if exportsMaxAge < .seconds(60) { return "--exports-max-age must be at least one minute" }
        return nil
    }
}
