/// A page about to be spoken: the book it is in, the page, and the voice that reads it (with
/// every lexicon in force: the caller's, the voice's and the book's), before any synthesis.
public struct PageSpeech: Sendable {
    public var book: LibraryBook
    public var page: Page
    public var voice: VoiceChoice
    /// Who reads the page's narration and each character's quotations; nil: `voice` alone.
    public var cast: VoiceCast?

    public init(book: LibraryBook, page: Page, voice: VoiceChoice, cast: VoiceCast? = nil) {
        self.cast = cast
        self.book = book
        self.page = page
        self.voice = voice
    }

    /// The text as it goes to the engine, whole: what a rendering of the page is keyed by.
    /// With a cast, the text is followed by the cast's voices, so that a recast page is another.
    public var speechRequest: SpeechRequest {
        let text = SpeechText(page.text)
        guard let cast else { return text.request(voice: voice.profile) }
        return SpeechRequest(text: text.text + "\u{1F}cast\u{1F}" + cast.signature, voice: voice.profile)
    }
}
