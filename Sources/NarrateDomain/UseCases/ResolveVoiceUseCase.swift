/// The voice profile a user's options stand for: a preset or engine voice, with any
/// explicitly given parameters laid over it.
public protocol ResolveVoiceUseCaseContract: Sendable {
    /// - Parameters:
    ///   - name: `--voice`, or `nil` for the default: a voice for `language` when it is given
    ///     and not English, else the `narrator` preset.
    ///   - language: the language of the text (a book's `dc:language`), if known.
    ///   - overrides: parameters the user gave explicitly.
    /// - Throws: `SpeechError.voiceNotFound` with suggestions, `.parameterOutOfRange`.
    func execute(name: String?, language: String?, overrides: VoiceOverrides) async throws(SpeechError) -> VoiceProfile
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

public struct ResolveVoiceUseCase: ResolveVoiceUseCaseContract {
    public static let defaultPreset = "narrator"
    private let repository: any VoiceRepositoryContract

    public init(repository: any VoiceRepositoryContract) {
        self.repository = repository
    }

    public func execute(name: String?, language: String?, overrides: VoiceOverrides) async throws(SpeechError) -> VoiceProfile {
        var profile: VoiceProfile
        if let name {
            profile = try await repository.profile(named: name)
        } else if let language, let forLanguage = try await voice(for: language) {
            profile = forLanguage
        } else {
            profile = try await repository.profile(named: Self.defaultPreset)
        }
        if let rate = overrides.rate { profile.rate = rate }
        if let pitch = overrides.pitch { profile.pitch = pitch }
        if let volume = overrides.volume { profile.volume = volume }
        if let wordGap = overrides.wordGap { profile.wordGap = wordGap }
        return try profile.validated()
    }

    /// A voice that speaks `language`: a preset first, then an engine voice; `nil` for
    /// English (the default preset speaks it) or a language no voice speaks.
    private func voice(for language: String) async throws(SpeechError) -> VoiceProfile? {
        let wanted = String(language.lowercased().map { $0 == "_" ? "-" : $0 })
        let primary = String(wanted.split(separator: "-").first ?? Substring(wanted))
        guard !primary.isEmpty, primary != "en" else { return nil }
        let voices = try await repository.voices()
        for candidate in [wanted, primary] {
            if let preset = voices.first(where: { $0.preset != nil && $0.languages.contains { $0.lowercased() == candidate } }) {
                return preset.preset
            }
            if let engine = voices.first(where: { $0.preset == nil && $0.languages.contains { $0.lowercased() == candidate } }) {
                return VoiceProfile(voice: candidate)
            }
        }
        return nil
    }
}
