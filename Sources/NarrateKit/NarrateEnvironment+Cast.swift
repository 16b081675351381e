import NarrateDomain

extension NarrateEnvironment {
    /// A cast's voices, resolved as `chooseVoice` resolves one, or proposed from the installed ones.
    public var resolveCast: any ResolveCastUseCaseContract { ResolveCastUseCase(chooser: chooseVoice, voices: getVoices) }

    /// The cast `request` stands for reading `book` with the voice `voice` asks for (`auto`: the
    /// proposal for the whole book's characters).
    public func cast(_ request: CastRequest, voice: VoiceRequest, reading book: Book) async throws(SpeechError) -> VoiceCast {
        let narrator = try await chooseVoice.execute(voice, reading: book)
        return try await resolveCast.execute(request, narrator: narrator, voice: voice, reading: book, text: book.pages.map(\.text).joined(separator: "\n\n"))
    }
}
