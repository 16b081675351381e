import Foundation
import Testing

/// The commands as a user runs them, on real corpus books.
@Suite("CLI, end to end")
struct CLIEndToEndTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    @Test("narrate say reads standard input and -o - streams WAV to standard output")
    func stdinToStdout() async throws {
        // When
        let streamed = try await NarrateProcess.narrate(["say", "-o", "-", "--cache-dir", "cache"], in: folder.url, stdin: Data("Read from a pipe.".utf8))
        let written = try await NarrateProcess.narrate(["say", "Read from a pipe.", "-o", "file.wav", "--cache-dir", "cache"], in: folder.url)

        // Then
        #expect(streamed.status == 0, "\(streamed.stderr)")
        #expect(written.status == 0)
        let stream = try WAVFile(streamed.stdout)
        let file = try WAVFile(path: folder.path("file.wav"))
        #expect(stream.sampleRate == 22_050)
        #expect(identical(stream.data, file.data))
    }

    @Test("narrate pages lists a Gutenberg book without its licence, and page N narrates that page")
    func pagesOfACorpusBook() async throws {
        // Given
        let book = try NarrateProcess.corpusFile("txt/pg972-devils-dictionary-1990s-header-ascii.txt")

        // When
        let listing = try await NarrateProcess.narrate(["pages", book, "--json"], in: folder.url)
        let page = try await NarrateProcess.narrate(["page", book, "3", "-o", "p3.wav", "--cache-dir", "cache", "--rate", "450"], in: folder.url)

        // Then
        #expect(listing.status == 0, "\(listing.stderr)")
        let pages = try #require(try JSONSerialization.jsonObject(with: listing.stdout) as? [[String: Any]])
        #expect(pages.count > 100)
        let words = pages.compactMap { $0["words"] as? Int }
        #expect(words.dropLast().allSatisfy { $0 > 100 && $0 < 700 })
        let opening = try #require(pages.first?["opening"] as? String)
        #expect(opening.contains("SMALL PRINT") == false)
        #expect(page.status == 0, "\(page.stderr)")
        #expect(page.stderr.contains("Page 3 (3 of \(pages.count), voice en-us)"))
        #expect(try WAVFile(path: folder.path("p3.wav")).duration > 20)
    }

    @Test("narrate say -f speaks a Windows-1252 book with its curly quotes decoded")
    func windows1252File() async throws {
        // Given: the first ~2 KB of a cp1252 corpus book
        let book = try NarrateProcess.corpusFile("txt/pg1342-pride-and-prejudice-cp1252.txt")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: book)).prefix(3000)
        try bytes.write(to: folder.url.appendingPathComponent("start.txt"))

        // When
        let result = try await NarrateProcess.narrate(["say", "-f", "start.txt", "-o", "out.wav", "--cache-dir", "cache", "--rate", "450"], in: folder.url)

        // Then
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try WAVFile(path: folder.path("out.wav")).duration > 10)
    }

    @Test("narrate voices lists presets and eSpeak voices, filtered by language")
    func voices() async throws {
        // When
        let all = try await NarrateProcess.narrate(["voices"], in: folder.url)
        let french = try await NarrateProcess.narrate(["voices", "--language", "fr", "--json"], in: folder.url)

        // Then
        #expect(all.status == 0)
        let text = String(decoding: all.stdout, as: UTF8.self)
        #expect(text.contains("narrator"))
        #expect(text.contains("en-us"))
        let voices = try #require(try JSONSerialization.jsonObject(with: french.stdout) as? [[String: Any]])
        #expect(!voices.isEmpty)
        #expect(voices.allSatisfy { ($0["languages"] as? [String] ?? []).contains { $0.hasPrefix("fr") } })
    }

    @Test("A preset's settings apply, and explicit options override them")
    func presetVoice() async throws {
        // When: the british preset is en-gb at rate 165
        let preset = try await NarrateProcess.narrate(["say", "Good morning, everyone.", "--voice", "british", "-o", "preset.wav", "--no-cache"], in: folder.url)
        try await NarrateProcess.run("/usr/bin/espeak-ng", ["-v", "en-gb", "-s", "165", "-p", "45", "-w", folder.path("reference.wav"), "Good morning, everyone."], in: folder.url)

        // Then
        #expect(preset.status == 0, "\(preset.stderr)")
        #expect(try identical(WAVFile(path: folder.path("preset.wav")).data, WAVFile(path: folder.path("reference.wav")).data))
    }
}
