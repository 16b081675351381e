import struct Foundation.Data
import NarrateDomain

/// The ZIP archive of a DOCX, an ODT or a zipped FB2: `EPUBArchive`'s checked names and bounded
/// reads, with what goes wrong worded for the format, and its XML parts read with the same
/// bounds as an EPUB's.
struct OfficeArchive {
    let archive: EPUBArchive
    let path: String
    let format: DocumentFormat

    init(data: Data, path: String, format: DocumentFormat, limits: ArchiveLimits) throws(BookError) {
        do {
            archive = try EPUBArchive(data: data, path: path, limits: limits)
        } catch {
            if case .notAZipArchive = error {
                throw .unreadableDocument(path: path, format: format, reason: "it is not a ZIP archive, or it is cut short (it has no central directory)")
            }
            throw error
        }
        self.path = path
        self.format = format
    }

    func contains(_ entry: String) -> Bool { archive.contains(entry) }

    var names: [String] { archive.names }

    /// The bytes of `entry`, or nil when the archive has none.
    func read(_ entry: String) throws(BookError) -> Data? {
        try archive.read(entry)
    }

    /// The element tree of the XML part `entry`, or nil when the archive has none.
    /// - Throws: `unreadableDocument` when it is not well-formed XML.
    func tree(_ entry: String) throws(BookError) -> XMLTree? {
        guard let data = try read(entry) else { return nil }
        switch XMLTree.parse(data) {
        case let .success(tree): return tree
        case let .failure(error): throw malformed(entry, error)
        }
    }

    /// Streams the XML part `entry` to `handler`.
    /// - Returns: false when the archive has no such entry.
    /// - Throws: `unreadableDocument` when it is not well-formed XML.
    @discardableResult
    func stream(_ entry: String, into handler: some XMLStreamHandler) throws(BookError) -> Bool {
        guard let data = try read(entry) else { return false }
        if let error = XMLStream.parse(data, into: handler) { throw malformed(entry, error) }
        return true
    }

    func malformed(_ entry: String, _ error: XMLTreeError) -> BookError {
        .unreadableDocument(path: path, format: format, reason: "its part '\(entry)' is not well-formed XML (\(error.reason))")
    }

    /// The error for a part the format cannot do without.
    func missing(_ entry: String) -> BookError {
        .unreadableDocument(path: path, format: format, reason: "it has no '\(entry)', where its text would be")
    }
}
