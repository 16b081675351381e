/// The voice profile a user's options stand for: a preset or engine voice, with any
/// explicitly given parameters laid over it.
public protocol ResolveVoiceUseCaseContract: Sendable {
    /// - Parameters:
    ///   - name: `--voice`, or `nil` for the default preset (`narrator`).
    ///   - overrides: parameters the user gave explicitly.
    /// - Throws: `SpeechError.voiceNotFound` with suggestions, `.parameterOutOfRange`.
    func execute(name: String?, overrides: VoiceOverrides) async throws(SpeechError) -> VoiceProfile
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

    public func execute(name: String?, overrides: VoiceOverrides) async throws(SpeechError) -> VoiceProfile {
        var profile = try await repository.profile(named: name ?? Self.defaultPreset)
        if let rate = overrides.rate { profile.rate = rate }
        if let pitch = overrides.pitch { profile.pitch = pitch }
        if let volume = overrides.volume { profile.volume = volume }
        if let wordGap = overrides.wordGap { profile.wordGap = wordGap }
        return try profile.validated()
    }
}
