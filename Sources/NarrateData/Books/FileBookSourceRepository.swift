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
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw .fileNotFound(path: path) }
        guard !isDirectory.boolValue else { throw .unreadable(path: path, reason: "it is a folder, not a file") }
        let fileExtension = (path as NSString).pathExtension
        guard let format = DocumentFormat(fileExtension: fileExtension), let parser = parsers[format] else {
            throw .unsupportedFormat(path: path)
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe)
        } catch {
            throw .unreadable(path: path, reason: (error as NSError).localizedDescription)
        }
        return try parser.parse(data, path: path, options: options)
    }
}
