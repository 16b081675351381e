import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import NarrateServer

/// DOCX, ODT and FB2 uploads: told by their content, whatever their name and type say, and
/// served with their format.
@Suite("Office uploads")
struct OfficeUploadRouteTests {
    /// A small real file of NarrateDataTests' fixtures (pandoc's and LibreOffice's).
    static func fixture(_ name: String, filePath: String = #filePath) throws -> [UInt8] {
        let url = URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("NarrateDataTests/Fixtures/office/\(name)")
        return try [UInt8](Data(contentsOf: url))
    }

    @Test("Given a DOCX, an ODT and a zipped FB2 sent as text files, when they are uploaded, then each is read by its content and served with its format", arguments: [
        ("small.docx", "docx"), ("small-lo.odt", "odt"), ("small.fb2.zip", "fb2"),
    ])
    func sniffedUpload(name: String, format: String) async throws {
        let bytes = try Self.fixture(name)
        try await RouteTestServer().test { client in
            // When
            let uploaded = try await client.post("/v1/books?filename=notes.txt", body: bytes, headers: [.contentType: "text/plain"])

            // Then
            #expect(uploaded.status == .created)
            let id = try #require(uploaded.json?["id"] as? String)
            #expect(uploaded.json?["format"] as? String == format)
            let detail = try #require(try await client.get("/v1/books/\(id)").json)
            #expect(detail["title"] as? String == "Pride and Prejudice")
            #expect(detail["authors"] as? [String] == ["Jane Austen"])
            #expect(detail["format"] as? String == format)
            let toc = try #require(try await client.get("/v1/books/\(id)/toc").json)
            let titles = (toc["chapters"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
            #expect(titles == ["Chapter I", "Chapter II"])
            // The title page (title and author) comes first, a page of its own, then Chapter I.
            let titlePage = String(decoding: try await client.get("/v1/books/\(id)/pages/1/text").bytes, as: UTF8.self)
            #expect(titlePage.hasPrefix("Pride and Prejudice"))
            let text = String(decoding: try await client.get("/v1/books/\(id)/pages/2/text").bytes, as: UTF8.self)
            #expect(text.contains("It is a truth universally acknowledged"))
            #expect(!text.contains("not read aloud"))
        }
    }

    @Test("Given a DOCX cut in half, when it is uploaded, then 422 unreadable_book names the format and the service still answers")
    func damagedUpload() async throws {
        let bytes = try Self.fixture("small.docx")
        try await RouteTestServer().test { client in
            // When
            let broken = try await client.post("/v1/books?filename=book.docx", body: Array(bytes.prefix(bytes.count / 2)), headers: [.contentType: "application/octet-stream"])

            // Then
            #expect(broken.status == .unprocessableContent)
            #expect(broken.apiError?.code == "unreadable_book")
            #expect(broken.apiError?.message?.hasPrefix("The uploaded file cannot be read as DOCX: it is not a ZIP archive") == true)
            let list = try await client.get("/v1/books")
            #expect(list.status == .ok)
            #expect((list.json?["books"] as? [Any])?.isEmpty == true)
        }
    }
}
