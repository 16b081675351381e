import struct Foundation.Data
import NarrateDomain
import ZIPFoundation

/// Size limits that protect the parser against ZIP bombs.
public struct ArchiveLimits: Sendable, Hashable {
    /// Largest uncompressed size of one entry, in bytes.
    public var maxEntrySize: Int
    /// Largest uncompressed size of all entries read from one book, in bytes.
    public var maxTotalSize: Int

    public init(maxEntrySize: Int = 64 * 1_048_576, maxTotalSize: Int = 512 * 1_048_576) {
        self.maxEntrySize = maxEntrySize
        self.maxTotalSize = maxTotalSize
    }
}

/// A ZIP archive read in memory, with its entry names checked and its reads bounded.
///
/// Nothing is ever extracted to disk. Sizes in the headers are checked up front, and the
/// real decompressed size is counted while reading, because headers can lie.
final class EPUBArchive {
    private let archive: Archive
    private let entries: [String: Entry]
    private let path: String
    private let limits: ArchiveLimits
    private var totalRead = 0

    init(data: Data, path: String, limits: ArchiveLimits) throws(BookError) {
        guard !data.isEmpty else { throw .emptyFile(path: path) }
        // A ZIP starts with a local file header (or is an empty archive); anything else is not one.
        let magic = Array(data.prefix(4))
        guard magic == [0x50, 0x4B, 0x03, 0x04] || magic == [0x50, 0x4B, 0x05, 0x06] else {
            throw .notAZipArchive(path: path)
        }
        try ZIPLayout.validate(data, path: path)
        let archive: Archive
        do {
            archive = try Archive(data: data, accessMode: .read)
        } catch {
            throw .notAZipArchive(path: path)
        }
        var entries: [String: Entry] = [:]
        var declaredTotal: UInt64 = 0
        for entry in archive {
            let name = entry.path
            guard Self.isSafe(entryName: name) else { throw .unsafeEntryPath(path: path, entry: name) }
            guard entries[name] == nil else { throw .duplicateEntry(path: path, entry: name) }
            if entry.uncompressedSize > UInt64(limits.maxEntrySize) {
                throw .entryTooLarge(path: path, entry: name, limit: limits.maxEntrySize)
            }
            declaredTotal += entry.uncompressedSize
            if declaredTotal > UInt64(limits.maxTotalSize) {
                throw .archiveTooLarge(path: path, limit: limits.maxTotalSize)
            }
            entries[name] = entry
        }
        self.archive = archive
        self.entries = entries
        self.path = path
        self.limits = limits
    }

    /// Whether an entry name stays inside the archive: relative, and no `..` climbing above the root.
    static func isSafe(entryName name: String) -> Bool {
        if name.hasPrefix("/") || name.hasPrefix("\\") { return false }
        let scalars = Array(name.unicodeScalars.prefix(2))
        if scalars.count == 2, scalars[1] == ":", scalars[0].properties.isAlphabetic { return false }
        var depth = 0
        for component in name.split(whereSeparator: { $0 == "/" || $0 == "\\" }) {
            switch component {
            case ".": continue
            case "..":
                depth -= 1
                if depth < 0 { return false }
            default: depth += 1
            }
        }
        return true
    }

    func contains(_ name: String) -> Bool { entries[name] != nil }

    /// The uncompressed bytes of `name`, or nil when the archive has no such entry.
    func read(_ name: String) throws(BookError) -> Data? {
        guard let entry = entries[name] else { return nil }
        guard entry.type == .file else { return Data() }
        var output = Data()
        output.reserveCapacity(Int(min(entry.uncompressedSize, UInt64(limits.maxEntrySize))))
        let maxEntry = limits.maxEntrySize
        let remaining = limits.maxTotalSize - totalRead
        var overflow: BookError?
        do {
            let checksum = try archive.extract(entry, skipCRC32: false) { chunk in
                if output.count + chunk.count > maxEntry {
                    overflow = .entryTooLarge(path: self.path, entry: name, limit: maxEntry)
                    throw LimitExceeded()
                }
                if output.count + chunk.count > remaining {
                    overflow = .archiveTooLarge(path: self.path, limit: self.limits.maxTotalSize)
                    throw LimitExceeded()
                }
                output.append(chunk)
            }
            if checksum != entry.checksum {
                throw BookError.damagedEntry(path: path, entry: name, reason: "checksum mismatch")
            }
        } catch let error as BookError {
            throw error
        } catch {
            if let overflow { throw overflow }
            throw .damagedEntry(path: path, entry: name, reason: "\(error)")
        }
        totalRead += output.count
        return output
    }

    private struct LimitExceeded: Error {}
}
