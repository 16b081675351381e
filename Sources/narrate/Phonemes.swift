import ArgumentParser
import Foundation
import NarrateKit

extension Narrate {
    /// `narrate phonemes`: how a voice reads a text, with nothing synthesized.
    struct Phonemes: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show how a voice reads a text: its phonemes in IPA, sentence by sentence (a Piper voice's phoneme ids, or a Kokoro voice's token ids batch by batch, with --json).",
            discussion: "For checking a pronunciation or a lexicon entry before synthesizing a whole book."
        )

        @Argument(help: "The text to read.")
        var text: String

        @Flag(name: .long, help: "Print JSON for scripts: each sentence's (a Kokoro voice: batch's) text, phonemes and (Piper, Kokoro voices) ids.")
        var json = false

        @OptionGroup var common: CommonOptions

        func run() async throws {
            let environment = try common.environment(common.configuration())
            let voice = try await environment.chooseVoice.execute(try common.voiceRequest(), reading: nil).profile
            let sentences = try await environment.phonemizeText().execute(text: text, voice: voice)
            environment.stopEngine()
            if json {
                print(try Format.json(sentences))
                return
            }
            for sentence in sentences {
                print(sentence.phonemes)
            }
        }
    }
}
