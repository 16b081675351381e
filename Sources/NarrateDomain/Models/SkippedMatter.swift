/// Text of a book file that is not the book, left out of its pages: a Project Gutenberg
/// licence, a printed contents list, notes, an imprint. `narrate toc` lists it with its reason;
/// `--include-matter` reads it anyway.
public struct SkippedMatter: Sendable, Hashable, Codable {
    /// What the text is, which is why it was left out.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// A Project Gutenberg header, footer or licence.
        case gutenbergBoilerplate = "gutenberg"
        /// A printed table of contents: the chapter titles, heard again at each chapter.
        case contents
        /// Footnotes and endnotes, and the markers that point to them.
        case notes
        /// Lists of illustrations or tables, landmarks, page lists.
        case navigation
        /// A publisher's imprint.
        case imprint
        /// A colophon: how the edition was made.
        case colophon
        /// A copyright (or uncopyright) page.
        case copyright
        /// An index.
        case index

        /// Why text of this kind is not read, for listings.
        public var reason: String {
            switch self {
            case .gutenbergBoilerplate: "Project Gutenberg header or licence"
            case .contents: "contents list (each chapter title is read at its chapter)"
            case .notes: "notes and note markers"
            case .navigation: "list of illustrations, tables or landmarks"
            case .imprint: "imprint"
            case .colophon: "colophon"
            case .copyright: "copyright page"
            case .index: "index"
            }
        }
    }

    public var kind: Kind
    /// A title for the skipped text: its heading, or its first words.
    public var title: String
    /// How many words were left out.
    public var words: Int

    public init(kind: Kind, title: String, words: Int) {
        self.kind = kind
        self.title = title
        self.words = words
    }
}
