import Foundation
import NarrateDomain

/// Checks that a ZIP archive's directory points inside the file before ZIPFoundation reads it:
/// ZIPFoundation trusts the offsets and sizes it finds, and a crafted or damaged file whose
/// local-header offset lies past its end makes it trap (`Range requires lowerBound <=
/// upperBound`) instead of throwing.
enum ZIPLayout {
    /// Throws `BookError.damagedEntry` naming the first entry whose header or data lies outside
    /// `data` (or `notAZipArchive` when the directory itself does).
    static func validate(_ data: Data, path: String) throws(BookError) {
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
            cursor += 46 + nameLength + extraLength + commentLength
        }
    }
}
