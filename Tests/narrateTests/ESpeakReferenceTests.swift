import Foundation
import Testing

/// Our PCM against what `espeak-ng -w` writes for the same text and settings, for every chunk
/// of a text whatever came before it.
@Suite("eSpeak NG reference")
struct ESpeakReferenceTests {
    static let texts = [
        "en-us": "The quick brown fox jumps over the lazy dog. It was the best of times, it was the worst of times!",
        "fr": "Le petit prince s'assit sur une pierre et leva les yeux vers le ciel. Où sont les hommes ?",
        "de": "Der schnelle braune Fuchs springt über den faulen Hund. Es war einmal ein König.",
    ]
    static let cases: [(String, Int)] = ["en-us", "fr", "de"].flatMap { voice in [120, 175, 300].map { (voice, $0) } }

    @Test("narrate say is sample-identical to espeak-ng -w", arguments: cases)
    func sayMatchesESpeak(voice: String, rate: Int) async throws {
        // Given
        let folder = try TemporaryFolder()
        let text = try #require(Self.texts[voice])
        try await NarrateProcess.run("/usr/bin/espeak-ng", ["-v", voice, "-s", String(rate), "-w", folder.path("reference.wav"), text], in: folder.url)

        // When
        let result = try await NarrateProcess.narrate(["say", text, "--voice", voice, "--rate", String(rate), "-o", folder.path("ours.wav"), "--no-cache"], in: folder.url)

        // Then
        #expect(result.status == 0, "\(result.stderr)")
        let ours = try WAVFile(path: folder.path("ours.wav"))
        let reference = try WAVFile(path: folder.path("reference.wav"))
        #expect(ours.sampleRate == reference.sampleRate)
        #expect(ours.data.count == reference.data.count)
        #expect(identical(ours.data, reference.data))
    }

    @Test("narrate page is sample-identical to espeak-ng -w on the page's text", arguments: cases)
    func pageMatchesESpeak(voice: String, rate: Int) async throws {
        // Given: a one-page book whose text wraps over lines, as plain-text books do
        let folder = try TemporaryFolder()
        let text = try #require(Self.texts[voice])
        let wrapped = text.replacingOccurrences(of: ". ", with: ".\n")
        try Data(("\n\n" + wrapped + "\n").utf8).write(to: folder.url.appendingPathComponent("book.txt"))
        try Data(text.utf8).write(to: folder.url.appendingPathComponent("page.txt"))
        try await NarrateProcess.run("/usr/bin/espeak-ng", ["-v", voice, "-s", String(rate), "-w", folder.path("reference.wav"), "-f", folder.path("page.txt")], in: folder.url)

        // When
        let result = try await NarrateProcess.narrate(["page", "book.txt", "1", "--voice", voice, "--rate", String(rate), "-o", "ours.wav", "--no-cache"], in: folder.url)

        // Then
        #expect(result.status == 0, "\(result.stderr)")
        try expectSameSamples("ours.wav", "reference.wav", in: folder)
    }

    @Test("The default voice speaks as espeak-ng -v en-us does, whole file included")
    func defaultVoiceMatchesWholeFile() async throws {
        // Given
        let folder = try TemporaryFolder()
        let text = "Hello world."
        try await NarrateProcess.run("/usr/bin/espeak-ng", ["-v", "en-us", "-w", folder.path("reference.wav"), text], in: folder.url)

        // When
        let result = try await NarrateProcess.narrate(["say", text, "-o", "ours.wav", "--no-cache"], in: folder.url)

        // Then: the header too
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try identical(Data(contentsOf: folder.url.appendingPathComponent("ours.wav")), Data(contentsOf: folder.url.appendingPathComponent("reference.wav"))))
    }

    /// A paragraph of 589 characters whose first sentence is long: with the next paragraph's
    /// first sentence it passes the 700-character chunk limit, so each copy is a chunk of its own.
    static let paragraph = """
        Winston Smith, his chin nuzzled into his breast in an effort to escape the vile wind, slipped quickly \
        through the glass doors of Victory Mansions, though not quickly enough to prevent a swirl of gritty dust \
        from entering along with him. It was a bright cold day in April, and the clocks were striking thirteen. \
        The hallway smelt of boiled cabbage and old rag mats. At one end of it a coloured poster, too large for \
        indoor display, had been tacked to the wall. It depicted simply an enormous face, more than a metre wide: \
        the face of a man of about forty-five, with a heavy black moustache.
        """

    @Test("Three copies of a paragraph in one run: each copy is espeak-ng -w's audio, on one worker or two", arguments: [1, 2])
    func repeatedParagraph(jobs: Int) async throws {
        // Given
        let folder = try TemporaryFolder()
        try await NarrateProcess.run("/usr/bin/espeak-ng", ["-v", "en-us", "-w", folder.path("reference.wav"), Self.paragraph], in: folder.url)
        try Data(([Self.paragraph, Self.paragraph, Self.paragraph].joined(separator: "\n\n")).utf8).write(to: folder.url.appendingPathComponent("three.txt"))

        // When
        let result = try await NarrateProcess.narrate(["say", "-f", "three.txt", "--voice", "en-us", "-o", "ours.wav", "--no-cache", "--jobs", "\(jobs)"], in: folder.url)

        // Then
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("3 chunks"), "\(result.stderr)")
        let ours = try WAVFile(path: folder.path("ours.wav"))
        let reference = try WAVFile(path: folder.path("reference.wav"))
        #expect(ours.data.count == 3 * reference.data.count)
        #expect(identical(ours.data, reference.data + reference.data + reference.data))
    }
}
