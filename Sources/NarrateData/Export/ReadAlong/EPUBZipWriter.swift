import Foundation
import NarrateDomain
import ZIPFoundation

/// Writes an EPUB container: `mimetype` first and stored, then every other entry, into a
/// temporary file beside the destination that is renamed over it only when it is whole.
final class EPUBZipWriter {
    private let file: AtomicFile
    private var archive: Archive?
    private let destination: String

    /// Starts the EPUB at `destination` with its `mimetype` entry.
    /// - Throws: `ExportError.outputFailed` when the folder cannot be written.
    init(destination: String) throws(ExportError) {
        self.destination = destination
        file = try ExportError.writing(destination) { () throws(SystemCallError) in
            let file = try AtomicFile(destination: destination, suffix: ".epub")
            // An empty ZIP (its end record alone), which ZIPFoundation then adds to.
            try file.write([0x50, 0x4B, 0x05, 0x06] + [UInt8](repeating: 0, count: 18))
            return file
        }
        do {
            archive = try Archive(url: URL(fileURLWithPath: file.path), accessMode: .update, pathEncoding: nil)
        } catch {
            file.discard()
            throw Self.failed(destination, error)
        }
        try add("mimetype", Data("application/epub+zip".utf8), compressed: false)
    }

    /// Adds an entry from memory.
    func add(_ path: String, _ data: Data, compressed: Bool = true) throws(ExportError) {
        guard let archive else { return }
        do {
            try archive.addEntry(
                with: path, type: .file, uncompressedSize: Int64(data.count), modificationDate: Self.date,
                compressionMethod: compressed ? .deflate : .none
            ) { position, size in
                data.subdata(in: Int(position)..<(Int(position) + size))
            }
        } catch {
            discard()
            throw Self.failed(destination, error)
        }
    }

    /// Adds an entry from a file, stored as it is (audio does not compress).
    func add(_ path: String, file source: String) throws(ExportError) {
        guard let archive else { return }
        do {
            try archive.addEntry(with: path, fileURL: URL(fileURLWithPath: source), compressionMethod: .none)
        } catch {
            discard()
            throw Self.failed(destination, error)
        }
    }

    /// Closes the archive and moves it into place.
    func commit() throws(ExportError) {
        archive = nil
        try ExportError.writing(destination) { () throws(SystemCallError) in try file.commit() }
    }

    /// Removes the temporary file; the destination is untouched.
    func discard() {
        archive = nil
        file.discard()
    }

    /// Entries carry one fixed time, so the same export gives the same archive.
    private static let date = Date(timeIntervalSince1970: 946_684_800)

    private static func failed(_ destination: String, _ error: any Error) -> ExportError {
        .encoderFailed(format: "EPUB", reason: "\(destination) could not be written (\(error))")
    }
}
