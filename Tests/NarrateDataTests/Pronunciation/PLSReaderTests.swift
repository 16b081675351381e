import Foundation
import NarrateDomain
import Testing

@testable import NarrateData

@Suite struct PLSReaderTests {
    private func read(_ text: String) -> Result<PronunciationLexicon, PLSReader.Failure> {
        PLSReader.read(Array(text.utf8), name: "test.pls")
    }

    @Test("a PLS lexicon gives its lexemes, language and alphabet; a phoneme may name its own alphabet, prefer picks one")
    func lexemes() throws {
        // Given
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <lexicon version="1.0" xmlns="http://www.w3.org/2005/01/pronunciation-lexicon" alphabet="ipa" xml:lang="en-GB">
              <lexeme><grapheme>GIF</grapheme><grapheme> gif </grapheme><phoneme>dʒɪf</phoneme></lexeme>
              <lexeme><grapheme>tomato</grapheme><phoneme>təˈmeɪtəʊ</phoneme><phoneme prefer="true" alphabet="x-sampa">t@"mA:t@U</phoneme></lexeme>
              <lexeme><grapheme>W3C</grapheme><alias>World Wide Web Consortium</alias></lexeme>
            </lexicon>
            """

        // When
        let lexicon = try read(text).get()

        // Then
        #expect(lexicon.language == "en-GB")
        #expect(lexicon.name == "test.pls")
        #expect(lexicon.entries == [
            PronunciationEntry(graphemes: ["GIF", "gif"], phonemes: "dʒɪf", alphabet: "ipa"),
            PronunciationEntry(graphemes: ["tomato"], phonemes: "t@\"mA:t@U", alphabet: "x-sampa"),
        ])
        #expect(lexicon.digest.count == 64)
    }

    @Test("editing a lexicon changes its digest")
    func digestFollowsContent() throws {
        // Given
        let before = #"<lexicon alphabet="ipa"><lexeme><grapheme>a</grapheme><phoneme>eɪ</phoneme></lexeme></lexicon>"#
        let after = #"<lexicon alphabet="ipa"><lexeme><grapheme>a</grapheme><phoneme>ɑː</phoneme></lexeme></lexicon>"#

        // Then
        #expect(try read(before).get().digest != read(after).get().digest)
        #expect(try read(before).get().digest == read(before).get().digest)
    }

    @Test("malformed XML, another root, too many lexemes or too many bytes fail with a reason", arguments: [
        ("<lexicon><lexeme>", "end"),
        ("<html/>", "not a PLS <lexicon>"),
        ("<lexicon>" + String(repeating: "<lexeme><grapheme>a</grapheme><phoneme>a</phoneme></lexeme>", count: PronunciationLexicon.maxEntries + 1) + "</lexicon>", "more than 10000 lexemes"),
        ("<lexicon>" + String(repeating: " ", count: PLSReader.maxBytes) + "</lexicon>", "larger than 1024 KiB"),
    ])
    func failures(text: String, reason: String) {
        guard case let .failure(failure) = read(text) else {
            Issue.record("read a broken lexicon")
            return
        }
        #expect(failure.reason.contains(reason), "\(failure.reason)")
    }

    @Test("a --lexicon file that is missing or malformed is an error naming the file")
    func files() throws {
        // Given
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("narrate-pls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let broken = folder.appendingPathComponent("broken.pls").path
        try Data("<lexicon>".utf8).write(to: URL(fileURLWithPath: broken))

        // Then
        #expect(throws: PronunciationError.unreadableLexicon(path: folder.path + "/none.pls", reason: "there is no such file")) {
            try LexiconFileReader.read([folder.path + "/none.pls"])
        }
        let error = #expect(throws: PronunciationError.self) { try LexiconFileReader.read([broken]) }
        #expect(error?.description.contains("broken.pls") == true)
    }
}
