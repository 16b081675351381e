import Metrics
import NarrateKit
import Prometheus

/// The service's metrics, in the Prometheus registry `/metrics` shows: requests by route and
/// status, latency, cache hits, misses and bytes, synthesis seconds, queue depth and worker
/// restarts.
final class ServerMetrics: Sendable {
    let registry: PrometheusCollectorRegistry
    private let factory: PrometheusMetricsFactory
    private let cacheHits: Metrics.Counter
    private let cacheMisses: Metrics.Counter
    private let cacheHitBytes: Metrics.Counter
    private let fallbacks: Metrics.Counter
    private let synthesisSeconds: Metrics.Timer
    private let synthesizedAudioSeconds: Metrics.FloatingPointCounter
    private let synthesisFailures: Metrics.Counter
    let queueDepth: Metrics.Gauge
    let activeSyntheses: Metrics.Meter
    let workerRestarts: Metrics.Gauge
    let workersRunning: Metrics.Gauge
    /// 1 while the engine can synthesize, 0 while only cached audio is served.
    let synthesisAvailable: Metrics.Gauge

    init() {
        registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
            .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2), .seconds(5), .seconds(10), .seconds(30),
        ]
        self.factory = factory
        cacheHits = Metrics.Counter(label: "narrate_cache_hits_total", factory: factory)
        cacheMisses = Metrics.Counter(label: "narrate_cache_misses_total", factory: factory)
        cacheHitBytes = Metrics.Counter(label: "narrate_cache_hit_bytes_total", factory: factory)
        fallbacks = Metrics.Counter(label: "narrate_remote_fallbacks_total", factory: factory)
        synthesisSeconds = Metrics.Timer(label: "narrate_synthesis_seconds", factory: factory)
        synthesizedAudioSeconds = Metrics.FloatingPointCounter(label: "narrate_synthesized_audio_seconds_total", factory: factory)
        synthesisFailures = Metrics.Counter(label: "narrate_synthesis_failures_total", factory: factory)
        queueDepth = Metrics.Gauge(label: "narrate_queue_depth", factory: factory)
        activeSyntheses = Metrics.Meter(label: "narrate_active_syntheses", factory: factory)
        workerRestarts = Metrics.Gauge(label: "narrate_worker_restarts", factory: factory)
        workersRunning = Metrics.Gauge(label: "narrate_workers_running", factory: factory)
        synthesisAvailable = Metrics.Gauge(label: "narrate_synthesis_available", factory: factory)
    }

    /// Counts one request.
    func request(route: String, method: String, status: Int, seconds: Double) {
        let dimensions = [("route", route), ("method", method), ("status", String(status))]
        Metrics.Counter(label: "narrate_http_requests_total", dimensions: dimensions, factory: factory).increment()
        Metrics.Timer(label: "narrate_http_request_duration_seconds", dimensions: [("route", route), ("method", method)], factory: factory)
            .recordNanoseconds(Int64(seconds * 1e9))
    }

    /// Counts one speech-path event.
    func record(_ event: SynthesisEvent) {
        switch event {
        case let .cacheHit(bytes, _):
            cacheHits.increment()
            cacheHitBytes.increment(by: bytes)
        case .cacheMiss:
            cacheMisses.increment()
        case let .synthesized(seconds, audioSeconds):
            synthesisSeconds.recordNanoseconds(Int64(seconds * 1e9))
            synthesizedAudioSeconds.increment(by: audioSeconds)
        case .failed:
            synthesisFailures.increment()
        case .fellBack:
            fallbacks.increment()
        }
    }

    /// Counts one cache store event (the tier behind the local cache, `--cache-store`).
    func record(_ event: CacheStoreEvent) {
        let name = switch event {
        case let .request(operation, seconds):
            {
                Metrics.Timer(label: "narrate_cache_store_request_duration_seconds", dimensions: [("operation", operation)], factory: factory)
                    .recordNanoseconds(Int64(seconds * 1e9))
                return ""
            }()
        case .hit: "narrate_cache_store_hits_total"
        case .miss: "narrate_cache_store_misses_total"
        case .uploaded: "narrate_cache_store_uploads_total"
        case .alreadyStored: "narrate_cache_store_uploads_already_stored_total"
        case .uploadSkipped: "narrate_cache_store_uploads_skipped_total"
        case .error: "narrate_cache_store_errors_total"
        case .corrupt: "narrate_cache_store_corrupt_objects_total"
        }
        guard !name.isEmpty else { return }
        Metrics.Counter(label: name, factory: factory).increment()
    }

    func synthesisStarted() { activeSyntheses.increment() }
    func synthesisEnded() { activeSyntheses.decrement() }

    func recordQueue(depth: Int) {
        queueDepth.record(depth)
    }

    /// The metrics in Prometheus' text format.
    func text(engine: EngineStatus, synthesisAvailable available: Bool = true) -> [UInt8] {
        synthesisAvailable.record(available ? 1 : 0)
        workerRestarts.record(engine.restarts)
        workersRunning.record(engine.running)
        return registry.emitToBuffer()
    }
}
