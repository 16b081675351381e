import Crypto
import Foundation
import NarrateDomain

/// Opens book files and parses them with the parser their format calls for.
public final class FileBookSourceRepository: BookSourceRepositoryContract {
    private let parsers: [DocumentFormat: any DocumentParserContract]
    private let options: ParseOptions

    public init(parsers: [any DocumentParserContract], options: ParseOptions) {
        self.parsers = Dictionary(parsers.map { ($0.format, $0) }, uniquingKeysWith: { first, _ in first })
        self.options = options
    }

    public func book(at path: String) async throws(BookError) -> Book {
        let parser = try parser(for: path)
        return try parser.parse(try read(path), path: path, options: options)
    }

    public func contentHash(ofFileAt path: String) async throws(BookError) -> String {
        _ = try parser(for: path)
        var hasher = SHA256()
        try read(path).withUnsafeBytes { hasher.update(bufferPointer: $0) }
        return hasher.finalize().map { byte in String(byte, radix: 16).leftPaddedHex }.joined()
    }

    private func parser(for path: String) throws(BookError) -> any DocumentParserContract {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw .fileNotFound(path: path) }
        guard !isDirectory.boolValue else { throw .unreadable(path: path, reason: "it is a folder, not a file") }
        guard let format = DocumentFormat(fileExtension: (path as NSString).pathExtension), let parser = parsers[format] else {
            throw .unsupportedFormat(path: path)
        }
        return parser
    }

    private func read(_ path: String) throws(BookError) -> Data {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe)
        } catch {
            throw .unreadable(path: path, reason: (error as NSError).localizedDescription)
        }
    }
}

private extension String {
    var leftPaddedHex: String { count == 1 ? "0" + self : self }
}
