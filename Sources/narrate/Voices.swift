import ArgumentParser
import Foundation
import NarrateKit

extension Narrate {
    /// `narrate voices`: list presets and eSpeak voices.
    struct Voices: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the voices: presets from voices/, then eSpeak's voices.")

        @Option(name: [.short, .long], help: "Only voices for this language (fr, en, en-gb).")
        var language: String?

        @Flag(name: .long, help: "Print JSON for scripts.")
        var json = false

        @OptionGroup var storage: StorageOptions

        func run() async throws {
            let voices = try await makeGetVoicesUseCase(configuration: storage.configuration()).execute(language: language)
            if json {
                print(try Format.json(voices))
                return
            }
            if voices.isEmpty, let language {
                throw CLIMessage("No voice speaks '\(language)'. Run 'narrate voices' to list them all.")
            }
            print("NAME                  LANGUAGES            GENDER  VOICE")
            for voice in voices {
                let name = voice.preset == nil ? (voice.languages.first ?? voice.name) : voice.name
                let detail = voice.preset.map { "preset: \($0.voice), rate \($0.rate), pitch \($0.pitch)" } ?? "\(voice.name) (\(voice.identifier))"
                print("\(name.rightPadded(21)) \(voice.languages.joined(separator: ",").rightPadded(20)) \(voice.gender.rawValue.prefix(6).description.rightPadded(7)) \(detail)")
            }
        }
    }
}
