import Foundation
import NarrateDomain

/// Voices from four sources: presets (JSON files in a `voices/` folder, plus the built-in
/// `narrator`), the Kokoro and Piper voices installed in the same folders, and eSpeak NG's own
/// list.
public final class VoiceRepository: VoiceRepositoryContract {
    public typealias EngineVoices = @Sendable () async throws(SpeechError) -> (voices: [Voice], variants: [String])

    private let presetDirectories: [String]
    private let fallbackPresets: [String: VoiceProfile]
    private let engineVoices: EngineVoices
    private let piperVoices: PiperVoiceCatalog
    private let kokoroVoices: KokoroVoiceCatalog

    /// - Parameters:
    ///   - presetDirectories: folders searched for `*.json` presets, earlier ones first.
    ///   - fallbackPresets: profiles by lowercased name for names that neither a preset file nor
    ///     the engine knows (not listed among the voices).
    ///   - piperVoices: the installed Piper voices (by default, those in `presetDirectories`).
    ///   - kokoroVoices: the installed Kokoro voices (by default, those in `presetDirectories`).
    ///   - engineVoices: the engine's voices and variant names.
    public init(
        presetDirectories: [String], fallbackPresets: [String: VoiceProfile] = [:], piperVoices: PiperVoiceCatalog? = nil, kokoroVoices: KokoroVoiceCatalog? = nil,
        engineVoices: @escaping EngineVoices
    ) {
        self.presetDirectories = presetDirectories
        self.piperVoices = piperVoices ?? PiperVoiceCatalog(directories: presetDirectories)
        self.kokoroVoices = kokoroVoices ?? KokoroVoiceCatalog(directories: presetDirectories)
        self.fallbackPresets = fallbackPresets
        self.engineVoices = engineVoices
    }

    public func voices() async throws(SpeechError) -> [Voice] {
        let presets = loadPresets().sorted { $0.name < $1.name }
        let engine = try await engineVoices().voices.sorted { $0.name.lowercased() < $1.name.lowercased() }
        return presets + kokoroVoices.installed() + piperVoices.installed() + engine
    }

    /// The preset `name` stands for, read from the preset files alone (no engine is asked).
    public func preset(named name: String) -> VoiceProfile? {
        loadPresets().first { $0.name.lowercased() == name.lowercased() }?.preset
    }

    public func profile(named name: String, naming: VoiceNaming) async throws(SpeechError) -> VoiceProfile {
        let presets = loadPresets()
        if let preset = presets.first(where: { $0.name.lowercased() == name.lowercased() }), let profile = preset.preset {
            return profile
        }
        if let kokoro = try kokoroVoices.profile(named: name) { return kokoro }
        if let piper = try piperVoices.profile(named: name, allowingFiles: naming == .catalogOrFile) { return piper }
        let (voices, variants) = try await engineVoices()
        let parts = name.split(separator: "+", maxSplits: 1).map(String.init)
        let base = parts.first ?? name
        let variant = parts.count > 1 ? parts[1] : nil
        let baseKnown = voices.contains { Self.names(of: $0).contains(base.lowercased()) }
        let variantKnown = variant.map { wanted in variants.contains { $0.lowercased() == wanted.lowercased() } } ?? true
        guard !name.isEmpty, baseKnown, variantKnown else {
            if let fallback = fallbackPresets[name.lowercased()] { return fallback }
            let candidates = presets.map(\.name) + kokoroVoices.installed().map(\.name) + piperVoices.installed().map(\.name) + voices.flatMap { Self.names(of: $0) }
            let wanted = variantKnown ? base : name
            let suggestions = variantKnown
                ? NameSuggester.suggestions(for: wanted, among: candidates)
                : NameSuggester.suggestions(for: variant ?? "", among: variants).map { "\(base)+\($0)" }
            throw .voiceNotFound(name, suggestions: suggestions)
        }
        // eSpeak matches language codes without regard to case: one spelling, one cache key.
        let isLanguageCode = voices.contains { $0.languages.contains { $0.lowercased() == base.lowercased() } }
        if !isLanguageCode, !voices.contains(where: { Self.fileNames(of: $0).contains(base.lowercased()) }),
           let named = voices.first(where: { $0.name.lowercased() == base.lowercased() }) {
            // A voice named by its display name ("Cherokee", whose eSpeak name ends in a space)
            // is given to eSpeak by its file, which eSpeak always finds.
            return VoiceProfile(voice: named.identifier + (variant.map { "+" + $0 } ?? ""))
        }
        return VoiceProfile(voice: isLanguageCode ? name.lowercased() : name)
    }

    /// A voice's file, whole (`iro/chr`) and its last part (`chr`).
    private static func fileNames(of voice: Voice) -> [String] {
        [voice.identifier.lowercased()] + (voice.identifier.split(separator: "/").last.map { [$0.lowercased()] } ?? [])
    }

    /// Every name eSpeak accepts for a voice: its languages, its file name and its name.
    private static func names(of voice: Voice) -> [String] {
        var names = voice.languages.map { $0.lowercased() }
        names.append(voice.identifier.lowercased())
        if let file = voice.identifier.split(separator: "/").last { names.append(file.lowercased()) }
        names.append(voice.name.lowercased())
        return names
    }

    /// The built-in `narrator` preset, overridden by files of the same name.
    private func loadPresets() -> [Voice] {
        var byName: [String: Voice] = [ResolveVoiceUseCase.defaultPreset: Self.builtInNarrator]
        for directory in presetDirectories.reversed() {
            guard let files = try? FileManager.default.contentsOfDirectory(atPath: directory) else { continue }
            for file in files.sorted() where file.hasSuffix(".json") {
                guard let data = FileManager.default.contents(atPath: directory + "/" + file),
                      let preset = try? JSONDecoder().decode(VoicePresetFile.self, from: data)
                else { continue }
                byName[preset.name.lowercased()] = Voice(
                    name: preset.name,
                    identifier: preset.voice,
                    languages: preset.language.map { [$0] } ?? [],
                    preset: preset.profile(directory: directory, piperVoices: piperVoices, kokoroVoices: kokoroVoices)
                )
            }
        }
        return Array(byName.values)
    }

    static let builtInNarrator = Voice(
        name: ResolveVoiceUseCase.defaultPreset,
        identifier: VoiceProfile.narrator.voice,
        languages: ["en-us"],
        preset: .narrator
    )
}
