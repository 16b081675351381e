import Foundation
import Logging
import NIOCore
import NIOPosix
@testable import NarrateServer

/// The service's Wyoming front end on a loopback port of its own, run in process over a route
/// test server's backend, and a client that sends events and reads them back.
struct WyomingTestClient: Sendable {
    let port: Int

    /// Runs `body` with a client of a Wyoming server over `backend`, then stops the server.
    static func with<Value: Sendable>(
        _ backend: SpeechBackend, logger: Logger, _ body: @Sendable (WyomingTestClient) async throws -> Value
    ) async throws -> Value {
        let (ports, listening) = AsyncStream.makeStream(of: Int.self)
        let server = WyomingServer(backend: backend, host: "127.0.0.1", port: 0, logger: logger) { address in
            listening.yield(Int(address.split(separator: ":").last ?? "") ?? 0)
            listening.finish()
        }
        let running = Task { try await server.run() }
        defer { running.cancel() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else { throw WyomingTestError("the Wyoming server did not listen") }
        return try await body(WyomingTestClient(port: port))
    }

    /// Sends `events` on a new connection and reads events until one of type `until` (or an
    /// `error`) arrives; gives every event read.
    func exchange(_ events: [WyomingEvent], until: Set<String>) async throws -> [WyomingEvent] {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture { try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel) }
            }
        return try await channel.executeThenClose { inbound, outbound in
            for event in events { try await outbound.write(event.encoded()) }
            var received: [WyomingEvent] = []
            var buffer = ByteBuffer()
            for try await part in inbound {
                buffer.writeImmutableBuffer(part)
                while let event = try WyomingEvent.parse(&buffer) {
                    received.append(event)
                    if until.contains(event.type) || event.type == "error" { return received }
                }
                buffer.discardReadBytes()
            }
            return received
        }
    }
}

struct WyomingTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
