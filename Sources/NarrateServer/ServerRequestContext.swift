import Hummingbird
import Logging
import NIOCore

/// The request context: Hummingbird's basics plus the connection, so a request waiting for a
/// synthesis slot can be given up when its client goes away.
public struct ServerRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    public let channel: (any Channel)?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }

    /// Body uploads are checked per route; this is the outer bound.
    public var maxUploadSize: Int { 256 * 1_024 * 1_024 }
}
