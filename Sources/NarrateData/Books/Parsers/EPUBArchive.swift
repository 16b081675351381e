import CNarrateSystem
import struct Foundation.Data
import NarrateDomain

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
    private let data: Data
    private let entries: [String: ZIPLayout.Entry]
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
        var entries: [String: ZIPLayout.Entry] = [:]
        var declaredTotal = 0
        for entry in try ZIPLayout.entries(data, path: path) {
            let name = entry.name
            guard Self.isSafe(entryName: name) else { throw .unsafeEntryPath(path: path, entry: name) }
            guard entries[name] == nil else { throw .duplicateEntry(path: path, entry: name) }
            if entry.uncompressedSize > limits.maxEntrySize {
                throw .entryTooLarge(path: path, entry: name, limit: limits.maxEntrySize)
            }
            declaredTotal += entry.uncompressedSize
            if declaredTotal > limits.maxTotalSize {
                throw .archiveTooLarge(path: path, limit: limits.maxTotalSize)
            }
            entries[name] = entry
        }
        self.data = data
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

    /// The names of the entries, sorted.
    var names: [String] { entries.keys.sorted() }

    /// The uncompressed bytes of `name`, or nil when the archive has no such entry.
    func read(_ name: String) throws(BookError) -> Data? {
        guard let entry = entries[name] else { return nil }
        guard !entry.isDirectory else { return Data() }
        // The real size counts, not the declared one: headers can lie.
        let remaining = limits.maxTotalSize - totalRead
        let limit = min(limits.maxEntrySize, remaining)
        let tooLarge: BookError = limits.maxEntrySize <= remaining
            ? .entryTooLarge(path: path, entry: name, limit: limits.maxEntrySize)
            : .archiveTooLarge(path: path, limit: limits.maxTotalSize)
        let output: Data
        switch entry.method {
        case 0:
            guard entry.compressedSize <= limit else { throw tooLarge }
            output = data.subdata(in: (data.startIndex + entry.dataStart)..<(data.startIndex + entry.dataStart + entry.compressedSize))
        case 8:
            output = try inflate(entry, limit: limit, tooLarge: tooLarge)
        default:
            throw .damagedEntry(path: path, entry: name, reason: "it is compressed with method \(entry.method), which book archives do not use")
        }
        let checksum = output.withUnsafeBytes { narrate_crc32(0, $0.baseAddress, $0.count) }
        guard checksum == entry.crc32 else { throw .damagedEntry(path: path, entry: name, reason: "checksum mismatch") }
        totalRead += output.count
        return output
    }

    private func inflate(_ entry: ZIPLayout.Entry, limit: Int, tooLarge: BookError) throws(BookError) -> Data {
        var buffer: UnsafeMutablePointer<UInt8>?
        var length = 0
        let status = data.withUnsafeBytes { bytes in
            narrate_inflate_raw(bytes.baseAddress! + entry.dataStart, entry.compressedSize, min(entry.uncompressedSize, limit), limit, &buffer, &length)
        }
        switch status {
        case 0:
            guard let buffer else { return Data() }
            return Data(bytesNoCopy: buffer, count: length, deallocator: .free)
        case -2:
            throw tooLarge
        case -3:
            throw .damagedEntry(path: path, entry: entry.name, reason: "there is not enough memory to read it")
        default:
            throw .damagedEntry(path: path, entry: entry.name, reason: "its compressed data is corrupt or cut short")
        }
    }
}
