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
    let server: NarrateServer

    /// The backend the routes share (its queue, to hold slots by hand).
    var backend: SpeechBackend { server.backend }

    /// - Parameter configure: changes to the service's settings (keys, limits, queue).
    init(_ configure: (inout ServerConfiguration) -> Void = { _ in }) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("narrate-routes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var configuration = NarrateConfiguration.standard()
        configuration.cacheDirectory = folder.appendingPathComponent("cache").path
        configuration.libraryPath = folder.appendingPathComponent("library.sqlite").path
        var settings = ServerConfiguration()
        configure(&settings)
        server = try NarrateServer(configuration: configuration, server: settings, logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
    }

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
        await backend.repository.flush()
        try? FileManager.default.removeItem(at: folder)
    }
}
