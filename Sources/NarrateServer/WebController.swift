import HTTPTypes
import Hummingbird
import NIOCore

/// The listening room: the static page at `/` (HTML, CSS, JavaScript modules, a web app
/// manifest and icons, compiled into the program, nothing fetched from another host) that uses
/// this service's own API. `--no-web` turns it off. Each file carries an `ETag` and is
/// revalidated, so a new build is picked up; there is no service worker to keep an old one.
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

    static let script = "text/javascript; charset=utf-8"

    /// The page's files by path: the page, its entry script and style sheet, its manifest,
    /// and under `/web/` a module per view (see app.js) and the icons.
    static let files: [String: File] = [
        "/": File(PackageResources.index_html, "text/html; charset=utf-8"),
        "/app.js": File(PackageResources.app_js, script),
        "/app.css": File(PackageResources.app_css, "text/css; charset=utf-8"),
        "/manifest.webmanifest": File(PackageResources.manifest_webmanifest, "application/manifest+json"),
        "/web/state.js": File(PackageResources.state_js, script),
        "/web/api.js": File(PackageResources.api_js, script),
        "/web/library.js": File(PackageResources.library_js, script),
        "/web/book.js": File(PackageResources.book_js, script),
        "/web/contents.js": File(PackageResources.contents_js, script),
        "/web/reader.js": File(PackageResources.reader_js, script),
        "/web/player.js": File(PackageResources.player_js, script),
        "/web/exporter.js": File(PackageResources.exporter_js, script),
        "/web/voices.js": File(PackageResources.voices_js, script),
        "/web/sleep.js": File(PackageResources.sleep_js, script),
        "/web/bookmarks.js": File(PackageResources.bookmarks_js, script),
        "/web/shortcuts.js": File(PackageResources.shortcuts_js, script),
        "/web/media-session.js": File(PackageResources.media_session_js, script),
        "/web/cast.js": File(PackageResources.cast_js, script),
        "/web/icon.svg": File(PackageResources.icon_svg, "image/svg+xml"),
        "/web/icon-192.png": File(PackageResources.icon_192_png, "image/png"),
        "/web/icon-512.png": File(PackageResources.icon_512_png, "image/png"),
        "/web/icon-maskable.png": File(PackageResources.icon_maskable_png, "image/png"),
    ]

    static let notFound = APIError(.notFound, "The listening room has no such file.", code: "not_found")

    func register(on router: Router<ServerRequestContext>) {
        for (path, file) in Self.files where !path.hasPrefix("/web/") {
            router.get(RouterPath(path)) { request, _ in Self.respond(file, to: request) }
        }
        // One route for the modules and icons, so a new one needs no route of its own.
        router.get("/web/{file}") { request, context in
            guard let file = Self.files["/web/" + (try context.parameters.require("file"))] else { throw Self.notFound }
            return Self.respond(file, to: request)
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
