@_spi(Fuzzing) @testable import NarrateData
import NarrateDomain
import Testing

@Suite struct AudioCacheEntryCodecTests {
    typealias Codec = AudioCacheEntryCodec
    typealias Fixtures = AudioCacheFixtures

    let key = AudioCacheFixtures.key("codec")
    let audio = AudioCacheFixtures.audio(count: 1_000)

    @Test("an encoded entry decodes to the same audio")
    func roundTrip() throws {
        // Given
        let bytes = try Codec.encode(audio, key: key)

        // When
        let decoded = try Codec.decode(bytes, key: key)

        // Then
        #expect(decoded == audio)
    }

    @Test("empty audio without marks round-trips")
    func emptyRoundTrip() throws {
        // Given
        let empty = SpeechAudio(sampleRate: 8_000, samples: [])

        // When
        let bytes = try Codec.encode(empty, key: key)

        // Then
        #expect(bytes.count == Codec.fixedHeaderSize + Codec.digestSize)
        #expect(try Codec.decode(bytes, key: key) == empty)
    }

    @Test("the layout is magic, version, key, rate, counts, marks, PCM, digest, little-endian")
    func layout() throws {
        // Given
        let audio = SpeechAudio(sampleRate: 22_050, samples: [1, -2], wordMarks: [WordMark(textOffset: 3, textLength: 4, sampleOffset: 1)])

        // When
        let bytes = try Codec.encode(audio, key: key)

        // Then
        #expect(bytes.count == 56 + 16 + 4 + Codec.digestSize)
        #expect(Array(bytes[0..<4]) == Array("NRTC".utf8))
        #expect(Array(bytes[4..<8]) == [2, 0, 0, 0])
        #expect(Array(bytes[8..<40]) == key.bytes)
        #expect(Array(bytes[40..<44]) == [0x22, 0x56, 0, 0])
        #expect(Array(bytes[44..<52]) == [2, 0, 0, 0, 0, 0, 0, 0])
        #expect(Array(bytes[52..<56]) == [1, 0, 0, 0])
        #expect(Array(bytes[56..<72]) == [3, 0, 0, 0, 4, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0])
        #expect(Array(bytes[72..<76]) == [1, 0, 0xfe, 0xff])
    }

    @Test("a wrong magic is rejected")
    func badMagic() throws {
        var bytes = try Codec.encode(audio, key: key)
        bytes[0] = UInt8(ascii: "X")
        #expect(throws: AudioCacheEntryError.badMagic) { try Codec.decode(bytes, key: key) }
    }

    @Test("an unknown format version is rejected")
    func unknownVersion() throws {
        var bytes = try Codec.encode(audio, key: key)
        bytes[4] = 9
        #expect(throws: AudioCacheEntryError.unsupportedVersion(9)) { try Codec.decode(bytes, key: key) }
    }

    @Test("an entry stored under another key is rejected")
    func otherKey() throws {
        let bytes = try Codec.encode(audio, key: key)
        #expect(throws: AudioCacheEntryError.keyMismatch) { try Codec.decode(bytes, key: Fixtures.key("other")) }
    }

    @Test("a truncated or extended entry is rejected by its length")
    func wrongLength() throws {
        let bytes = try Codec.encode(audio, key: key)
        #expect(throws: AudioCacheEntryError.lengthMismatch(expected: bytes.count, actual: bytes.count - 1)) {
            try Codec.decode(Array(bytes.dropLast()), key: key)
        }
        #expect(throws: AudioCacheEntryError.lengthMismatch(expected: bytes.count, actual: bytes.count + 1)) {
            try Codec.decode(bytes + [0], key: key)
        }
        #expect(throws: AudioCacheEntryError.self) { try Codec.decode(Array(bytes.prefix(20)), key: key) }
    }

    @Test("a sample count too large for the file is rejected without overflow")
    func hugeSampleCount() throws {
        var bytes = try Codec.encode(audio, key: key)
        for offset in 44..<52 { bytes[offset] = 0xff }
        let error = #expect(throws: AudioCacheEntryError.countsPastFile(samples: UInt64.max, marks: UInt32(audio.wordMarks.count), fileSize: bytes.count)) {
            try Codec.decode(bytes, key: key)
        }
        // The log line says what is wrong, with no sentinel number standing for "unknown".
        #expect(error?.reason.contains("truncated entry: its header counts") == true)
        #expect(error?.reason.contains(String(Int.max)) == false)
        #expect(AudioCacheEntryError.checksumMismatch.reason == "CRC-32C checksum mismatch")
    }

    @Test("a flipped byte in the marks, the PCM or the digest is rejected by the checksum")
    func flippedBytes() throws {
        let bytes = try Codec.encode(audio, key: key)
        for offset in [60, Codec.fixedHeaderSize + audio.wordMarks.count * Codec.markSize + 7, bytes.count - 1] {
            var corrupt = bytes
            corrupt[offset] ^= 0x80
            #expect(throws: AudioCacheEntryError.checksumMismatch) { try Codec.decode(corrupt, key: key) }
        }
    }

    @Test("values that do not fit the format are refused when encoding")
    func unencodable() {
        let negative = SpeechAudio(sampleRate: 22_050, samples: [], wordMarks: [WordMark(textOffset: -1, textLength: 0, sampleOffset: 0)])
        let hugeRate = SpeechAudio(sampleRate: Int(UInt32.max) + 1, samples: [])
        #expect(throws: AudioCacheEntryError.self) { try Codec.encodePrefix(negative, key: key) }
        #expect(throws: AudioCacheEntryError.self) { try Codec.encodePrefix(hugeRate, key: key) }
    }

    // MARK: - Forged entries: a valid checksum, fields that disagree with the content

    @Test("a forged entry whose word mark lies past its samples is refused as inconsistent, not trusted")
    func markPastSamples() throws {
        // Given: a well-formed entry (its checksum is right) with a mark far past its 2 samples
        let forged = SpeechAudio(sampleRate: 22_050, samples: [1, 2], wordMarks: [WordMark(textOffset: 0, textLength: 3, sampleOffset: Int(Int64.max - 5))])
        let bytes = try Codec.encode(forged, key: key)

        // When / Then
        let error = #expect(throws: AudioCacheEntryError.self) { try Codec.decode(bytes, key: key) }
        guard case .inconsistent? = error else { Issue.record("expected inconsistent, got \(String(describing: error))"); return }
        #expect(error?.reason.hasPrefix("inconsistent entry: word mark 0") == true)
    }

    @Test("a forged entry whose mark reaches past any chunk's text is refused")
    func markPastText() throws {
        // Given
        let forged = SpeechAudio(sampleRate: 22_050, samples: [1, 2], wordMarks: [WordMark(textOffset: Int(UInt32.max), textLength: Int(UInt32.max), sampleOffset: 1)])
        let bytes = try Codec.encode(forged, key: key)

        // When / Then
        #expect(throws: AudioCacheEntryError.inconsistent("word mark 0 reaches text offset 8589934590")) { try Codec.decode(bytes, key: key) }
    }

    @Test("a forged entry with a sample rate no engine writes (0 with samples, 4 GHz) is refused")
    func forgedSampleRates() throws {
        for rate in [0, 3, Int(UInt32.max)] {
            // Given
            let bytes = try Codec.encode(SpeechAudio(sampleRate: rate, samples: [1, 2, 3]), key: key)

            // When / Then
            #expect(throws: AudioCacheEntryError.inconsistent("a sample rate of \(rate) Hz")) { try Codec.decode(bytes, key: key) }
        }
    }

    @Test("a mark at the very end of the samples, and an empty entry without a rate, are still taken")
    func boundaries() throws {
        let end = SpeechAudio(sampleRate: 22_050, samples: [1, 2], wordMarks: [WordMark(textOffset: 0, textLength: 1, sampleOffset: 2)])
        let empty = SpeechAudio(sampleRate: 0, samples: [])
        #expect(try Codec.decode(Codec.encode(end, key: key), key: key) == end)
        #expect(try Codec.decode(Codec.encode(empty, key: key), key: key) == empty)
    }

    @Test("the fuzz target's decoder takes a valid entry, and refuses a forged one without its checksum being asked")
    func fuzzDecoder() throws {
        let valid = try Codec.encode(audio, key: key)
        var forged = try Codec.encode(SpeechAudio(sampleRate: 22_050, samples: [1], wordMarks: [WordMark(textOffset: 0, textLength: 1, sampleOffset: 9)]), key: key)
        forged[forged.count - 1] ^= 0xFF
        #expect(AudioCacheEntryFuzzing.decode(valid) == .entry(samples: audio.samples.count, marks: audio.wordMarks.count))
        #expect(AudioCacheEntryFuzzing.decode(forged) == .refused("inconsistent entry: word mark 0 at sample 9 of 1"))
        #expect(AudioCacheEntryFuzzing.decode([1, 2, 3]) == .refused("too short for a key"))
    }
}
