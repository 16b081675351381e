import ArgumentParser
import Foundation
import NarrateKit

extension Narrate {
    /// `narrate voices list`: presets, Piper voices, then eSpeak's voices.
    struct VoicesList: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the voices: presets from voices/, installed Piper voices, then eSpeak's voices."
        )

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
                print("\(name.rightPadded(21)) \(voice.languages.joined(separator: ",").rightPadded(20)) \(voice.gender.rawValue.prefix(6).description.rightPadded(7)) \(Self.detail(of: voice))")
            }
        }

        /// What the last column says of a voice.
        static func detail(of voice: Voice) -> String {
            if let piper = voice.piper {
                let speakers = piper.speakers == 1 ? "1 speaker" : "\(piper.speakers) speakers"
                return "piper: \(piper.quality ?? "unknown quality"), \(speakers), \(piper.sampleRate) Hz (\(piper.model))"
            }
            if let kokoro = voice.kokoro {
                return "kokoro: \(kokoro.language), 24000 Hz (\(URL(fileURLWithPath: kokoro.model).lastPathComponent), \(URL(fileURLWithPath: kokoro.pack).lastPathComponent))"
            }
            if let preset = voice.preset {
                if let kokoro = preset.kokoro {
                    return "preset: kokoro \(kokoro.name)"
                }
                if let piper = preset.piper {
                    return "preset: piper \(URL(fileURLWithPath: piper.model).deletingPathExtension().lastPathComponent)" + (piper.speaker.map { ", speaker \($0)" } ?? "")
                }
                return "preset: \(preset.voice), rate \(preset.rate), pitch \(preset.pitch)"
            }
            return "\(voice.name) (\(voice.identifier))"
        }
    }
}
