import struct Foundation.Date

/// Saves where the reader stopped.
public protocol UpdateReadingProgressUseCaseContract: Sendable {
    /// - Throws: `BookError.pageNotFound` for an index outside the book, `.bookNotFound`.
    func execute(book: LibraryBook, pageIndex: Int) async throws(BookError) -> ReadingProgress
}

/// Saves the page where the reader stopped.
public struct UpdateReadingProgressUseCase: UpdateReadingProgressUseCaseContract {
    private let repository: any BookRepositoryContract
    private let clock: @Sendable () -> Date

    public init(repository: any BookRepositoryContract, clock: @escaping @Sendable () -> Date) {
        self.repository = repository
        self.clock = clock
    }

    public func execute(book: LibraryBook, pageIndex: Int) async throws(BookError) -> ReadingProgress {
        guard (1...max(book.book.pages.count, 1)).contains(pageIndex), !book.book.pages.isEmpty else {
            throw .pageNotFound(page: String(pageIndex), pageCount: book.book.pages.count)
        }
        let progress = ReadingProgress(pageIndex: pageIndex, updatedAt: clock())
        try await repository.updateProgress(bookID: book.id, progress: progress)
        return progress
    }
}
