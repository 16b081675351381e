/// What eSpeak is given for pages of a book: their text with the pronunciations in force (the
/// user's lexicons, then the book's) written in as eSpeak `[[…]]` phoneme spans.
public protocol GetSpokenTextUseCaseContract: Sendable {
    /// The text of `pages` of `book` as `voice` is given it, pages separated by a blank line,
    /// and the pronunciations that are not applied.
    func execute(book: Book, pages: [Page], voice: VoiceProfile) -> (text: String, warnings: [PronunciationWarning])
}

/// What eSpeak is given for a text: pronunciations applied as `[[…]]` phoneme spans.
public struct GetSpokenTextUseCase: GetSpokenTextUseCaseContract {
    public init() {}

    public func execute(book: Book, pages: [Page], voice: VoiceProfile) -> (text: String, warnings: [PronunciationWarning]) {
        let voice = voice.reading(book)
        let pronouncer = Pronouncer(lexicons: voice.lexicons, voice: voice.voice)
        let text = pages.map { pronouncer.apply($0.text).text }.joined(separator: "\n\n")
        return (text, pronouncer.warnings)
    }
}
