import ArgumentParser
import NarrateKit

/// Whether to read what is not the book.
struct MatterOptions: ParsableArguments, ConfigurationOptions {
    @Flag(name: .customLong("include-matter"), help: "Read everything in the file: Project Gutenberg header and licence, printed contents lists, notes, imprint, colophon, index ('narrate toc' lists what is otherwise skipped).")
    var includeMatter = false

    func apply(to configuration: inout NarrateConfiguration) {
        configuration.includesMatter = includeMatter
    }
}
