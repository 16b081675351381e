/// Adds a book file to the library; the same file again gives the book already there.
public protocol ImportBookUseCaseContract: Sendable {
    /// - Returns: the library book, and whether it was in the library before.
    /// - Throws: `BookError` when the file is missing, unsupported or broken; nothing is added then.
    func execute(path: String) async throws(BookError) -> (book: LibraryBook, existed: Bool)
}

/// Adds a book file to the library, or finds it there when a file with the same content was added before.
public struct ImportBookUseCase: ImportBookUseCaseContract {
    private let resolver: BookResolver

    public init(bookRepository: any BookRepositoryContract, sourceRepository: any BookSourceRepositoryContract) {
        resolver = BookResolver(library: bookRepository, source: sourceRepository)
    }

    public func execute(path: String) async throws(BookError) -> (book: LibraryBook, existed: Bool) {
        guard DocumentFormat.mayHoldBook(fileExtension: path.fileExtension) else {
            throw .unsupportedFormat(path: path)
        }
        return try await resolver.importFile(path)
    }
}

extension String {
    /// The part after the last dot of the last path component, or "".
    var fileExtension: String {
        let name = split(separator: "/").last.map(String.init) ?? self
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...])
    }
}
