import Hummingbird
import Logging
import NIOCore
import NarrateDomain
import NarrateKit
import ServiceLifecycle
import UnixSignals

/// `narrate serve`: OpenAI's speech API and the library over HTTP, and Home Assistant's
/// Wyoming protocol, on the shared cache and the supervised eSpeak workers.
public struct NarrateServer: Sendable {
    let backend: SpeechBackend
    let server: ServerConfiguration
    let logger: Logger

    /// - Parameter now: the clock the service's memos (voices, page audio) expire on; a test
    ///   moves it by hand.
    /// - Throws: when the cache or the library cannot be opened.
    public init(configuration: NarrateConfiguration, server: ServerConfiguration, logger: Logger, now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) throws {
        backend = try SpeechBackend(configuration: configuration, server: server, logger: logger, now: now)
        self.server = server
        self.logger = logger
    }

    /// The router with every route and middleware.
    func router() -> Router<ServerRequestContext> {
        let router = Router(context: ServerRequestContext.self)
        router.add(middleware: SecurityHeadersMiddleware())
        router.add(middleware: RequestLogMiddleware(metrics: backend.metrics, logger: logger, disclosure: backend.disclosure))
        router.add(middleware: SiteGuardMiddleware(policy: SitePolicy(boundHost: server.host, allowedHosts: server.allowedHosts, allowedOrigins: server.allowedOrigins)))
        router.add(middleware: AuthMiddleware(keys: server.apiKeys))
        SpeechController(backend: backend).register(on: router)
        CatalogController(backend: backend).register(on: router)
        LibraryController(backend: backend).register(on: router)
        BookPagesController(backend: backend).register(on: router)
        BookmarkController(backend: backend).register(on: router)
        PageAudioController(backend: backend).register(on: router)
        PageTimingController(backend: backend).register(on: router)
        BookCastController(backend: backend).register(on: router)
        ExportController(backend: backend).register(on: router)
        BookCoverController(backend: backend).register(on: router)
        HealthController(backend: backend).register(on: router)
        if server.web { WebController().register(on: router) }
        return router
    }

    /// Serves until SIGTERM or SIGINT: then it stops accepting, lets requests in flight finish
    /// within `server.shutdownDeadline`, stops the workers and returns.
    /// - Parameter onListening: called once with the addresses bound (`http://…`, and
    ///   `tcp://…` for Wyoming), ports resolved.
    public func run(onListening: @escaping @Sendable ([String]) -> Void) async throws {
        let expected = server.wyomingPort == nil ? 1 : 2
        let addresses = BoundAddresses(expected: expected, onComplete: onListening)
        var services: [any Service] = []
        let deadline = server.shutdownDeadline
        let application = Application(
            router: router(),
            server: .http1(configuration: .init(additionalChannelHandlers: [ConnectionLifecycleHandler(drainDeadline: .init(deadline))])),
            configuration: .init(address: .hostname(server.host, port: server.port), serverName: nil, reuseAddress: true),
            onServerRunning: { channel in
                await addresses.add("http://" + Self.describe(channel.localAddress))
            },
            logger: logger
        )
        services.append(application)
        if let wyomingPort = server.wyomingPort {
            services.append(WyomingServer(backend: backend, host: server.host, port: wyomingPort, logger: logger) { address in
                await addresses.add("tcp://" + address)
            })
        }
        let group = ServiceGroup(configuration: .init(
            services: services.map { .init(service: $0) },
            gracefulShutdownSignals: [.sigterm, .sigint],
            cancellationSignals: [],
            logger: logger
        ).withDeadline(server.shutdownDeadline))
        // An engine that cannot start (eSpeak's data or ONNX Runtime missing) leaves a service
        // that serves what the cache and the store hold, says so on /healthz and /metrics, and
        // answers the rest 503; /readyz tries again.
        do {
            try backend.environment.startEngine()
        } catch {
            backend.synthesisProblem = "\(error)"
            logger.warning("Synthesis is unavailable (\(error.description.escapedExcerpt(limit: 500))): serving what the cache holds, and 503 for the rest.")
        }
        await backend.exports?.resume()
        do {
            try await group.run()
        } catch {
            await backend.exports?.stop()
            await backend.repository.flush()
            backend.environment.stopEngine()
            await CacheStoreDrain.drainAll()
            throw error
        }
        await backend.exports?.stop()
        await backend.repository.flush()
        backend.environment.stopEngine()
        await CacheStoreDrain.drainAll()
    }

    static func describe(_ address: SocketAddress?) -> String {
        guard let address, let ip = address.ipAddress, let port = address.port else { return "unknown" }
        return address.protocol == .inet6 ? "[\(ip)]:\(port)" : "\(ip):\(port)"
    }
}

extension ServiceGroupConfiguration {
    func withDeadline(_ deadline: Duration) -> ServiceGroupConfiguration {
        var configuration = self
        configuration.maximumGracefulShutdownDuration = .init(deadline)
        configuration.maximumCancellationDuration = .seconds(2)
        return configuration
    }
}

/// Collects the bound addresses of the services and reports them once, all together.
actor BoundAddresses {
    private let expected: Int
    private let onComplete: @Sendable ([String]) -> Void
    private var addresses: [String] = []

    init(expected: Int, onComplete: @escaping @Sendable ([String]) -> Void) {
        self.expected = expected
        self.onComplete = onComplete
    }

    func add(_ address: String) {
        addresses.append(address)
        if addresses.count == expected { onComplete(addresses.sorted { $0.hasPrefix("http") && !$1.hasPrefix("http") }) }
    }
}
