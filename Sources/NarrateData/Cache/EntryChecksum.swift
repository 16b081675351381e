import CNarrateSystem

/// The integrity check of a cache entry: CRC-32C over every byte before it.
///
/// It guards against truncation and flipped bits, not against forgery (the entry's name, a
/// SHA-256 content address, says what it is). With the SSE 4.2 instruction it runs at several
/// GB/s, so verifying an hour of audio costs a few milliseconds where SHA-256 cost a tenth of
/// a second: a warm narration reads back every sample it writes.
struct EntryChecksum {
    static let size = 4
    private var crc: UInt32 = 0

    mutating func update(bufferPointer buffer: UnsafeRawBufferPointer) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        crc = narrate_crc32c(crc, base, buffer.count)
    }

    /// The checksum, little-endian.
    func finalize() -> [UInt8] {
        withUnsafeBytes(of: crc.littleEndian) { Array($0) }
    }
}
