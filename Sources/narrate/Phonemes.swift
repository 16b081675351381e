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

        @Argument(help: "The text to read; several texts are read one after another, each on its own.")
        var texts: [String]

        @Flag(name: .long, help: "Print JSON for scripts: each sentence's (a Kokoro voice: batch's) text, phonemes and (Piper, Kokoro voices) ids.")
        var json = false

        @OptionGroup var common: CommonOptions

        func validate() throws {
            guard !texts.isEmpty else { throw ValidationError("Give the text to read.") }
        }

        func run() async throws {
            let environment = try common.environment(common.configuration())
            let voice = try await environment.chooseVoice.execute(try common.voiceRequest(), reading: nil).profile
            let phonemize = environment.phonemizeText()
            var sentences: [PhonemizedSentence] = []
            for text in texts {
                sentences += try await phonemize.execute(text: text, voice: voice)
            }
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
