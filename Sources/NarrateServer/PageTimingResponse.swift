import NarrateKit

/// `GET /v1/books/{id}/pages/{page}/timing`: when each sentence (and word, where the engine
/// times words) of the page's text is spoken in its audio. Offsets count UTF-16 code units of
/// `text` (what `/text` gives), as JavaScript strings do; times are seconds.
struct PageTimingResponse: Codable, Sendable {
    struct Span: Codable, Sendable {
        var start: Double
        var end: Double
        var from: Int
        var to: Int
    }

    var book_id: String
    var page: String
    /// "words" (eSpeak NG) or "sentences" (Piper, Kokoro, a remote API).
    var timing: String
    var offsets = "utf16"
    var duration: Double
    var text: String
    var sentences: [Span]
    var words: [Span]

    init(bookID: String, page: String, record: PageTimingRecord) {
        let timeline = record.timeline
        book_id = bookID
        self.page = page
        timing = timeline.timing.rawValue
        duration = Self.rounded(timeline.duration)
        text = record.text
        sentences = timeline.sentences.map(Self.span)
        words = timeline.words.map(Self.span)
    }

    private static func span(_ span: PageTimeline.Span) -> Span {
        Span(start: rounded(span.start), end: rounded(span.end), from: span.from, to: span.to)
    }

    /// Milliseconds are finer than any highlight needs.
    private static func rounded(_ seconds: Double) -> Double {
        (seconds * 1000).rounded() / 1000
    }
}
