import ArgumentParser
import Foundation
import NarrateKit
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
        #expect(command.book.reference == "book.epub")
        #expect(command.page == "xii")
        #expect(command.refresh)
    }

    @Test("-v is --verbose, and --volume has no short name")
    func shortVerbose() throws {
        // When
        let say = try #require(try Narrate.parseAsRoot(["say", "Hello", "-v", "--volume", "120"]) as? Narrate.Say)
        let list = try #require(try Narrate.parseAsRoot(["list", "-v"]) as? Narrate.List)

        // Then
        #expect(say.common.storage.verbose)
        #expect(say.common.volume == 120)
        #expect(list.storage.verbose)
        #expect(throws: (any Error).self) { try Narrate.parseAsRoot(["say", "Hello", "-v", "120"]) }
    }

    @Test("--jobs defaults to the number of cores without naming it in the help")
    func jobsDefault() throws {
        // When
        let unset = try #require(try Narrate.parseAsRoot(["say", "Hello"]) as? Narrate.Say)
        let set = try #require(try Narrate.parseAsRoot(["say", "Hello", "-j", "3"]) as? Narrate.Say)
        let help = Narrate.helpMessage(for: Narrate.Say.self)

        // Then
        #expect(unset.common.jobCount == ProcessInfo.processInfo.activeProcessorCount)
        #expect(set.common.jobCount == 3)
        #expect(help.contains("(default: the number of cores)"))
        #expect(!help.contains("(default: the number of cores). (default:"))
        #expect(throws: (any Error).self) { try Narrate.parseAsRoot(["say", "Hello", "--jobs", "0"]) }
    }

    @Test("No help text states a default twice", arguments: [
        ["say"], ["page"], ["next"], ["book"], ["pages"], ["text"], ["add"], ["list"], ["show"],
        ["search"], ["toc"], ["remove"], ["voices"], ["cache", "stats"], ["cache", "prune"], ["cache", "clear"],
    ])
    func helpHasNoDoubleDefault(path: [String]) throws {
        // Given
        let command = try #require(Narrate.subcommand(at: path))

        // When
        let help = Narrate.helpMessage(for: command, columns: 10_000)

        // Then: no line names a default and gets one appended too
        for line in help.split(separator: "\n") {
            let defaults = line.components(separatedBy: "(default").count - 1
            #expect(defaults <= 1, "\(path): \(line)")
        }
    }

    @Test("search lists 3 hits per book unless --all")
    func searchParses() throws {
        // When
        let some = try #require(try Narrate.parseAsRoot(["search", "white", "whale"]) as? Narrate.Search)
        let all = try #require(try Narrate.parseAsRoot(["search", "whale", "--all", "--json"]) as? Narrate.Search)

        // Then
        #expect(some.query == ["white", "whale"])
        #expect(!some.all)
        #expect(Narrate.Search.hitsPerBook == 3)
        #expect(all.all && all.json)
    }

    @Test("The parser's own errors, the help request included, are left to it; a command's are ours to report")
    func errorOwnership() throws {
        // Given: --help parses into the parser's internal help command, whose run throws
        var help = try Narrate.parseAsRoot(["--help"])

        // When
        let helpError = try #require(throws: (any Error).self) { try help.run() }

        // Then
        #expect(CommandFailure.isArgumentParserError(helpError))
        #expect(CommandFailure.isArgumentParserError(ValidationError("bad")))
        #expect(CommandFailure.isArgumentParserError(ExitCode.failure))
        #expect(CommandFailure.isArgumentParserError(CleanExit.message("done")))
        #expect(!CommandFailure.isArgumentParserError(CLIMessage("No voice speaks 'xx'.")))
        #expect(!CommandFailure.isArgumentParserError(BookError.bookNotFound(reference: "99")))
    }

    @Test("Every command taking a book reads it as the first argument, through one option group")
    func bookArgument() throws {
        // When
        let references = [
            (try Narrate.parseAsRoot(["show", "Moby"]) as? Narrate.Show)?.book.reference,
            (try Narrate.parseAsRoot(["remove", "Moby"]) as? Narrate.Remove)?.book.reference,
            (try Narrate.parseAsRoot(["toc", "Moby"]) as? Narrate.TOC)?.book.reference,
            (try Narrate.parseAsRoot(["text", "Moby", "3"]) as? Narrate.Text)?.book.reference,
            (try Narrate.parseAsRoot(["next", "Moby"]) as? Narrate.Next)?.book.reference,
            (try Narrate.parseAsRoot(["pages", "Moby"]) as? Narrate.Pages)?.book.reference,
            (try Narrate.parseAsRoot(["book", "Moby"]) as? Narrate.BookCommand)?.book.reference,
            (try Narrate.parseAsRoot(["page", "Moby", "3"]) as? Narrate.PageCommand)?.book.reference,
        ]

        // Then
        #expect(references == Array(repeating: "Moby", count: 8))
        #expect(Narrate.helpMessage(for: Narrate.Show.self).contains("<book>"))
    }
}

extension CommandParsingTests {
    @Test("bookmarks BOOK lists them; add takes a page and a note, remove an id")
    func bookmarks() throws {
        // When
        let list = try Narrate.parseAsRoot(["bookmarks", "Moby"]) as? Narrate.BookmarksList
        let json = try Narrate.parseAsRoot(["bookmarks", "list", "Moby", "--json"]) as? Narrate.BookmarksList
        let add = try Narrate.parseAsRoot(["bookmarks", "add", "Moby", "xii", "--note", "the whale"]) as? Narrate.BookmarksAdd
        let remove = try Narrate.parseAsRoot(["bookmarks", "remove", "Moby", "3"]) as? Narrate.BookmarksRemove

        // Then
        #expect(list?.book.reference == "Moby" && list?.json == false)
        #expect(json?.json == true)
        #expect(add?.book.reference == "Moby" && add?.page == "xii" && add?.note == "the whale")
        #expect(remove?.id == 3)
        #expect(throws: (any Error).self) { try Narrate.parseAsRoot(["bookmarks", "remove", "Moby", "third"]) }
    }
}

extension Narrate {
    /// The subcommand type at `path` (`["cache", "prune"]`).
    static func subcommand(at path: [String]) -> (any ParsableCommand.Type)? {
        var command: any ParsableCommand.Type = Narrate.self
        for name in path {
            guard let next = command.configuration.subcommands.first(where: { $0._commandName == name }) else { return nil }
            command = next
        }
        return command
    }
}
