import ArgumentParser
import Foundation
import NarrateKit

extension Narrate {
    /// `narrate book BOOK -o DIR`: a whole book to audio files.
    struct BookCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "book",
            abstract: "Turn a whole book into audio files: resumable, parallel, with progress.",
            discussion: """
                Files are named to sort in reading order (003 - Loomings.mp3), with a playlist.m3u and \
                a manifest.json. Stop it at any moment and run it again: it finishes only what is \
                missing. --shard i/n narrates one part of the book into the shared cache (for several \
                processes or machines); a final run without --shard writes the files from the cache.
                """
        )

        @OptionGroup var book: BookArgument

        @Option(name: [.short, .customLong("output")], help: "The folder to write to (default: a folder named after the book).")
        var output: String?

        @Option(name: .long, help: "One file per page, per chapter, or one for the whole book.")
        var split: ExportSplit = .chapter

        @Option(name: .long, help: "wav, mp3 (mono, 56 kbps, ID3 tags and cover), m4b (AAC with chapters; needs ffmpeg) or epub (a read-along EPUB 3: the book's text highlighted as the narration plays).")
        var format: ExportFormat = .mp3

        @Option(name: .long, help: "With --format epub, highlight each sentence or each word: sentence or word.")
        var granularity: ReadAlongGranularity = .sentence

        @Option(name: .long, help: "Write subtitles beside each file, timed from the words: vtt or srt.")
        var subtitles: SubtitleFormat?

        @Option(name: .long, help: "Only these pages, by number: 10-20.")
        var pages: PageRange?

        @Option(name: .long, help: "Only these chapters, by number: 3-5.")
        var chapters: PageRange?

        @Option(name: .long, help: "Narrate only part i of n into the cache, writing no files: 2/4.")
        var shard: ShardArgument?

        @OptionGroup var paging: PagingOptions
        @OptionGroup var matter: MatterOptions
        @OptionGroup var common: CommonOptions
        @OptionGroup var password: PasswordOptions
        @OptionGroup var casting: CastOptions

        func validate() throws {
            if pages != nil, chapters != nil { throw ValidationError("Give --pages or --chapters, not both.") }
            if format == .epub, subtitles != nil {
                throw ValidationError("A read-along EPUB carries its own timing: drop --subtitles, or choose an audio --format.")
            }
            if common.noCache { throw ValidationError("narrate book needs the audio cache (it makes exports resumable): drop --no-cache.") }
        }

        func run() async throws {
            MemoryTuning.applyForBatch()
            InterruptHandling.install()
            let environment = try common.environment(common.configuration(paging, matter, password))
            let selection: ExportSelection = pages.map { .pages($0.range) } ?? chapters.map { .chapters($0.range) } ?? .all
            var options = BookExportOptions(
                directory: output ?? "", split: split, format: format, subtitles: subtitles,
                selection: selection, shard: shard?.shard, granularity: granularity
            )
            let request = try common.voiceRequest()
            if let cast = try casting.request() {
                let whole = try await environment.library().getPages.execute(reference: book.reference).book
                options.cast = try await environment.cast(cast, voice: request, reading: whole)
            }
            let exporter = try await environment.exportBook()
            let progress = ExportProgressReport(quiet: common.storage.quiet)
            let summary = try await exporter.execute(reference: book.reference, voice: request, options: options) { progress.handle($0) }
            let (found, directory) = progress.started()
            progress.finish()
            if let shard {
                common.storage.report("Shard \(shard.shard.index)/\(shard.shard.count) of '\(found.book.metadata.title)' is in the cache; run without --shard to write the files.")
            } else {
                let total = summary.files.reduce(0) { $0 + $1.duration }
                if format == .epub {
                    common.storage.report("Read-along EPUB: \(directory)/\(FileName.readable(found.book.metadata.title)).epub")
                }
                common.storage.report("\(found.book.metadata.title) → \(directory)/: \(summary.files.count) file\(summary.files.count == 1 ? "" : "s"), \(Format.duration(total)) (\(summary.writtenFiles) written, \(summary.skippedFiles) already done).")
            }
        }
    }
}
