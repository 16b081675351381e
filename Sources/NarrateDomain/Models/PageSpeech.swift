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
    public var speechRequest: SpeechRequest {
        SpeechText(page.text).request(voice: voice.profile)
    }
}
