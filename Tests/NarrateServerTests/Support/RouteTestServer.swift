import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NarrateKit
@testable import NarrateServer

/// A `NarrateServer` over a cache and a library of its own in a new temporary folder, its
/// router run in process with `app.test(.router)`. Real eSpeak speaks (through the
/// `narrate-worker` built beside the tests); the folder is removed when the test is done.
struct RouteTestServer: Sendable {
    let folder: URL
    let configuration: NarrateConfiguration
    let server: NarrateServer

    /// The backend the routes share (its queue, to hold slots by hand).
    var backend: SpeechBackend { server.backend }

    /// The folder of voice presets of this server's own (searched besides the standard ones).
    var voicesFolder: URL { folder.appendingPathComponent("voices") }

    /// - Parameters:
    ///   - configure: changes to the service's settings (keys, limits, queue).
    ///   - now: the clock the service's memos expire on (an `InstantClockMock`'s to move it by hand).
    ///   - logger: the service's log (none by default; a `LogRecorder`'s to read it).
    init(
        _ configure: (inout ServerConfiguration) -> Void = { _ in }, now: @escaping @Sendable () -> ContinuousClock.Instant = { .now },
        logger: Logger = Self.logger
    ) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("narrate-routes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("voices"), withIntermediateDirectories: true)
        var configuration = NarrateConfiguration.standard()
        configuration.cacheDirectory = folder.appendingPathComponent("cache").path
        configuration.libraryPath = folder.appendingPathComponent("library.sqlite").path
        configuration.voiceDirectories.append(folder.appendingPathComponent("voices").path)
        self.configuration = configuration
        var settings = ServerConfiguration()
        configure(&settings)
        server = try NarrateServer(configuration: configuration, server: settings, logger: logger, now: now)
    }

    static let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

    /// Runs `body` with a client of the router, then removes the folder.
    func test<Value: Sendable>(_ body: @Sendable (any TestClientProtocol) async throws -> Value) async throws -> Value {
        let application = Application(router: server.router())
        do {
            let value = try await application.test(.router, body)
            await finish()
            return value
        } catch {
            await finish()
            throw error
        }
    }

    private func finish() async {
        await backend.exports?.stop()
        await backend.repository.flush()
        try? FileManager.default.removeItem(at: folder)
    }
}
