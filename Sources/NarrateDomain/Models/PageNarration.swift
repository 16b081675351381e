/// A page with its narration: its chunks' audio concatenated, word marks at page offsets.
public struct PageNarration: Sendable, Equatable {
    public var page: Page
    public var pageCount: Int
    public var audio: SpeechAudio

    public init(page: Page, pageCount: Int, audio: SpeechAudio) {
        self.page = page
        self.pageCount = pageCount
        self.audio = audio
    }
}
