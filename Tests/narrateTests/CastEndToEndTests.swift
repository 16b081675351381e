import Foundation
import Testing

/// `narrate cast`: a book's characters, and who speaks each quotation, as scripts read them.
@Suite("narrate cast, end to end")
struct CastEndToEndTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    private func quotes(_ file: String) async throws -> [[String: Any]] {
        let result = try await NarrateProcess.narrate(["cast", file, "--quotes", "--json"], in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]])
    }

    /// The text between two offsets in Unicode code points, as a Python string slices it.
    private func slice(_ text: String, _ start: Int, _ end: Int) -> String {
        let scalars = Array(text.unicodeScalars)
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[start..<end])
        return String(view)
    }

    @Test("Each quoted part comes with its speaker, its rule, and offsets in code points that slice the file's text to it")
    func quotesWithOffsets() async throws {
        // Given: a character outside the Basic Multilingual Plane before the dialogue (one code point, two UTF-16 units)
        let text = "\u{1F600} Caf\u{E9}.\n\n\u{201C}I cannot agree,\u{201D} said Emma, \u{201C}you know I cannot.\u{201D}\n\n\u{201C}Indeed,\u{201D} replied Mr. Knightley.\n"
        try Data(text.utf8).write(to: folder.url.appendingPathComponent("emma.txt"))

        // When
        let parts = try await quotes("emma.txt")

        // Then
        #expect(parts.compactMap { $0["text"] as? String } == ["I cannot agree,", "you know I cannot.", "Indeed,"])
        #expect(parts.map { $0["speaker"] as? String } == ["Emma", "Emma", "Mr. Knightley"])
        #expect(parts.allSatisfy { ($0["rule"] as? String)?.isEmpty == false })
        for part in parts {
            let start = try #require(part["start"] as? Int)
            let end = try #require(part["end"] as? Int)
            #expect(slice(text, start, end) == part["text"] as? String)
        }
    }

    @Test("On a whole novel, every quoted part's offsets slice the text to it, and the characters are listed with their lines")
    func wholeNovel() async throws {
        // Given
        let novel = NarrateProcess.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/dialogue/novels/PrideAndPrejudice/novel_text.txt").path
        try #require(FileManager.default.fileExists(atPath: novel), "the dialogue data is missing (../shared/dialogue beside the checkout)")
        let text = try String(contentsOfFile: novel, encoding: .utf8)

        // When
        let parts = try await quotes(novel)
        let listing = try await NarrateProcess.narrate(["cast", novel, "--json"], in: folder.url)

        // Then
        #expect(parts.count > 1_000)
        for part in parts {
            let start = try #require(part["start"] as? Int)
            let end = try #require(part["end"] as? Int)
            #expect(slice(text, start, end) == part["text"] as? String)
        }
        #expect(listing.status == 0, "\(listing.stderr)")
        let characters = try #require(try JSONSerialization.jsonObject(with: listing.stdout) as? [[String: Any]])
        let elizabeth = characters.first { ($0["name"] as? String)?.contains("Elizabeth") == true }
        #expect(elizabeth != nil, "\(characters.prefix(10))")
        #expect((elizabeth?["lines"] as? Int ?? 0) > 50)
    }
}
