import NarrateDomain

/// The entry decoder as a store object reaches it, for the fuzzer (`narrate-fuzz-entry`):
/// the key is taken from the bytes and the checksum is not asked for, so that mutated inputs
/// reach every field the decoder checks (a forger can always make the checksum right).
@_spi(Fuzzing)
public enum AudioCacheEntryFuzzing {
    /// What came of one input.
    public enum Outcome: Sendable, Equatable {
        case entry(samples: Int, marks: Int)
        case refused(String)
    }

    /// Decodes `bytes` as an entry: the audio's sample and mark counts, or why it was refused.
    public static func decode(_ bytes: [UInt8]) -> Outcome {
        guard bytes.count >= 40 else { return .refused("too short for a key") }
        let key = AudioCacheKey(bytes: Array(bytes[8..<40]))
        let result: Result<SpeechAudio, AudioCacheEntryError> = bytes.withUnsafeBytes { raw in
            do throws(AudioCacheEntryError) {
                let header = try AudioCacheEntryCodec.decodeHeader(raw, expectedKey: key, fileSize: raw.count)
                return .success(try AudioCacheEntryCodec.audio(raw, header: header))
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case let .success(audio):
            // What a reader does next with a stored chunk: shift its marks into a page.
            _ = audio.wordMarks.map { $0.shifted(text: 1 << 20, samples: audio.samples.count) }
            return .entry(samples: audio.samples.count, marks: audio.wordMarks.count)
        case let .failure(error):
            return .refused(error.reason)
        }
    }
}
