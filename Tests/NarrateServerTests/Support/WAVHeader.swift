/// The header of a PCM WAV file as the service writes it (RIFF, `fmt `, then `data`).
struct WAVHeader: Equatable {
    var format: UInt16
    var channels: UInt16
    var sampleRate: UInt32
    var bitsPerSample: UInt16
    /// The `data` chunk's size as the header gives it.
    var dataSize: UInt32
    /// The bytes after the `data` chunk's header.
    var dataBytes: Int

    /// `nil` when `bytes` is not such a file.
    init?(_ bytes: [UInt8]) {
        guard bytes.count >= 44, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WAVE".utf8) else { return nil }
        func u16(_ at: Int) -> UInt16 { UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> UInt32 { UInt32(u16(at)) | UInt32(u16(at + 2)) << 16 }
        var offset = 12
        var fmt: Int?
        while offset + 8 <= bytes.count {
            let id = bytes[offset..<offset + 4]
            let size = Int(u32(offset + 4))
            if id.elementsEqual("fmt ".utf8) { fmt = offset + 8 }
            if id.elementsEqual("data".utf8) {
                guard let fmt else { return nil }
                format = u16(fmt)
                channels = u16(fmt + 2)
                sampleRate = u32(fmt + 4)
                bitsPerSample = u16(fmt + 14)
                dataSize = UInt32(size)
                dataBytes = bytes.count - offset - 8
                return
            }
            offset += 8 + size + size % 2
        }
        return nil
    }

    /// Seconds of 16-bit mono audio in the data.
    var seconds: Double { Double(dataBytes) / 2 / Double(sampleRate) }
}
