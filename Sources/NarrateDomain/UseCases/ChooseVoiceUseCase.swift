/// The voice that speaks a text or a book, from what a caller asks for: the one place a voice
/// is chosen and its lexicons merged, for every front end and action.
public protocol ChooseVoiceUseCaseContract: Sendable {
    /// - Parameters:
    ///   - request: the voice named (or `nil`: one for the book's language, else the default),
    ///     the parameters laid over it, the caller's own lexicons, and whether the name may be
    ///     a file (`VoiceRequest.naming`: a remote client's may not).
    ///   - book: the book being read, if any: its language chooses an unnamed voice, and its
    ///     own lexicons (PLS, `ssml:ph`) are in force after the caller's and the voice's.
    /// - Throws: `SpeechError.voiceNotFound` with suggestions, `.parameterOutOfRange`,
    ///   `.speedOutOfRange` for a `speed` the voice cannot reach.
    func execute(_ request: VoiceRequest, reading book: Book?) async throws(SpeechError) -> VoiceChoice
}

/// Chooses a voice through `ResolveVoiceUseCase`, sets OpenAI's `speed` on it
/// (`VoiceProfile.atSpeed`, the one rule) and puts the lexicons in force in the order they win:
/// the caller's, the voice's (a preset's), the book's.
public struct ChooseVoiceUseCase: ChooseVoiceUseCaseContract {
    private let voices: any ResolveVoiceUseCaseContract

    public init(voices: any ResolveVoiceUseCaseContract) {
        self.voices = voices
    }

    public func execute(_ request: VoiceRequest, reading book: Book?) async throws(SpeechError) -> VoiceChoice {
        var choice = try await voices.choose(name: request.name, language: book?.metadata.language, overrides: request.overrides, naming: request.naming)
        if let speed = request.speed {
            guard let fast = choice.profile.atSpeed(speed) else {
                throw .speedOutOfRange(speed: speed, usable: choice.profile.speedRange, rate: choice.profile.rate)
            }
            choice.profile = fast
        }
        choice.profile = choice.profile.speaking(request.lexicons, reading: book)
        return choice
    }
}
