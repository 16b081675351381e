import Crypto
import Foundation
import NarrateDomain

/// Opens book files and parses them with the parser their format calls for (by content for
/// ZIP archives, else by extension).
public final class FileBookSourceRepository: BookSourceRepositoryContract {
    private let factory: DocumentParserFactory
    private let options: ParseOptions

    /// The parsers' generation: 2 leaves out what is not the book (boilerplate, contents
    /// lists, notes), reads Project Gutenberg headers' language and a book's pronunciations;
    /// 3 places each chapter at its text position inside its first page.
    public static let currentParserVersion = 3

    public var parserVersion: Int { Self.currentParserVersion }

    public init(factory: DocumentParserFactory = DocumentParserFactory(), options: ParseOptions) {
        self.factory = factory
        self.options = options
    }

    public func book(at path: String) async throws(BookError) -> Book {
        try await book(at: path, includingMatter: options.includesMatter)
    }

    public func book(at path: String, includingMatter: Bool) async throws(BookError) -> Book {
        let data = try read(path)
        var options = options
        options.includesMatter = includingMatter
        var book = try factory.parser(for: format(of: path, data: data)).parse(data, path: path, options: options)
        book.parserVersion = Self.currentParserVersion
        return book
    }

    public func contentHash(ofFileAt path: String) async throws(BookError) -> String {
        let data = try read(path)
        _ = try format(of: path, data: data)
        var hasher = SHA256()
        data.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        return Hex.encode(hasher.finalize())
    }

    private func format(of path: String, data: Data) throws(BookError) -> DocumentFormat {
        guard let format = factory.format(path: path, data: data) else { throw .unsupportedFormat(path: path) }
        return format
    }

    private func read(_ path: String) throws(BookError) -> Data {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw .fileNotFound(path: path) }
        guard !isDirectory.boolValue else { throw .unreadable(path: path, reason: "it is a folder, not a file") }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe)
        } catch {
            throw .unreadable(path: path, reason: (error as NSError).localizedDescription)
        }
    }
}
