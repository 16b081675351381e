import Foundation
import Hummingbird
import NarrateKit

/// `GET /v1/models`, `GET /v1/models/{id}`, `GET /v1/audio/voices`.
struct CatalogController: Sendable {
    let backend: SpeechBackend

    struct Model: ResponseEncodable {
        var id: String
        var object = "model"
        var created = 0
        var owned_by = "narrate"
    }

    struct ModelList: ResponseEncodable {
        var object = "list"
        var data: [Model]
    }

    struct VoiceEntry: ResponseEncodable {
        var name: String
        /// The eSpeak voice it speaks with.
        var voice: String
        var language: String?
        var gender: String?
        /// `openai`, `preset`, `kokoro` (an installed Kokoro voice), `piper` (an installed Piper voice) or `espeak`.
        var kind: String
        var description: String?
    }

    struct VoiceList: ResponseEncodable {
        var voices: [VoiceEntry]
    }

    func register(on router: Router<ServerRequestContext>) {
        router.get("/v1/models") { _, _ in
            ModelList(data: OpenAIVoices.models.map { Model(id: $0) })
        }
        router.get("/v1/models/{id}") { _, context in
            let id = try context.parameters.require("id")
            guard OpenAIVoices.models.contains(id) else { throw APIError.notFound("The model '\(id)' does not exist.") }
            return Model(id: id)
        }
        router.get("/v1/audio/voices") { _, _ in
            try await voices()
        }
    }

    func voices() async throws -> VoiceList {
        let all: [Voice]
        do {
            all = try await backend.getVoices.execute(language: nil)
        } catch {
            throw SpeechBackend.apiError(error)
        }
        var entries: [VoiceEntry] = []
        var seen = Set<String>()
        for voice in all where voice.preset != nil {
            seen.insert(voice.name.lowercased())
            if let kokoro = voice.kokoro {
                let gender = voice.gender == .unspecified ? nil : voice.gender.rawValue
                entries.append(VoiceEntry(name: voice.name, voice: voice.name, language: kokoro.language, gender: gender, kind: "kokoro", description: "Kokoro voice, 24000 Hz"))
                continue
            }
            if let piper = voice.piper {
                let detail = "Piper voice, \(piper.quality ?? "unknown") quality, \(piper.speakers == 1 ? "1 speaker" : "\(piper.speakers) speakers"), \(piper.sampleRate) Hz"
                entries.append(VoiceEntry(name: voice.name, voice: voice.name, language: voice.languages.first, gender: nil, kind: "piper", description: detail))
                continue
            }
            let kind = OpenAIVoices.profiles[voice.name.lowercased()] == nil ? "preset" : "openai"
            let speaks = voice.preset?.kokoro?.name ?? voice.preset?.piper.map { URL(fileURLWithPath: $0.model).deletingPathExtension().lastPathComponent } ?? voice.preset?.voice ?? voice.identifier
            entries.append(VoiceEntry(name: voice.name, voice: speaks, language: voice.languages.first, gender: Self.gender(voice.gender, voice: voice.preset?.voice), kind: kind))
        }
        for name in OpenAIVoices.names where !seen.contains(name) {
            let profile = OpenAIVoices.profiles[name]!
            entries.append(VoiceEntry(name: name, voice: profile.voice, language: String(profile.voice.prefix { $0 != "+" }), gender: Self.gender(.unspecified, voice: profile.voice), kind: "openai"))
        }
        for voice in all where voice.preset == nil {
            entries.append(VoiceEntry(name: voice.name, voice: voice.identifier, language: voice.languages.first, gender: Self.gender(voice.gender, voice: nil), kind: "espeak"))
        }
        return VoiceList(voices: entries)
    }

    /// The gender eSpeak knows: the voice's own, or its variant's (`+f3` female, `+m3` male).
    static func gender(_ gender: Voice.Gender, voice: String?) -> String? {
        if let variant = voice?.split(separator: "+").dropFirst().first?.first {
            if variant == "f" { return "female" }
            if variant == "m" { return "male" }
        }
        switch gender {
        case .male: return "male"
        case .female: return "female"
        case .unspecified: return nil
        }
    }
}
