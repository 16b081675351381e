import ArgumentParser
import NarrateKit

extension Narrate {
    /// `narrate text BOOK [PAGE]`: exactly the text that will be spoken.
    struct Text: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print exactly the text that will be spoken: one page, or the whole book.")

        @OptionGroup var book: BookArgument

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
        @OptionGroup var password: PasswordOptions

        func run() async throws {
            let configuration = storage.configuration(paging, matter, password)
            let library = try makeLibraryUseCases(configuration: configuration)
            let found: (book: Book, pages: [Page])
            if let page {
                let result = try await library.getPage.execute(reference: book.reference, page: page)
                found = (result.book.book, [result.page])
            } else {
                let book = try await library.getPages.execute(reference: book.reference).book
                found = (book, book.pages)
            }
            guard phonemes else {
                print(found.pages.map(\.text).joined(separator: "\n\n"))
                return
            }
            let profile = try await NarrateEnvironment(configuration: configuration, logger: storage.makeLogger()).chooseVoice
                .execute(VoiceRequest(name: voice, lexicons: try pronunciation.lexicons(), naming: .catalogOrFile), reading: found.book).profile
            let spoken = makeGetSpokenTextUseCase().execute(book: found.book, pages: found.pages, voice: profile)
            for warning in spoken.warnings { storage.report("narrate: warning: \(warning)") }
            print(spoken.text)
        }
    }
}
