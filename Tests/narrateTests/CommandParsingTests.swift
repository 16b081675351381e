import ArgumentParser
import Testing

@testable import narrate

/// Argument handling, checked by parsing alone.
@Suite("Command parsing")
struct CommandParsingTests {
    @Test("say takes text, voice options and an output")
    func sayParses() throws {
        // When
        let command = try #require(try Narrate.parseAsRoot(["say", "Hello", "--voice", "fr", "--rate", "200", "-o", "x.wav"]) as? Narrate.Say)

        // Then
        #expect(command.text == "Hello")
        #expect(command.common.voice == "fr")
        #expect(command.common.rate == 200)
        #expect(command.output == "x.wav")
    }

    @Test("--lexicon is taken by every speaking command, repeated in order; text takes --phonemes and --lexicon")
    func lexiconParses() throws {
        // When
        let say = try #require(try Narrate.parseAsRoot(["say", "Hello", "--lexicon", "a.pls", "--lexicon", "b.pls"]) as? Narrate.Say)
        let page = try #require(try Narrate.parseAsRoot(["page", "book.epub", "3", "--lexicon", "a.pls"]) as? Narrate.PageCommand)
        let book = try #require(try Narrate.parseAsRoot(["book", "book.epub", "-o", "out", "--lexicon", "a.pls"]) as? Narrate.BookCommand)
        let next = try #require(try Narrate.parseAsRoot(["next", "book.epub", "--lexicon", "a.pls"]) as? Narrate.Next)
        let text = try #require(try Narrate.parseAsRoot(["text", "book.epub", "3", "--phonemes", "--voice", "fr", "--lexicon", "a.pls"]) as? Narrate.Text)

        // Then
        #expect(say.common.pronunciation.paths == ["a.pls", "b.pls"])
        #expect(page.common.pronunciation.paths == ["a.pls"])
        #expect(book.common.pronunciation.paths == ["a.pls"])
        #expect(next.common.pronunciation.paths == ["a.pls"])
        #expect(text.phonemes && text.voice == "fr" && text.pronunciation.paths == ["a.pls"])
    }

    @Test("A rate outside 80–450 is refused")
    func rateOutOfRange() {
        #expect(throws: (any Error).self) { try Narrate.parseAsRoot(["say", "Hello", "--rate", "500"]) }
        #expect(throws: (any Error).self) { try Narrate.parseAsRoot(["say", "Hello", "--pitch", "100"]) }
    }

    @Test("Text and -f together are refused")
    func textAndFile() {
        #expect(throws: (any Error).self) { try Narrate.parseAsRoot(["say", "Hello", "-f", "book.txt"]) }
    }

    @Test("cache prune reads human sizes", arguments: [("500MB", Int64(500_000_000)), ("2GB", 2_000_000_000), ("750MiB", 786_432_000), ("1024", 1024)])
    func pruneSizes(argument: String, bytes: Int64) throws {
        let command = try #require(try Narrate.parseAsRoot(["cache", "prune", "--max-size", argument]) as? Narrate.CacheCommand.Prune)
        #expect(command.maxSize.bytes == bytes)
    }

    @Test("A size that is not a size is refused")
    func badSize() {
        #expect(throws: (any Error).self) { try Narrate.parseAsRoot(["cache", "prune", "--max-size", "lots"]) }
    }

    @Test("page takes a book and a page label")
    func pageParses() throws {
        let command = try #require(try Narrate.parseAsRoot(["page", "book.epub", "xii", "-o", "p.wav", "--refresh"]) as? Narrate.PageCommand)
        #expect(command.book == "book.epub")
        #expect(command.page == "xii")
        #expect(command.refresh)
    }
}
