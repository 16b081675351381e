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

    public init() {}

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
        return nil
    }
}
