import ArgumentParser
import Foundation
import NarrateKit

extension Narrate {
    /// `narrate say`: speak a text, a file or standard input into a WAV file.
    struct Say: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Speak a text into a WAV file.",
            discussion: "The text comes from the argument, else from -f FILE, else from standard input."
        )

        @Argument(help: "The text to speak.")
        var text: String?

        @Option(name: [.short, .customLong("file")], help: "Read the text from this file (UTF-8, UTF-16 with BOM, or Windows-1252).")
        var file: String?

        @Option(name: [.short, .customLong("output")], help: "The WAV file to write, or - for standard output.")
        var output: String = "speech.wav"

        @Flag(name: .long, help: "Treat the text as SSML markup (plain text is never read as markup).")
        var ssml = false

        @OptionGroup var common: CommonOptions
        @OptionGroup var casting: CastOptions

        func validate() throws {
            if text != nil, file != nil { throw ValidationError("Give either a text or -f FILE, not both.") }
        }

        func run() async throws {
            InterruptHandling.install()
            let input = try readInput()
            let environment = try common.environment(common.configuration())
            let request = try common.voiceRequest()
            let choice = try await environment.chooseVoice.execute(request, reading: nil)
            let voice = choice.profile
            let cast = try await casting.resolve(in: environment, narrator: choice, voice: request, book: nil, text: input)
            let speak = try environment.speakText()
            let writer = try WAVWriter(path: output)
            do {
                // A chunk the engine stored in the cache is copied from there in the kernel.
                let write = { (piece: SpeechPiece) async throws(SpeechError) -> Void in
                    switch piece {
                    case let .audio(audio):
                        try writer.append(audio)
                    case let .clip(clip):
                        if let source = await environment.entrySource(for: clip) {
                            try writer.append(source)
                        } else {
                            try writer.append(try await environment.audio(for: clip))  // another process stored it again meanwhile
                        }
                    }
                }
                let text = SpeechText(input, isSSML: ssml)
                let summary = if let cast {
                    try await speak.execute(text: text, cast: cast, onPiece: write)
                } else {
                    try await speak.execute(text: text, voice: voice, onPiece: write)
                }
                try writer.finish()
                await environment.flush()
                if output != WAVWriter.standardOutputPath {
                    common.storage.report("Wrote \(output): \(Format.duration(summary.duration)) of speech (\(summary.chunkCount) chunk\(summary.chunkCount == 1 ? "" : "s")).")
                }
            } catch {
                writer.discard()
                await environment.flush()
                throw error
            }
        }

        private func readInput() throws -> String {
            if let text { return text }
            if let file { return try readTextFile(path: file) }
            guard isatty(STDIN_FILENO) == 0 else {
                throw SpeechError.emptyText
            }
            return readStandardInputText()
        }
    }
}
