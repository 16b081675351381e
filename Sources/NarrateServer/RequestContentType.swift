import Foundation
import HTTPTypes

/// The bodies the service takes, by their `Content-Type`: JSON only as `application/json` (a
/// form or `text/plain`, which any page may send without asking, is refused), and a book only
/// as one of the book types or `application/octet-stream`.
enum RequestContentType {
    static let docx = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
    static let odt = "application/vnd.oasis.opendocument.text"
    static let pdf = "application/pdf"

    /// The types `POST /v1/books` takes (the README's list): the formats' own, a zipped or plain
    /// FB2's (`application/zip`, XML), and any bytes.
    static let bookTypes: Set<String> = [
        "application/epub+zip", "text/plain", "text/html", "application/xhtml+xml", "text/markdown", "text/x-markdown",
        pdf, docx, odt, "application/x-fictionbook+xml", "application/x-fictionbook", "application/zip", "application/x-zip-compressed",
        "application/xml", "text/xml", "application/octet-stream",
    ]

    /// What `method path` must carry, if it has a body.
    enum Expected: Equatable {
        case json
        case book
    }

    static func expected(method: String, path: String) -> Expected? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        switch (method, parts.count) {
        case ("POST", 3) where path == "/v1/audio/speech": return .json
        case ("POST", 2) where path == "/v1/books": return .book
        case ("PUT", 4) where parts[0] == "v1" && parts[1] == "books" && parts[3] == "progress": return .json
        case ("POST", 4) where parts[0] == "v1" && parts[1] == "books" && parts[3] == "exports": return .json
        case ("POST", 4) where parts[0] == "v1" && parts[1] == "books" && parts[3] == "bookmarks": return .json
        default: return nil
        }
    }

    /// The media type of a `Content-Type` value, lowercased, without parameters.
    static func mediaType(_ value: String?) -> String? {
        guard let value else { return nil }
        let type = value.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        return type.isEmpty ? nil : type
    }

    /// The error for a request whose body has the wrong type; `nil` when it may go on.
    static func problem(method: String, path: String, contentType: String?) -> APIError? {
        guard let expected = expected(method: method, path: path) else { return nil }
        let type = mediaType(contentType)
        switch expected {
        case .json:
            guard type != "application/json" else { return nil }
            return APIError(.unsupportedMediaType, "The body must be JSON sent as 'Content-Type: application/json' (got \(type.map { "'\($0)'" } ?? "none")).", code: "unsupported_media_type")
        case .book:
            guard let type, !bookTypes.contains(type) else { return nil }
            return APIError(.unsupportedMediaType, "A book is sent as its own type (\(bookTypes.sorted().joined(separator: ", "))), not '\(type)'.", code: "unsupported_media_type")
        }
    }
}
