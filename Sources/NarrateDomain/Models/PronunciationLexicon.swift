/// A pronunciation lexicon in force: a book's PLS lexicon, its inline `ssml:ph` marks, or one
/// of the user's own lexicons (`--lexicon`, a preset's `lexicons`).
public struct PronunciationLexicon: Sendable, Hashable, Codable {
    /// Where the lexicon came from, for messages (`fixes.pls`, `OEBPS/lexicon.pls`).
    public var name: String
    /// The lexicon's language (`xml:lang`); `nil` applies it to every voice.
    public var language: String?
    /// A digest of the lexicon's content: it goes into the audio cache key, so editing the
    /// lexicon never answers from audio made with the old one.
    public var digest: String
    public var entries: [PronunciationEntry]
    /// Why the lexicon could not be read (a book's broken lexicon is kept, empty, so the
    /// listener is told and the book is read without it).
    public var problem: String?

    /// The most entries one lexicon may hold.
    public static let maxEntries = 10_000
    /// The longest grapheme or phoneme string (in Unicode scalars) an entry may hold.
    public static let maxEntryScalars = 256
    /// The most lexicons in force at once.
    public static let maxLexicons = 32

    public init(name: String, language: String?, digest: String, entries: [PronunciationEntry], problem: String? = nil) {
        self.name = name
        self.language = language
        self.digest = digest
        self.entries = entries
        self.problem = problem
    }

    /// Whether this lexicon is for `voice`: a lexicon without a language is for every voice,
    /// one with a language for the voices of the same primary language (`en-US` for `en-gb`).
    public func applies(to voice: String) -> Bool {
        guard let language else { return true }
        return Self.primaryLanguage(of: language) == Self.primaryLanguage(ofVoice: voice)
    }

    /// `en` for `en-US`, `en_GB` or `EN`.
    public static func primaryLanguage(of tag: String) -> String {
        String(tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).first ?? "").lowercased()
    }

    /// The language of an eSpeak voice name: `en` for `en-us`, `en+f3` or `gmw/en-US`.
    public static func primaryLanguage(ofVoice voice: String) -> String {
        let base = voice.split(separator: "+").first.map(String.init) ?? voice
        let last = base.split(separator: "/").last.map(String.init) ?? base
        return primaryLanguage(of: last)
    }
}
