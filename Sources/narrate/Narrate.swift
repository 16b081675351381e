import ArgumentParser
import Glibc
import NarrateKit

/// `narrate`: text and books to speech with eSpeak NG, every utterance cached.
@main
struct Narrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "narrate",
        abstract: "Turn text and books into speech with eSpeak NG, never synthesizing the same thing twice.",
        discussion: """
            Audio is cached under $XDG_CACHE_HOME/narrate (or ~/.cache/narrate): a second run \
            of the same text with the same voice reads it back instead of synthesizing it.
            """,
        version: "0.1.0",
        subcommands: [
            Say.self, PageCommand.self, Next.self, BookCommand.self, Pages.self, Text.self, Cast.self,
            Add.self, List.self, Show.self, Search.self, TOC.self, Bookmarks.self, Remove.self,
            Voices.self, Phonemes.self, CacheCommand.self, Serve.self,
        ]
    )

    /// Tunes the allocator, then parses and runs the command. Failures of the command itself
    /// are reported here, once, as one line (`CommandFailure`); parsing errors, help and
    /// `--version` are the argument parser's.
    static func main() async {
        MemoryTuning.apply()
        var command: any ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            exit(withError: error)
        }
        do {
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            // What is synthesized is in the local cache already: the store gets it too.
            await CacheStoreDrain.drainAll()
            let exitError = CommandFailure.exitError(for: error)
            RunReport.print()
            exit(withError: exitError)
        }
        await CacheStoreDrain.drainAll()
        RunReport.print()
    }
}
