/// The voices a user can name, optionally only those for a language.
public protocol GetVoicesUseCaseContract: Sendable {
    /// - Parameter language: a language code (`fr`, `en-us`); `en` also matches `en-gb`, `en-us`.
    func execute(language: String?) async throws(SpeechError) -> [Voice]
}

/// The voice presets and engine voices, optionally only those that speak a language.
public struct GetVoicesUseCase: GetVoicesUseCaseContract {
    private let repository: any VoiceRepositoryContract

    public init(repository: any VoiceRepositoryContract) {
        self.repository = repository
    }

    public func execute(language: String?) async throws(SpeechError) -> [Voice] {
        let voices = try await repository.voices()
        guard let language = language?.lowercased(), !language.isEmpty else { return voices }
        return voices.filter { voice in
            voice.languages.contains { code in
                let code = code.lowercased()
                return code == language || code.hasPrefix(language + "-")
            }
        }
    }
}
