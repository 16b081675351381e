import NarrateDomain

extension NarrateEnvironment {
    /// A cast's voices, resolved as `chooseVoice` resolves one, or proposed from the installed ones.
    public var resolveCast: any ResolveCastUseCaseContract { ResolveCastUseCase(chooser: chooseVoice, voices: getVoices) }

    /// The cast `request` stands for reading `book` with the voice `voice` asks for (`auto`: the
    /// proposal for the whole book's characters, with `overrides`' voices, by character name,
    /// instead of the proposed ones).
    public func cast(
        _ request: CastRequest, voice: VoiceRequest, reading book: Book, overrides: [String: String] = [:]
    ) async throws(SpeechError) -> VoiceCast {
        let narrator = try await chooseVoice.execute(voice, reading: book)
        var request = request
        if request == .auto, !overrides.isEmpty {
            var file = try await proposal(voice: voice, reading: book).file
            for index in file.characters.indices {
                if let chosen = overrides[file.characters[index].name] { file.characters[index].voice = chosen }
            }
            request = .file(file)
        }
        return try await resolveCast.execute(request, narrator: narrator, voice: voice, reading: book, text: Self.wholeText(of: book))
    }

    /// The cast proposed for `book` read with `voice` (what `narrate cast BOOK` lists), and the
    /// voices a character may be given instead.
    public func proposal(voice: VoiceRequest, reading book: Book) async throws(SpeechError) -> (file: CastFile, candidates: [CastCandidate]) {
        let narrator = try await chooseVoice.execute(voice, reading: book)
        let cast = resolveCast
        let file = try await cast.propose(for: DialogueAnalyzer.analyze(Self.wholeText(of: book)), narrator: narrator)
        return (file, try await cast.candidates(beside: narrator))
    }

    private static func wholeText(of book: Book) -> String {
        book.pages.map(\.text).joined(separator: "\n\n")
    }
}
