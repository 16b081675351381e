import Foundation
import Testing

/// The book's own pronunciations and the user's, as a user meets them: the EPUB 3 fixture in
/// `Tests/Fixtures/pronunciation-book` (IPA and X-SAMPA PLS lexicons, one per language, inline
/// `ssml:ph`), `--lexicon` files and a preset's `lexicons`.
@Suite("Pronunciations, end to end")
struct PronunciationEndToEndTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    /// What `narrate text book.epub 1 --phonemes` prints for the fixture with an English voice.
    static let spoken = """
        Terms of the Trade

        Our web server is [['EndZIn'Eks]], never NGINX in speech.

        We met in [['rEdIN]], and we were reading.

        A [[dZIf]] or a [[dZIf]] is a picture.

        We ate [['ki:nwA:]] and said bonjour.

        Say [[t@'mA:toU]] the British way.

        The pipe is made of [[lEd]].

        The town of Zzyzx is in California; [ [brackets]] stay text.

        """

    static let userLexicon = """
        <?xml version="1.0" encoding="UTF-8"?>
        <lexicon version="1.0" xmlns="http://www.w3.org/2005/01/pronunciation-lexicon" alphabet="x-sampa" xml:lang="en">
          <lexeme><grapheme>nginx</grapheme><phoneme>"EnZInks</phoneme></lexeme>
        </lexicon>
        """

    private func narrate(_ arguments: [String], environment: [String: String] = [:]) async throws -> ProcessResult {
        try await NarrateProcess.narrate(arguments, in: folder.url, environment: [
            "NARRATE_LIBRARY": folder.path("library.sqlite"), "NARRATE_CACHE_DIR": folder.path("cache"),
            "NARRATE_VOICES_DIR": folder.path("voices"),
        ].merging(environment) { $1 })
    }

    /// The fixture zipped as an EPUB (`mimetype` first and stored), with `replacing` files swapped.
    private func makeBook(_ name: String = "book.epub", replacing: [String: String] = [:]) async throws {
        let source = NarrateProcess.packageRoot.appendingPathComponent("Tests/Fixtures/pronunciation-book")
        let copy = folder.url.appendingPathComponent("unpacked-\(name)")
        try FileManager.default.copyItem(at: source, to: copy)
        for (file, contents) in replacing {
            try Data(contents.utf8).write(to: copy.appendingPathComponent(file))
        }
        let archive = folder.path(name)
        #expect(try await NarrateProcess.run("/usr/bin/zip", ["-X", "-q", "-0", archive, "mimetype"], in: copy).status == 0)
        #expect(try await NarrateProcess.run("/usr/bin/zip", ["-X", "-q", "-r", archive, "META-INF", "OEBPS"], in: copy).status == 0)
    }

    private func write(_ name: String, _ contents: String) throws {
        let url = folder.url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: url)
    }

    @Test("text --phonemes shows the book's PLS and ssml:ph pronunciations as eSpeak phoneme spans, with a warning naming what cannot be converted")
    func textPhonemes() async throws {
        // Given
        try await makeBook()

        // When
        let result = try await narrate(["text", "book.epub", "1", "--phonemes"])
        let plain = try await narrate(["text", "book.epub", "1"])
        let french = try await narrate(["text", "book.epub", "1", "--phonemes", "--voice", "fr"])

        // Then
        #expect(result.status == 0, "\(result.stderr)")
        #expect(String(decoding: result.stdout, as: UTF8.self) == Self.spoken)
        #expect(result.stderr.contains("terms-ipa.pls: the pronunciation of \u{201C}Zzyzx\u{201D} is not used"), "\(result.stderr)")
        #expect(String(decoding: plain.stdout, as: UTF8.self).contains("Our web server is nginx, never NGINX in speech."))
        #expect(String(decoding: plain.stdout, as: UTF8.self).contains("Zzyzx is in California; [[brackets]] stay text."))
        #expect(String(decoding: french.stdout, as: UTF8.self).contains("We ate quinoa and said [[bO~Zur]]."))
    }

    @Test("a page with pronunciations is sample-identical to espeak-ng -w given the text --phonemes prints")
    func pageMatchesESpeakPhonemeInput() async throws {
        // Given
        try await makeBook()
        try Data(Self.spoken.utf8).write(to: folder.url.appendingPathComponent("spoken.txt"))
        try await NarrateProcess.run("/usr/bin/espeak-ng", ["-v", "en-us", "-w", folder.path("reference.wav"), "-f", folder.path("spoken.txt")], in: folder.url)

        // When
        let result = try await narrate(["page", "book.epub", "1", "-o", "ours.wav", "--no-cache"])

        // Then
        #expect(result.status == 0, "\(result.stderr)")
        try expectSameSamples("ours.wav", "reference.wav", in: folder)
    }

    @Test("the service's page audio is narrate page's, sample for sample, with the book's own lexicons, with and without a voice")
    func servicePageAudioReadsTheBooksLexicons() async throws {
        // Given the book (PLS lexicons, ssml:ph) in a running service's library
        try await makeBook()
        let serve = try await ServeProcess.start(folder: folder)
        let added = try await serve.request("POST", "/v1/books?filename=book.epub", body: try Data(contentsOf: folder.url.appendingPathComponent("book.epub")))
        #expect(added.status == 201)
        let id = try #require(added.json?["id"] as? String)
        let storage = ["--library", folder.path("library.sqlite"), "--cache-dir", folder.path("cache")]

        for voice in [nil, "en-us", "EN-US"] {
            // When the page's audio is asked of the service and of the CLI
            let query = voice.map { "&voice=\($0)" } ?? ""
            let served = try await serve.request("GET", "/v1/books/\(id)/pages/1/audio?format=wav\(query)")
            let name = "page-\(voice ?? "default").wav"
            let cli = try await NarrateProcess.narrate(["page", "book.epub", "1", "-o", name] + storage + (voice.map { ["--voice", $0] } ?? []), in: folder.url)

            // Then both are the same samples, and they are the book's pronunciations (equal to
            // espeak-ng given the phonemes `text --phonemes` prints)
            #expect(served.status == 200, "\(String(decoding: served.body, as: UTF8.self))")
            #expect(cli.status == 0, "\(cli.stderr)")
            #expect(identical(try WAVFile(served.body).data, try WAVFile(path: folder.path(name)).data), "voice \(voice ?? "none")")
        }
        try Data(Self.spoken.utf8).write(to: folder.url.appendingPathComponent("spoken.txt"))
        try await NarrateProcess.run("/usr/bin/espeak-ng", ["-v", "en-us", "-w", folder.path("reference.wav"), "-f", folder.path("spoken.txt")], in: folder.url)
        try expectSameSamples("page-en-us.wav", "reference.wav", in: folder)
        _ = await serve.terminate()
    }

    @Test("--lexicon: the user's pronunciation wins over the book's")
    func userLexiconWins() async throws {
        // Given
        try await makeBook()
        try write("mine.pls", Self.userLexicon)

        // When
        let result = try await narrate(["text", "book.epub", "1", "--phonemes", "--lexicon", "mine.pls"])

        // Then
        #expect(result.status == 0, "\(result.stderr)")
        #expect(String(decoding: result.stdout, as: UTF8.self).contains("Our web server is [['EnZInks]], never NGINX"))
    }

    @Test("--lexicon applies to a book export too: the chunk it changes has another cache key")
    func userLexiconInExport() async throws {
        // Given
        try await makeBook()
        try write("mine.pls", Self.userLexicon)

        // When
        let plain = try await narrate(["book", "book.epub", "-o", "plain", "--format", "wav", "--rate", "450"])
        let mine = try await narrate(["book", "book.epub", "-o", "mine", "--format", "wav", "--rate", "450", "--lexicon", "mine.pls"])

        // Then
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(mine.status == 0, "\(mine.stderr)")
        func keys(_ folder: String) throws -> [String] {
            let data = try Data(contentsOf: self.folder.url.appendingPathComponent("\(folder)/manifest.json"))
            let manifest = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let files = try #require(manifest["files"] as? [[String: Any]])
            return files.flatMap { $0["cacheKeys"] as? [String] ?? [] }
        }
        let plainKeys = try keys("plain")
        let mineKeys = try keys("mine")
        #expect(!plainKeys.isEmpty)
        #expect(plainKeys.count == mineKeys.count)
        #expect(plainKeys != mineKeys)
    }

    @Test("a preset's lexicons apply to what it says: the same audio as espeak-ng given the phonemes")
    func presetLexicons() async throws {
        // Given
        try write("voices/fixes.pls", Self.userLexicon)
        try write("voices/admin.json", #"{"name": "admin", "voice": "en-us", "lexicons": ["fixes.pls"]}"#)
        try await NarrateProcess.run("/usr/bin/espeak-ng", ["-v", "en-us", "-w", folder.path("reference.wav"), "Restart [['EnZInks]] now."], in: folder.url)

        // When
        let result = try await narrate(["say", "Restart nginx now.", "--voice", "admin", "-o", "ours.wav", "--no-cache"])

        // Then
        #expect(result.status == 0, "\(result.stderr)")
        let ours = try WAVFile(path: folder.path("ours.wav"))
        let reference = try WAVFile(path: folder.path("reference.wav"))
        #expect(identical(ours.data, reference.data))
    }

    @Test("editing a lexicon is never answered from the cache: the key follows the lexicon's content")
    func editedLexiconMissesCache() async throws {
        // Given
        try write("mine.pls", Self.userLexicon)
        let say = ["say", "Restart nginx now.", "--lexicon", "mine.pls", "--verbose"]

        // When
        let first = try await narrate(say + ["-o", "first.wav"])
        let again = try await narrate(say + ["-o", "again.wav"])
        try write("mine.pls", Self.userLexicon.replacingOccurrences(of: "\"EnZInks", with: "\"EndZIn\"Eks"))
        let edited = try await narrate(say + ["-o", "edited.wav"])
        let plain = try await narrate(["say", "Restart nginx now.", "--verbose", "-o", "plain.wav"])

        // Then
        #expect(first.stderr.contains("cache miss"), "\(first.stderr)")
        #expect(again.stderr.contains("cache hit"), "\(again.stderr)")
        #expect(edited.stderr.contains("cache miss"), "\(edited.stderr)")
        #expect(plain.stderr.contains("cache miss"), "\(plain.stderr)")
        let firstAudio = try WAVFile(path: folder.path("first.wav")).data
        #expect(identical(firstAudio, try WAVFile(path: folder.path("again.wav")).data))
        #expect(!identical(firstAudio, try WAVFile(path: folder.path("edited.wav")).data))
        #expect(!identical(firstAudio, try WAVFile(path: folder.path("plain.wav")).data))
    }

    @Test("a --lexicon that is missing or malformed is one error line naming the file, and nothing is written", arguments: [
        ("missing.pls", nil, "there is no such file"),
        ("broken.pls", "<lexicon><lexeme>", "broken.pls"),
        ("html.pls", "<html/>", "not a PLS <lexicon>"),
    ] as [(String, String?, String)])
    func badLexicon(name: String, contents: String?, message: String) async throws {
        // Given
        if let contents { try write(name, contents) }

        // When
        let result = try await narrate(["say", "Hello.", "--lexicon", name, "-o", "out.wav"])

        // Then
        #expect(result.status != 0)
        #expect(result.stderr.hasPrefix("narrate: error: The pronunciation lexicon '\(name)' cannot be used"), "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("out.wav")))
    }

    @Test("a book's lexicon that cannot be read gives a warning, and the book is read without it")
    func brokenBookLexicon() async throws {
        // Given
        try await makeBook(replacing: ["OEBPS/lexicons/terms-ipa.pls": "<lexicon><lexeme>"])

        // When
        let result = try await narrate(["text", "book.epub", "1", "--phonemes"])

        // Then
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("OEBPS/lexicons/terms-ipa.pls"), "\(result.stderr)")
        #expect(result.stderr.contains("without this lexicon"), "\(result.stderr)")
        let text = String(decoding: result.stdout, as: UTF8.self)
        #expect(text.contains("Our web server is nginx, never NGINX"))
        #expect(text.contains("We ate [['ki:nwA:]]"))
    }
}
