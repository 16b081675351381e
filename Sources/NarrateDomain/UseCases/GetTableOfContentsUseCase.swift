/// A book's table of contents, each entry with the page it starts on.
public protocol GetTableOfContentsUseCaseContract: Sendable {
    func execute(reference: String) async throws(BookError) -> (book: LibraryBook, entries: [TableOfContentsEntry])
}

/// One line of a table of contents.
public struct TableOfContentsEntry: Sendable, Hashable, Codable {
    public var title: String
    public var depth: Int
    /// 1-based index of the first page.
    public var pageIndex: Int
    /// The first page's label (the printed number when the book has one).
    public var pageLabel: String

    public init(title: String, depth: Int, pageIndex: Int, pageLabel: String) {
        self.title = title
        self.depth = depth
        self.pageIndex = pageIndex
        self.pageLabel = pageLabel
    }
}

/// A book's chapters, each with the page (and its label) it starts on.
public struct GetTableOfContentsUseCase: GetTableOfContentsUseCaseContract {
    private let resolver: BookResolver

    public init(bookRepository: any BookRepositoryContract, sourceRepository: any BookSourceRepositoryContract, includesMatter: Bool = false) {
        resolver = BookResolver(library: bookRepository, source: sourceRepository, includesMatter: includesMatter)
    }

    public func execute(reference: String) async throws(BookError) -> (book: LibraryBook, entries: [TableOfContentsEntry]) {
        let book = try await resolver.resolve(reference).book
        let pages = book.book.pages
        let entries = book.book.chapters.map { chapter in
            let label = pages.indices.contains(chapter.firstPage - 1) ? pages[chapter.firstPage - 1].label : String(chapter.firstPage)
            return TableOfContentsEntry(title: chapter.title, depth: chapter.depth, pageIndex: chapter.firstPage, pageLabel: label)
        }
        return (book, entries)
    }
}
