import ArgumentParser
import Foundation
import NarrateKit

extension Narrate {
    /// `narrate add FILE…`: add books to the library.
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add books (EPUB, text, HTML, Markdown) to the library.")

        @Argument(help: "The book files.")
        var files: [String]

        @OptionGroup var paging: PagingOptions
        @OptionGroup var storage: StorageOptions

        func validate() throws {
            if files.isEmpty { throw ValidationError("Name at least one book file.") }
        }

        func run() async throws {
            var configuration = storage.configuration()
            configuration.wordsPerPage = paging.wordsPerPage
            let library: LibraryUseCases
            do { library = try makeLibraryUseCases(configuration: configuration) } catch { throw fail(error) }
            var failures = 0
            for file in files {
                do {
                    let (book, existed) = try await library.importBook.execute(path: file)
                    let summary = "\(book.id): \(book.book.metadata.title) (\(book.book.pages.count) pages, \(book.book.chapters.count) chapters)"
                    print((existed ? "Already in the library: \(summary)" : "Added \(summary)").escapingControlCharacters)
                } catch {
                    failures += 1
                    _ = fail(error)
                }
            }
            if failures > 0 { throw ExitCode.failure }
        }
    }

    /// `narrate list`: the library's books.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the books in the library, newest first.")

        @Flag(name: .long, help: "Print JSON for scripts.")
        var json = false

        @OptionGroup var storage: StorageOptions

        func run() async throws {
            do {
                let books = try await makeLibraryUseCases(configuration: storage.configuration()).getBooks.execute()
                if json {
                    print(try Format.json(books.map(BookListing.init)))
                    return
                }
                if books.isEmpty {
                    storage.report("The library is empty: add books with 'narrate add FILE'.")
                    return
                }
                for book in books.map(BookListing.init) {
                    let progress = book.progressPage.map { "page \($0) of \(book.pageCount)" } ?? "\(book.pageCount) pages"
                    print("\(String(book.id).leftPadded(4))  \(book.title) — \(book.authors.joined(separator: ", ")) [\(progress)]".escapingControlCharacters)
                }
            } catch {
                throw fail(error)
            }
        }
    }

    /// `narrate show BOOK`: a book's details.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show a book's details.")

        @Argument(help: "The book: a file, a library id, or a title prefix.")
        var book: String

        @Flag(name: .long, help: "Print JSON for scripts.")
        var json = false

        @OptionGroup var storage: StorageOptions

        func run() async throws {
            do {
                let found = try await makeLibraryUseCases(configuration: storage.configuration()).getBookDetail.execute(reference: book)
                let listing = BookListing(found)
                if json {
                    print(try Format.json(listing))
                    return
                }
                let metadata = found.book.metadata
                var lines = [
                    "Id:          \(found.id)",
                    "Title:       \(metadata.title)",
                    "Authors:     \(metadata.authors.joined(separator: ", "))",
                    "Language:    \(metadata.language ?? "unknown")",
                    "Format:      \(found.book.format.rawValue)",
                    "Pages:       \(found.book.pages.count)\(found.book.pages.contains { $0.label != String($0.index) } ? " (printed page numbers)" : "")",
                    "Chapters:    \(found.book.chapters.count)",
                    "Progress:    \(found.progress.map { "page \($0.pageIndex) of \(found.book.pages.count)" } ?? "not started")",
                    "Source:      \(found.sourcePath)",
                    "Added:       \(ISO8601DateFormatter().string(from: found.dateAdded))",
                ]
                if let publisher = metadata.publisher { lines.append("Publisher:   \(publisher)") }
                if let date = metadata.date { lines.append("Date:        \(date)") }
                if let identifier = metadata.identifier { lines.append("Identifier:  \(identifier)") }
                if let credits = metadata.credits { lines.append("Credits:     \(credits)") }
                if !found.book.skipped.isEmpty {
                    let words = found.book.skipped.reduce(0) { $0 + $1.words }
                    lines.append("Skipped:     \(words) words that are not the book ('narrate toc' lists them; --include-matter reads them)")
                }
                if let cover = found.book.cover { lines.append("Cover:       \(cover.mediaType), \(Format.bytes(Int64(cover.data.count)))") }
                if let description = metadata.bookDescription { lines.append("Description: \(description)") }
                print(lines.map(\.escapingControlCharacters).joined(separator: "\n"))
            } catch {
                throw fail(error)
            }
        }
    }

    /// `narrate search QUERY`: full-text search of the library.
    struct Search: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Search titles, authors and the text of every page.")

        @Argument(help: "Words to find.")
        var query: [String]

        @Flag(name: .long, help: "Print JSON for scripts.")
        var json = false

        @OptionGroup var storage: StorageOptions

        func run() async throws {
            do {
                let results = try await makeLibraryUseCases(configuration: storage.configuration()).searchBooks.execute(query: query.joined(separator: " "))
                if json {
                    print(try Format.json(results.map(SearchListing.init)))
                    return
                }
                if results.isEmpty { storage.report("Nothing matches '\(query.joined(separator: " "))'.") }
                for result in results {
                    let page = result.pageIndex.map { ", page \($0)" } ?? ""
                    print("\(String(result.bookID.rawValue).leftPadded(4))  \(result.title)\(page): \(result.snippet)".escapingControlCharacters)
                }
            } catch {
                throw fail(error)
            }
        }
    }

    /// `narrate remove BOOK`: delete a book from the library.
    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a book from the library (the file itself stays).")

        @Argument(help: "The book: a file, a library id, or a title prefix.")
        var book: String

        @OptionGroup var storage: StorageOptions

        func run() async throws {
            do {
                let removed = try await makeLibraryUseCases(configuration: storage.configuration()).deleteBook.execute(reference: book)
                storage.report("Removed \(removed.id): \(removed.book.metadata.title).")
            } catch {
                throw fail(error)
            }
        }
    }

    /// `narrate toc BOOK`: the table of contents.
    struct TOC: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "toc", abstract: "Show a book's table of contents with the page each entry starts on.")

        @Argument(help: "The book: a file, a library id, or a title prefix.")
        var book: String

        @Flag(name: .long, help: "Print JSON for scripts.")
        var json = false

        @OptionGroup var matter: MatterOptions
        @OptionGroup var storage: StorageOptions

        func run() async throws {
            var configuration = storage.configuration()
            configuration.includesMatter = matter.includeMatter
            do {
                let (found, entries) = try await makeLibraryUseCases(configuration: configuration).getTableOfContents.execute(reference: book)
                if json {
                    print(try Format.json(entries))
                    return
                }
                print(found.book.metadata.title.escapingControlCharacters)
                for entry in entries {
                    print("\(String(repeating: "  ", count: entry.depth + 1))\(entry.title)  ……  \(entry.pageLabel)".escapingControlCharacters)
                }
                let skipped = found.book.skipped
                if !skipped.isEmpty {
                    print("Skipped, not the book (--include-matter reads it):")
                    for item in skipped {
                        print("  \(item.title) — \(item.kind.reason), \(item.words) word\(item.words == 1 ? "" : "s")".escapingControlCharacters)
                    }
                }
            } catch {
                throw fail(error)
            }
        }
    }

    /// `narrate text BOOK [PAGE]`: exactly the text that will be spoken.
    struct Text: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print exactly the text that will be spoken: one page, or the whole book.")

        @Argument(help: "The book: a file, a library id, or a title prefix.")
        var book: String

        @Argument(help: "The page (label or number); every page when omitted.")
        var page: String?

        @Flag(name: .long, help: "Print what eSpeak is given: the book's and your pronunciations as eSpeak [[…]] phoneme spans.")
        var phonemes = false

        @Option(name: .long, help: "With --phonemes: the voice whose language picks the lexicons (default: the book's language, else narrator).")
        var voice: String?

        @OptionGroup var pronunciation: PronunciationOptions
        @OptionGroup var paging: PagingOptions
        @OptionGroup var matter: MatterOptions
        @OptionGroup var storage: StorageOptions

        func run() async throws {
            var configuration = storage.configuration()
            configuration.wordsPerPage = paging.wordsPerPage
            configuration.includesMatter = matter.includeMatter
            do {
                let library = try makeLibraryUseCases(configuration: configuration)
                let found: (book: Book, pages: [Page])
                if let page {
                    let result = try await library.getPage.execute(reference: book, page: page)
                    found = (result.book.book, [result.page])
                } else {
                    let book = try await library.getPages.execute(reference: book).book
                    found = (book, book.pages)
                }
                guard phonemes else {
                    print(found.pages.map(\.text).joined(separator: "\n\n"))
                    return
                }
                var profile = try await makeResolveVoiceUseCase(configuration: configuration)
                    .execute(name: voice, language: found.book.metadata.language, overrides: VoiceOverrides())
                profile.lexicons = try pronunciation.lexicons() + profile.lexicons
                let spoken = makeGetSpokenTextUseCase().execute(book: found.book, pages: found.pages, voice: profile)
                for warning in spoken.warnings { storage.report("narrate: warning: \(warning)") }
                print(spoken.text)
            } catch {
                throw fail(error)
            }
        }
    }

    /// `narrate next BOOK`: the page after the saved progress.
    struct Next: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Narrate the page after where you stopped, then remember it.")

        @Argument(help: "The book: a file, a library id, or a title prefix.")
        var book: String

        @Option(name: [.short, .customLong("output")], help: "The WAV file to write (default: <title>-page-<label>.wav).")
        var output: String?

        @Flag(name: .long, help: "Start again from the first page.")
        var restart = false

        @OptionGroup var paging: PagingOptions
        @OptionGroup var common: CommonOptions

        func run() async throws {
            InterruptHandling.install()
            let logger = common.storage.makeLogger()
            var configuration = common.configuration()
            configuration.wordsPerPage = paging.wordsPerPage
            do {
                let library = try makeLibraryUseCases(configuration: configuration)
                var found = try await library.getBookDetail.execute(reference: book)
                if restart { found.progress = nil }
                let speech = try await common.speech(configuration: configuration, language: found.book.metadata.language, logger: logger)
                var destination = ""
                let narration = try await makeNarrateNextPageUseCase(library: library, repository: speech.repository)
                    .execute(book: found, voice: speech.voice) { narration throws(NarrationError) in
                        destination = output ?? "\(Slug.make(found.book.metadata.title))-page-\(Slug.make(narration.page.label)).wav"
                        do {
                            try WAVOutput.write(narration.audio, to: destination)
                        } catch let error as SpeechError {
                            throw .speech(error)
                        } catch {
                            throw .speech(.outputFailed(path: destination, reason: "\(error)"))
                        }
                    }
                try? await speech.cache?.flush()
                common.storage.report("Page \(narration.page.label) (\(narration.page.index) of \(narration.pageCount)) → \(destination): \(Format.duration(narration.audio.duration)). Progress saved.")
            } catch {
                throw fail(error)
            }
        }
    }
}

/// A file-name-safe form of a title or label.
enum Slug {
    static func make(_ text: String) -> String {
        let allowed = text.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }
        let collapsed = String(allowed).split(separator: "-").joined(separator: "-")
        return collapsed.isEmpty ? "book" : String(collapsed.prefix(60))
    }
}

/// A library book for `list`, `show` and their JSON.
struct BookListing: Encodable {
    var id: Int64
    var title: String
    var authors: [String]
    var language: String?
    var format: String
    var pageCount: Int
    var chapterCount: Int
    var progressPage: Int?
    var sourcePath: String
    var dateAdded: Date
    var credits: String?
    /// What the file holds that is not the book, left out, and why.
    var skipped: [SkippedMatter]

    init(_ book: LibraryBook) {
        id = book.id.rawValue
        title = book.book.metadata.title
        authors = book.book.metadata.authors
        language = book.book.metadata.language
        format = book.book.format.rawValue
        pageCount = book.book.pages.count
        chapterCount = book.book.chapters.count
        progressPage = book.progress?.pageIndex
        sourcePath = book.sourcePath
        dateAdded = book.dateAdded
        credits = book.book.metadata.credits
        skipped = book.book.skipped
    }
}

/// A search hit for `search --json`.
struct SearchListing: Encodable {
    var id: Int64
    var title: String
    var authors: [String]
    var pageIndex: Int?
    var snippet: String

    init(_ result: BookSearchResult) {
        id = result.bookID.rawValue
        title = result.title
        authors = result.authors
        pageIndex = result.pageIndex
        snippet = result.snippet
    }
}
