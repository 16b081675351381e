import Foundation
import NarrateDomain

/// A ZIP archive's central directory, read and checked: every entry's header and data lie
/// inside the file. (ZIPFoundation trusted the offsets it found, so a crafted local-header
/// offset made it trap, and its inflate loop never ended on some corrupt streams: entries are
/// read from this layout with zlib instead.)
enum ZIPLayout {
    struct Entry: Equatable {
        var name: String
        /// 0 stored, 8 deflated.
        var method: Int
        var dataStart: Int
        var compressedSize: Int
        var uncompressedSize: Int
        var crc32: UInt32
        var isDirectory: Bool { name.hasSuffix("/") }
    }

    /// The entries, in directory order.
    /// - Throws: `BookError.damagedEntry` naming the first entry whose header or data lies
    ///   outside `data`, or `notAZipArchive` when the directory itself does.
    static func entries(_ data: Data, path: String) throws(BookError) -> [Entry] {
        let bytes = [UInt8](data)
        let count = bytes.count
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        // The end-of-central-directory record: 22 bytes, then a comment of up to 64 KiB.
        guard count >= 22 else { throw .notAZipArchive(path: path) }
        var end = -1
        for candidate in stride(from: count - 22, through: max(0, count - 22 - 65_535), by: -1)
        where bytes[candidate] == 0x50 && bytes[candidate + 1] == 0x4B && bytes[candidate + 2] == 0x05 && bytes[candidate + 3] == 0x06 {
            end = candidate
            break
        }
        guard end >= 0 else { throw .notAZipArchive(path: path) }
        let entryCount = u16(end + 10)
        let directorySize = u32(end + 12)
        let directoryOffset = u32(end + 16)
        // ZIP64 archives (counts or offsets at their maximum) are past any book's size limit.
        guard entryCount != 0xFFFF, directoryOffset != 0xFFFF_FFFF, directoryOffset + directorySize <= end else {
            throw .notAZipArchive(path: path)
        }
        var cursor = directoryOffset
        var entries: [Entry] = []
        entries.reserveCapacity(entryCount)
        for index in 0..<entryCount {
            guard cursor + 46 <= end, u32(cursor) == 0x0201_4B50 else { throw .notAZipArchive(path: path) }
            let compressedSize = u32(cursor + 20)
            let nameLength = u16(cursor + 28)
            let extraLength = u16(cursor + 30)
            let commentLength = u16(cursor + 32)
            let localOffset = u32(cursor + 42)
            guard cursor + 46 + nameLength <= end else { throw .notAZipArchive(path: path) }
            let name = String(decoding: bytes[(cursor + 46)..<(cursor + 46 + nameLength)], as: UTF8.self)
            let entry = name.isEmpty ? "#\(index + 1)" : name
            // The local header (30 bytes, then its own name and extra field), then the data.
            guard localOffset + 30 <= count, u32(localOffset) == 0x0403_4B50 else {
                throw .damagedEntry(path: path, entry: entry, reason: "its header lies outside the file")
            }
            let dataStart = localOffset + 30 + u16(localOffset + 26) + u16(localOffset + 28)
            guard compressedSize != 0xFFFF_FFFF, dataStart + compressedSize <= count else {
                throw .damagedEntry(path: path, entry: entry, reason: "its data lies outside the file")
            }
            entries.append(Entry(
                name: name, method: u16(cursor + 10), dataStart: dataStart, compressedSize: compressedSize,
                uncompressedSize: u32(cursor + 24), crc32: UInt32(u32(cursor + 16))
            ))
            cursor += 46 + nameLength + extraLength + commentLength
        }
        return entries
    }
}
