import Foundation
import NarrateKit

/// What an uploaded book is, for the parsers, before anything parses it.
enum BookUploadSniffer {
    /// The extension the parsers read the upload by: the format its content shows when it shows
    /// one (a ZIP archive's kind, an FB2, a PDF), else `?filename=`'s, else the content type's, else the
    /// bytes' (a ZIP is an EPUB; markup is HTML; anything else text).
    static func fileExtension(filename: String?, contentType: String?, bytes: [UInt8]) -> String {
        if let format = DocumentParserFactory.contentFormat(Data(bytes)) { return format.rawValue }
        if let filename, let dot = filename.lastIndex(of: ".") {
            let ext = filename[filename.index(after: dot)...].lowercased()
            if DocumentFormat(fileExtension: ext) != nil { return ext }
        }
        switch RequestContentType.mediaType(contentType) {
        case "application/epub+zip": return "epub"
        case "text/html", "application/xhtml+xml": return "html"
        case "text/markdown", "text/x-markdown": return "md"
        case "text/plain": return "txt"
        case RequestContentType.docx: return "docx"
        case RequestContentType.odt: return "odt"
        case "application/x-fictionbook+xml", "application/x-fictionbook": return "fb2"
        case RequestContentType.pdf: return "pdf"
        default: break
        }
        if bytes.starts(with: [0x50, 0x4B]) { return "epub" }
        let head = String(decoding: bytes.prefix(512), as: UTF8.self).lowercased()
        if head.contains("<html") || head.contains("<!doctype html") { return "html" }
        return "txt"
    }
}
