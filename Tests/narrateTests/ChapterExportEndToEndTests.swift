import Foundation
import Testing

/// `narrate book --chapters` on chapters that share a printed page: each file holds its chapter's span only.
@Suite("Chapters sharing a page, end to end")
struct ChapterExportEndToEndTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    @Test("children's literature chapters 5 and 6, both starting on page 174, give two files of their own text")
    func chaptersSharingAPage() async throws {
        // Given chapter 5 (page 174, top) and chapter 6 (page 174, after chapter 5's introduction)
        let book = try NarrateProcess.corpusFile("epub/childrens-literature.epub")
        let environment = ["NARRATE_LIBRARY": folder.path("library.sqlite"), "NARRATE_CACHE_DIR": folder.path("cache")]

        // When
        let result = try await NarrateProcess.narrate(
            ["book", book, "-o", "out", "--chapters", "5-6", "--format", "wav", "--subtitles", "srt", "--rate", "450"],
            in: folder.url, environment: environment
        )

        // Then two files, each titled and holding its own chapter
        #expect(result.status == 0, "\(result.stderr)")
        let data = try Data(contentsOf: folder.url.appendingPathComponent("out/manifest.json"))
        let manifest = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let files = try #require(manifest["files"] as? [[String: Any]])
        #expect(files.compactMap { $0["fileName"] as? String } == [
            "001 - 190 A FOUR-LEAVED CLOVER.wav", "002 - I. The Rabbi and the Diadem.wav",
        ])
        #expect(files.compactMap { $0["pageLabels"] as? [String] } == [["174"], ["174", "175"]])
        let audio = try files.map { file in
            try Data(contentsOf: folder.url.appendingPathComponent("out/" + (file["fileName"] as? String ?? "")))
        }
        #expect(audio.count == 2 && audio[0].count > 44 && audio[1].count > 44)
        #expect(audio.first.map(Fingerprint.of) != audio.last.map(Fingerprint.of), "the two chapters are the same audio")
        let subtitles = try files.map { file in
            // SRT has no word tags; its lines are wrapped, so they are joined again.
            try String(contentsOfFile: folder.path("out/" + (file["subtitleFileName"] as? String ?? "")), encoding: .utf8)
                .split(separator: "\n").joined(separator: " ")
        }
        #expect(subtitles[0].contains("The rabbis of old") && !subtitles[0].contains("The Rabbi and The Diadem"))
        #expect(subtitles[1].contains("The Rabbi and The Diadem") && !subtitles[1].contains("The rabbis of old"))
        #expect(!subtitles[1].contains("2. Friendship"), "chapter 6 runs into chapter 7")
    }
}

/// A cheap fingerprint of a file's bytes, so two files are compared without diffing them.
private enum Fingerprint {
    static func of(_ data: Data) -> Int {
        var hasher = Hasher()
        hasher.combine(data)
        return hasher.finalize()
    }
}
