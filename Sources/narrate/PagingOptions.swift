import ArgumentParser
import NarrateKit

/// How books without printed page numbers are cut into pages.
struct PagingOptions: ParsableArguments, ConfigurationOptions {
    @Option(name: .customLong("words-per-page"), help: "Words per page for books without printed page numbers (applies when a book is first added).")
    var wordsPerPage: Int = 300

    func validate() throws {
        guard (50...5000).contains(wordsPerPage) else { throw ValidationError("--words-per-page must be from 50 to 5000.") }
    }

    func apply(to configuration: inout NarrateConfiguration) {
        configuration.wordsPerPage = wordsPerPage
    }
}
