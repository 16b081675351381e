
import NarrateDomain

/// Why the bytes of a cache entry were rejected.
enum AudioCacheEntryError: Error, Sendable, Equatable {
    case badMagic
    case unsupportedVersion(UInt32)
    case keyMismatch
    case lengthMismatch(expected: Int, actual: Int)
    /// The header counts more samples or marks than the whole file could hold.
    case countsPastFile(samples: UInt64, marks: UInt32, fileSize: Int)
    case checksumMismatch
    case valueOutOfRange(String)
    /// A field disagrees with the entry's own content (a mark past the samples, a sample rate
    /// no engine writes): a forged or corrupt entry.
    case inconsistent(String)
    /// The entry comes from a store whose fleet key it does not carry (no seal, or a wrong one).
    case unsealed

    /// A short reason for logs and `CacheError`s.
    var reason: String {
        switch self {
        case .badMagic: "not a Narrate cache entry (bad magic)"
        case let .unsupportedVersion(version): "unsupported entry format version \(version)"
        case .keyMismatch: "the entry was stored under another key"
        case let .lengthMismatch(expected, actual): "truncated or oversized entry (\(actual) bytes, expected \(expected))"
        case let .countsPastFile(samples, marks, fileSize): "truncated entry: its header counts \(samples) samples and \(marks) word marks, more than its \(fileSize) bytes hold"
        case .checksumMismatch: "CRC-32C checksum mismatch"
        case let .valueOutOfRange(what): "\(what) does not fit the entry format"
        case let .inconsistent(what): "inconsistent entry: \(what)"
        case .unsealed: "the store's object does not carry the fleet key's seal"
        }
    }
}

/// Encodes and decodes the bytes of one cache entry file. Pure: no disk access.
///
/// Format version 2, every integer little-endian:
///
/// | offset | size            | field                                              |
/// |--------|-----------------|----------------------------------------------------|
/// | 0      | 4               | magic `NRTC`                                       |
/// | 4      | 4               | format version (`UInt32`, 2)                       |
/// | 8      | 32              | the key's 32 bytes (the entry's own address)       |
/// | 40     | 4               | sample rate (`UInt32`, Hz)                         |
/// | 44     | 8               | sample count (`UInt64`)                            |
/// | 52     | 4               | word mark count (`UInt32`)                         |
/// | 56     | 16 × markCount  | marks: textOffset `UInt32`, textLength `UInt32`, sampleOffset `UInt64` |
/// | …      | 2 × sampleCount | PCM, 16-bit signed mono                            |
/// | …      | 4               | CRC-32C over every byte before it (`EntryChecksum`) |
///
/// The length of a valid entry follows from its header, so a truncated file is caught before
/// its PCM is read; the trailing digest catches any flipped byte.
enum AudioCacheEntryCodec {
    static let magic: [UInt8] = Array("NRTC".utf8)
    static let formatVersion: UInt32 = 2
    /// Magic, version, key, sample rate, sample count and mark count.
    static let fixedHeaderSize = 56
    static let markSize = 16
    static let digestSize = EntryChecksum.size
    /// The sample rates an entry may have: every engine's, with room (0 only for no samples).
    static let sampleRates = 1_000...768_000
    /// The furthest a word mark may reach into its chunk's text (a chunk is far shorter).
    static let maxTextReach = 1 << 24

    /// The fixed part of an entry's header.
    struct Header: Sendable, Equatable {
        var keyBytes: [UInt8]
        var sampleRate: Int
        var sampleCount: Int
        var markCount: Int

        var marksByteCount: Int { markCount * AudioCacheEntryCodec.markSize }
        var samplesByteCount: Int { sampleCount * MemoryLayout<Int16>.size }
        /// Header and marks: everything before the PCM.
        var prefixByteCount: Int { AudioCacheEntryCodec.fixedHeaderSize + marksByteCount }
        /// The exact size of the whole entry file.
        var entryByteCount: Int { prefixByteCount + samplesByteCount + AudioCacheEntryCodec.digestSize }
        /// Length of the audio in seconds.
        var duration: Double { sampleRate > 0 ? Double(sampleCount) / Double(sampleRate) : 0 }
    }

    // MARK: - Encoding

    /// The fixed header and the word marks of `audio`: the bytes that precede the PCM.
    static func encodePrefix(_ audio: SpeechAudio, key: AudioCacheKey) throws(AudioCacheEntryError) -> [UInt8] {
        guard let sampleRate = UInt32(exactly: audio.sampleRate) else { throw .valueOutOfRange("sample rate \(audio.sampleRate)") }
        guard let markCount = UInt32(exactly: audio.wordMarks.count) else { throw .valueOutOfRange("word mark count") }
        var bytes = [UInt8]()
        bytes.reserveCapacity(fixedHeaderSize + audio.wordMarks.count * markSize)
        bytes += magic
        append(formatVersion, to: &bytes)
        bytes += key.bytes
        append(sampleRate, to: &bytes)
        append(UInt64(audio.samples.count), to: &bytes)
        append(markCount, to: &bytes)
        for mark in audio.wordMarks {
            guard let textOffset = UInt32(exactly: mark.textOffset),
                let textLength = UInt32(exactly: mark.textLength),
                let sampleOffset = UInt64(exactly: mark.sampleOffset)
            else { throw .valueOutOfRange("word mark \(mark)") }
            append(textOffset, to: &bytes)
            append(textLength, to: &bytes)
            append(sampleOffset, to: &bytes)
        }
        return bytes
    }

    /// The checksum of the prefix followed by the PCM, computed in place.
    static func digest(prefix: [UInt8], samples: UnsafeRawBufferPointer) -> [UInt8] {
        var hasher = EntryChecksum()
        prefix.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        hasher.update(bufferPointer: samples)
        return Array(hasher.finalize())
    }

    /// The whole entry in memory. The cache writes the parts without joining them; this is for
    /// tests and small tools.
    static func encode(_ audio: SpeechAudio, key: AudioCacheKey) throws(AudioCacheEntryError) -> [UInt8] {
        let prefix = try encodePrefix(audio, key: key)
        return audio.samples.withUnsafeBytes { samples in
            prefix + Array(samples) + digest(prefix: prefix, samples: samples)
        }
    }

    // MARK: - Decoding

    /// Parses and checks the fixed header (the first `fixedHeaderSize` bytes).
    /// - Parameters:
    ///   - expectedKey: the key the entry must be stored under.
    ///   - fileSize: the entry's actual size, checked against the size the header implies.
    static func decodeHeader(_ bytes: UnsafeRawBufferPointer, expectedKey: AudioCacheKey, fileSize: Int) throws(AudioCacheEntryError) -> Header {
        guard bytes.count >= fixedHeaderSize else {
            throw .lengthMismatch(expected: fixedHeaderSize + digestSize, actual: fileSize)
        }
        guard bytes.prefix(4).elementsEqual(magic) else { throw .badMagic }
        let version: UInt32 = load(bytes, at: 4)
        guard version == formatVersion else { throw .unsupportedVersion(version) }
        guard bytes[8..<40].elementsEqual(expectedKey.bytes) else { throw .keyMismatch }
        let sampleRate: UInt32 = load(bytes, at: 40)
        let sampleCount: UInt64 = load(bytes, at: 44)
        let markCount: UInt32 = load(bytes, at: 52)
        // Bound the counts by the file size before multiplying, so a garbage header cannot overflow.
        let available = UInt64(max(0, fileSize - fixedHeaderSize - digestSize))
        guard sampleCount <= available / 2, UInt64(markCount) <= available / UInt64(markSize) else {
            throw .countsPastFile(samples: sampleCount, marks: markCount, fileSize: fileSize)
        }
        guard sampleRates.contains(Int(sampleRate)) || (sampleRate == 0 && sampleCount == 0) else {
            throw .inconsistent("a sample rate of \(sampleRate) Hz")
        }
        let header = Header(keyBytes: expectedKey.bytes, sampleRate: Int(sampleRate), sampleCount: Int(sampleCount), markCount: Int(markCount))
        guard header.entryByteCount == fileSize else {
            throw .lengthMismatch(expected: header.entryByteCount, actual: fileSize)
        }
        return header
    }

    /// Parses `count` word marks, each checked against the entry's own content: a mark falls
    /// within the `sampleCount` samples and within `maxTextReach` of the text's start.
    static func decodeMarks(_ bytes: UnsafeRawBufferPointer, count: Int, sampleCount: Int) throws(AudioCacheEntryError) -> [WordMark] {
        guard bytes.count >= count * markSize else { throw .lengthMismatch(expected: count * markSize, actual: bytes.count) }
        var marks = [WordMark]()
        marks.reserveCapacity(count)
        for index in 0..<count {
            let base = index * markSize
            let textOffset: UInt32 = load(bytes, at: base)
            let textLength: UInt32 = load(bytes, at: base + 4)
            let sampleOffset: UInt64 = load(bytes, at: base + 8)
            guard sampleOffset <= UInt64(sampleCount), let sample = Int(exactly: sampleOffset) else {
                throw .inconsistent("word mark \(index) at sample \(sampleOffset) of \(sampleCount)")
            }
            guard UInt64(textOffset) + UInt64(textLength) <= UInt64(maxTextReach) else {
                throw .inconsistent("word mark \(index) reaches text offset \(UInt64(textOffset) + UInt64(textLength))")
            }
            marks.append(WordMark(textOffset: Int(textOffset), textLength: Int(textLength), sampleOffset: sample))
        }
        return marks
    }

    /// Decodes and fully verifies an entry held in memory.
    static func decode(_ bytes: [UInt8], key: AudioCacheKey) throws(AudioCacheEntryError) -> SpeechAudio {
        let result: Result<SpeechAudio, AudioCacheEntryError> = bytes.withUnsafeBytes { raw in
            do throws(AudioCacheEntryError) {
                return .success(try audio(raw, header: verify(raw, key: key)))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Checks an entry held in memory, header, length and checksum, without copying its samples.
    static func verify(_ raw: UnsafeRawBufferPointer, key: AudioCacheKey) throws(AudioCacheEntryError) -> Header {
        let header = try decodeHeader(raw, expectedKey: key, fileSize: raw.count)
        let body = raw[..<(header.entryByteCount - digestSize)]
        var hasher = EntryChecksum()
        hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: body))
        guard Array(hasher.finalize()).elementsEqual(raw[(header.entryByteCount - digestSize)...]) else {
            throw .checksumMismatch
        }
        return header
    }

    /// The audio of an entry `verify` passed, as `header` describes it.
    static func audio(_ raw: UnsafeRawBufferPointer, header: Header) throws(AudioCacheEntryError) -> SpeechAudio {
        let marks = try decodeMarks(UnsafeRawBufferPointer(rebasing: raw[fixedHeaderSize..<header.prefixByteCount]), count: header.markCount, sampleCount: header.sampleCount)
        let pcm = UnsafeRawBufferPointer(rebasing: raw[header.prefixByteCount..<(header.prefixByteCount + header.samplesByteCount)])
        let samples = [Int16](unsafeUninitializedCapacity: header.sampleCount) { buffer, initialized in
            UnsafeMutableRawBufferPointer(buffer).copyMemory(from: pcm)
            initialized = header.sampleCount
        }
        return SpeechAudio(sampleRate: header.sampleRate, samples: samples, wordMarks: marks)
    }

    // MARK: - Little-endian helpers

    private static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    private static func load<T: FixedWidthInteger>(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> T {
        T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
    }
}
