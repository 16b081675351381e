import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NarrateKit

/// One log line per request, when its body is sent: method, route, status, duration, cache
/// (hit, miss, partial or -) and bytes; never the input text or a key. The same figures go to
/// the metrics. Errors thrown by handlers become OpenAI-shaped JSON here, so nothing else
/// (no stack trace, no framework message) reaches a client.
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext
    let metrics: ServerMetrics
    let logger: Logger
    /// What a client is told of an error; its detail goes to the log.
    let disclosure: ErrorDisclosure

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let record = RequestRecord()
        var response: Response
        do {
            response = try await RequestRecord.$current.withValue(record) {
                try await next(request, context)
            }
        } catch {
            response = Self.errorResponse(error, request: request, context: context, disclosure: disclosure)
        }
        let route = context.endpointPath ?? "unmatched"
        let method = request.method.rawValue
        let status = response.status.code
        let metrics = metrics
        let logger = logger
        let sized = response.body.contentLength
        let body = response.body
        let done: @Sendable (String) -> Void = { outcome in
            let seconds = (ContinuousClock.now - start).seconds
            metrics.request(route: route, method: method, status: status, seconds: seconds)
            let bytes = record.bytes > 0 ? record.bytes : (sized ?? 0)
            logger.info("\(method) \(route) \(status) \(String(format: "%.1f", seconds * 1000)) ms cache=\(record.cache) bytes=\(bytes)\(outcome)")
        }
        response.body = ResponseBody(contentLength: sized) { writer in
            do {
                try await body.write(writer)
                done("")
            } catch {
                done(" cut short: \(type(of: error))")
                throw error
            }
        }
        return response
    }

    static func errorResponse(_ error: any Error, request: Request, context: Context, disclosure: ErrorDisclosure) -> Response {
        let apiError: APIError
        if let known = error as? APIError {
            apiError = known
        } else if let http = error as? HTTPError {
            apiError = APIError(http.status, http.body ?? http.status.reasonPhrase)
        } else if let http = error as? any HTTPResponseError {
            apiError = APIError(http.status, http.status.reasonPhrase)
        } else {
            context.logger.error("Unexpected error: \(ErrorDisclosure.logged(String(describing: error)))")
            apiError = APIError(.internalServerError, "The server failed on this request.")
        }
        let told = disclosure.disclosed(apiError, context: "\(request.method.rawValue) \(context.endpointPath ?? "unmatched")")
        return (try? told.response(from: request, context: context)) ?? Response(status: .internalServerError)
    }
}
