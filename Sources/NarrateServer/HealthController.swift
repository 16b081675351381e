import Hummingbird
import NIOCore
import NarrateKit

/// `GET /healthz` (the process answers), `GET /readyz` (the synthesis workers run), `GET
/// /metrics` (Prometheus) and `GET /openapi.json`.
struct HealthController: Sendable {
    let backend: SpeechBackend

    struct Health: ResponseEncodable {
        var status: String
        /// `available`, or `unavailable` while the engine cannot start (cached audio is served).
        var synthesis: String?
        var workers: Int?
        var running: Int?
        var restarts: Int?
    }

    func register(on router: Router<ServerRequestContext>) {
        router.get("/healthz") { _, _ in Health(status: "ok", synthesis: backend.synthesisProblem == nil ? "available" : "unavailable") }
        router.get("/readyz") { _, _ -> Health in
            var status = backend.environment.engineStatus
            if status.running == 0 {
                // Workers start on demand and are replaced when they die: start them now.
                do {
                    try backend.environment.startEngine()
                    backend.synthesisProblem = nil
                } catch {
                    backend.synthesisProblem = "\(error)"
                    throw APIError(
                        .serviceUnavailable, "The synthesis workers cannot start; the service's log says why.", code: "engine_unavailable", retryAfter: 5,
                        detail: "The synthesis workers cannot start: \(error)")
                }
                status = backend.environment.engineStatus
            }
            return Health(status: "ready", workers: status.workers, running: status.running, restarts: status.restarts)
        }
        router.get("/metrics") { _, _ in
            backend.metrics.recordQueue(depth: await backend.queue.depth)
            let text = backend.metrics.text(engine: backend.environment.engineStatus, synthesisAvailable: backend.synthesisProblem == nil)
            return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(bytes: text)))
        }
        router.get("/openapi.json") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: OpenAPIDocument.bytes)))
        }
    }
}

