import Foundation
/// What an uploaded book is, for the parsers, before anything parses it.
enum BookUploadSniffer {
    /// The extension the parsers read the upload by: `?filename=`, else the content type,
    /// else the bytes (a ZIP is an EPUB; markup is HTML; anything else text).
    static func fileExtension(filename: String?, contentType: String?, bytes: [UInt8]) -> String {
        if let filename, let dot = filename.lastIndex(of: ".") {
            let ext = filename[filename.index(after: dot)...].lowercased()
            if ["epub", "txt", "text", "html", "htm", "xhtml", "md", "markdown"].contains(ext) { return ext }
        }
        switch contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() {
        case "application/epub+zip": return "epub"
        case "text/html", "application/xhtml+xml": return "html"
        case "text/markdown", "text/x-markdown": return "md"
        case "text/plain": return "txt"
        default: break
        }
        if bytes.starts(with: [0x50, 0x4B]) { return "epub" }
        let head = String(decoding: bytes.prefix(512), as: UTF8.self).lowercased()
        if head.contains("<html") || head.contains("<!doctype html") { return "html" }
        return "txt"
    }
}
