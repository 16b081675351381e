import Testing
@testable import NarrateServer

@Suite struct BookUploadSnifferTests {
    @Test("Given a filename with a known extension, when an upload is sniffed, then the filename decides over type and bytes")
    func filenameFirst() {
        #expect(BookUploadSniffer.fileExtension(filename: "Tales.MD", contentType: "text/html", bytes: [0x50, 0x4B]) == "md")
    }

    @Test("Given no usable filename, when an upload is sniffed, then the content type decides", arguments: [
        ("application/epub+zip", "epub"), ("text/html; charset=utf-8", "html"), ("application/xhtml+xml", "html"),
        ("text/x-markdown", "md"), ("TEXT/PLAIN", "txt"),
    ])
    func contentType(type: String, ext: String) {
        #expect(BookUploadSniffer.fileExtension(filename: "book.pdf", contentType: type, bytes: []) == ext)
    }

    @Test("Given neither filename nor known type, when an upload is sniffed, then a ZIP is an EPUB, markup HTML, anything else text")
    func bytesLast() {
        #expect(BookUploadSniffer.fileExtension(filename: nil, contentType: "application/octet-stream", bytes: [0x50, 0x4B, 3, 4]) == "epub")
        #expect(BookUploadSniffer.fileExtension(filename: nil, contentType: nil, bytes: Array("<!DOCTYPE html><p>Hi".utf8)) == "html")
        #expect(BookUploadSniffer.fileExtension(filename: nil, contentType: nil, bytes: Array("Once upon a time".utf8)) == "txt")
    }
}
