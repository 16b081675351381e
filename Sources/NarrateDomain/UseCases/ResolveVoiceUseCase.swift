/// The voice profile a user's options stand for: a preset or engine voice, with any
/// explicitly given parameters laid over it.
public protocol ResolveVoiceUseCaseContract: Sendable {
    /// - Parameters:
    ///   - name: `--voice`, or `nil` for the default: a voice for `language` when it is given
    ///     and not English, else the `narrator` preset.
    ///   - language: the language of the text (a book's `dc:language`), if known.
    ///   - overrides: parameters the user gave explicitly.
    ///   - naming: `.catalog` for a remote client: a name that could be read as a file is
    ///     refused as unknown (`VoiceNameRule`) and no file is ever opened for it;
    ///     `.catalogOrFile` for the machine's own user, who may name a model file by path.
    /// - Throws: `SpeechError.voiceNotFound` with suggestions, `.parameterOutOfRange`.
    func execute(name: String?, language: String?, overrides: VoiceOverrides, naming: VoiceNaming) async throws(SpeechError) -> VoiceProfile

    /// As `execute`, with the reason the voice was chosen, for the user to read.
    func choose(name: String?, language: String?, overrides: VoiceOverrides, naming: VoiceNaming) async throws(SpeechError) -> VoiceChoice
}

extension ResolveVoiceUseCaseContract {
    /// A voice from the catalog alone (`VoiceNaming.catalog`).
    public func execute(name: String?, language: String?, overrides: VoiceOverrides) async throws(SpeechError) -> VoiceProfile {
        try await execute(name: name, language: language, overrides: overrides, naming: .catalog)
    }

    /// A voice from the catalog alone (`VoiceNaming.catalog`), with the reason it was chosen.
    public func choose(name: String?, language: String?, overrides: VoiceOverrides) async throws(SpeechError) -> VoiceChoice {
        try await choose(name: name, language: language, overrides: overrides, naming: .catalog)
    }
}

/// A voice and why it speaks: the user named it, or the text's language called for it, or it
/// is the default.
public struct VoiceChoice: Sendable, Hashable {
    public enum Reason: Sendable, Hashable {
        /// The user named it (`--voice`).
        case named
        /// The text's language (a BCP 47 tag) called for it.
        case language(String)
        /// The default preset: no language was known, the language is English, or no voice
        /// speaks it (then `language` names it).
        case standard(unspokenLanguage: String?)
    }

    public var profile: VoiceProfile
    public var reason: Reason

    public init(profile: VoiceProfile, reason: Reason) {
        self.profile = profile
        self.reason = reason
    }

    /// "voice nl (the book's language: nl)", for a status line.
    public var summary: String {
        switch reason {
        case .named: "voice \(profile.displayName) (chosen by name)"
        case let .language(tag): "voice \(profile.displayName) (the book's language: \(tag)\(profile.kokoro != nil ? "; an installed Kokoro voice" : profile.piper != nil ? "; an installed Piper voice" : ""))"
        case .standard(nil): "voice \(profile.displayName) (the default)"
        case let .standard(language?): "voice \(profile.displayName) (the default: no installed voice speaks the book's language, \(language))"
        }
    }
}

/// Voice parameters given explicitly on the command line or by an embedding app.
public struct VoiceOverrides: Sendable, Hashable {
    public var rate: Int?
    public var pitch: Int?
    public var volume: Int?
    public var wordGap: Int?

    public init(rate: Int? = nil, pitch: Int? = nil, volume: Int? = nil, wordGap: Int? = nil) {
        self.rate = rate
        self.pitch = pitch
        self.volume = volume
        self.wordGap = wordGap
    }
}

/// Resolves a voice name and overrides to a profile: a preset, an engine voice, or one chosen by
/// the text's language (names such as "Dutch" included), with the reason for the choice.
public struct ResolveVoiceUseCase: ResolveVoiceUseCaseContract {
    public static let defaultPreset = "narrator"
    private let repository: any VoiceRepositoryContract

    public init(repository: any VoiceRepositoryContract) {
        self.repository = repository
    }

    public func execute(name: String?, language: String?, overrides: VoiceOverrides, naming: VoiceNaming) async throws(SpeechError) -> VoiceProfile {
        try await choose(name: name, language: language, overrides: overrides, naming: naming).profile
    }

    public func choose(name: String?, language: String?, overrides: VoiceOverrides, naming: VoiceNaming) async throws(SpeechError) -> VoiceChoice {
        var profile: VoiceProfile
        let reason: VoiceChoice.Reason
        // Book headers may name the language ("Dutch") rather than tag it.
        let tag = language.flatMap { LanguageName.tag(for: $0) ?? $0 }
        if let name {
            profile = try await self.profile(named: name, naming: naming)
            reason = .named
        } else if let tag, let forLanguage = try await voice(for: tag) {
            profile = forLanguage
            reason = .language(tag)
        } else {
            profile = try await repository.profile(named: Self.defaultPreset)
            let english = tag.map { $0.lowercased() == "en" || $0.lowercased().hasPrefix("en-") } ?? true
            reason = .standard(unspokenLanguage: english ? nil : tag)
        }
        if let rate = overrides.rate { profile.rate = rate }
        if let pitch = overrides.pitch { profile.pitch = pitch }
        if let volume = overrides.volume { profile.volume = volume }
        if let wordGap = overrides.wordGap { profile.wordGap = wordGap }
        return VoiceChoice(profile: try profile.validated(), reason: reason)
    }

    /// The profile a name stands for. Under `.catalog`, a name `VoiceNameRule` does not admit
    /// is unknown, named by what `VoiceNameRule.shown` shows of it, with the catalog names its
    /// stem is close to (`/x/en_US-joe-medium.onnx`: did you mean en_US-joe-medium?).
    private func profile(named name: String, naming: VoiceNaming) async throws(SpeechError) -> VoiceProfile {
        guard naming == .catalog, !VoiceNameRule.admits(name) else {
            return try await repository.profile(named: name, naming: naming)
        }
        var suggestions: [String] = []
        if let stem = VoiceNameRule.stem(name) {
            do {
                _ = try await repository.profile(named: stem, naming: .catalog)
                suggestions = [stem]
            } catch {
                if case let .voiceNotFound(_, close) = error { suggestions = close }
            }
        }
        throw .voiceNotFound(VoiceNameRule.shown(name), suggestions: suggestions)
    }

    /// A voice that speaks `language`: an installed Kokoro voice first, then a Piper voice (a
    /// neural voice reads best), then a preset, then an engine voice; `nil` for English without
    /// a neural voice (the default preset speaks it) or a language no voice speaks.
    private func voice(for language: String) async throws(SpeechError) -> VoiceProfile? {
        let wanted = String(language.lowercased().map { $0 == "_" ? "-" : $0 })
        let primary = String(wanted.split(separator: "-").first ?? Substring(wanted))
        guard !primary.isEmpty else { return nil }
        let voices = try await repository.voices()
        for neural in [{ (voice: Voice) in voice.kokoro != nil }, { (voice: Voice) in voice.piper != nil }] {
            for candidate in [wanted, primary] {
                if let found = voices.first(where: { neural($0) && $0.languages.contains { $0.lowercased() == candidate } }) {
                    return found.preset
                }
            }
        }
        guard primary != "en" else { return nil }
        for candidate in [wanted, primary] {
            if let preset = voices.first(where: { $0.preset != nil && $0.languages.contains { $0.lowercased() == candidate } }) {
                return preset.preset
            }
            if voices.contains(where: { $0.preset == nil && $0.languages.contains { $0.lowercased() == candidate } }) {
                return VoiceProfile(voice: candidate)
            }
        }
        return nil
    }
}
