import Foundation
import NarrateKit
import Testing
@testable import NarrateServer

@Suite struct BookUploadSnifferTests {
    @Test("Given a filename with a known extension, when an upload whose content shows no format is sniffed, then the filename decides over type and bytes")
    func filenameFirst() {
        #expect(BookUploadSniffer.fileExtension(filename: "Tales.MD", contentType: "text/html", bytes: [0x50, 0x4B]) == "md")
        #expect(BookUploadSniffer.fileExtension(filename: "Tales.docx", contentType: nil, bytes: [0x50, 0x4B]) == "docx")
    }

    @Test("Given no usable filename, when an upload is sniffed, then the content type decides", arguments: [
        ("application/epub+zip", "epub"), ("text/html; charset=utf-8", "html"), ("application/xhtml+xml", "html"),
        ("text/x-markdown", "md"), ("TEXT/PLAIN", "txt"), ("application/vnd.openxmlformats-officedocument.wordprocessingml.document", "docx"),
        ("application/vnd.oasis.opendocument.text", "odt"), ("application/x-fictionbook+xml", "fb2"),
    ])
    func contentType(type: String, ext: String) {
        #expect(BookUploadSniffer.fileExtension(filename: "book.djvu", contentType: type, bytes: []) == ext)
    }

    @Test("Given neither filename nor known type, when an upload is sniffed, then a ZIP is an EPUB, markup HTML, anything else text")
    func bytesLast() {
        #expect(BookUploadSniffer.fileExtension(filename: nil, contentType: "application/octet-stream", bytes: [0x50, 0x4B, 3, 4]) == "epub")
        #expect(BookUploadSniffer.fileExtension(filename: nil, contentType: nil, bytes: Array("<!DOCTYPE html><p>Hi".utf8)) == "html")
        #expect(BookUploadSniffer.fileExtension(filename: nil, contentType: nil, bytes: Array("Once upon a time".utf8)) == "txt")
    }

    @Test("Given an FB2 sent under a text name and type, when it is sniffed, then its content decides")
    func contentFirst() {
        let fb2 = Array("<?xml version=\"1.0\"?><FictionBook xmlns=\"http://www.gribuser.ru/xml/fictionbook/2.0\"><body/></FictionBook>".utf8)
        #expect(BookUploadSniffer.fileExtension(filename: "book.txt", contentType: "text/plain", bytes: fb2) == "fb2")
    }
}
