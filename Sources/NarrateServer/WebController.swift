import HTTPTypes
import Hummingbird
import NIOCore

/// The listening room: the static page at `/` (HTML, CSS and JavaScript compiled into the
/// program, nothing fetched from another host) that uses this service's own API. `--no-web`
/// turns it off. Each file carries an `ETag` and is revalidated, so a new build is picked up.
struct WebController {
    struct File: Sendable {
        let bytes: [UInt8]
        let contentType: String
        let tag: String

        init(_ bytes: [UInt8], _ contentType: String) {
            self.bytes = bytes
            self.contentType = contentType
            tag = ContentTag.strong(bytes)
        }
    }

    /// The page's files by path.
    static let files: [String: File] = [
        "/": File(PackageResources.index_html, "text/html; charset=utf-8"),
        "/app.js": File(PackageResources.app_js, "text/javascript; charset=utf-8"),
        "/app.css": File(PackageResources.app_css, "text/css; charset=utf-8"),
    ]

    func register(on router: Router<ServerRequestContext>) {
        for (path, file) in Self.files {
            router.get(RouterPath(path)) { request, _ in Self.respond(file, to: request) }
        }
    }

    static func respond(_ file: File, to request: Request) -> Response {
        var headers: HTTPFields = [.eTag: file.tag, .cacheControl: "no-cache"]
        if let header = request.headers[.ifNoneMatch], SpeechController.matches(header, file.tag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = file.contentType
        headers[.contentLength] = String(file.bytes.count)
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: file.bytes)))
    }
}
