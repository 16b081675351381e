import Crypto
import NarrateDomain

/// The content address of a cache entry: SHA-256 over a canonical, versioned description of
/// everything that changes the samples.
public struct AudioCacheKey: Sendable, Hashable, CustomStringConvertible {
    /// Bumped whenever the description or the entry format changes meaning.
    public static let schemaVersion = 1

    /// The 32 digest bytes.
    public let bytes: [UInt8]

    public init(bytes: [UInt8]) {
        precondition(bytes.count == 32, "a cache key is a SHA-256 digest")
        self.bytes = bytes
    }

    /// The key whose lowercase hex is `hex` (64 characters); `nil` for anything else.
    public init?(hex: String) {
        guard let bytes = Hex.decode(hex, byteCount: 32) else { return nil }
        self.init(bytes: bytes)
    }

    /// The key of `request` as synthesized by `engine`, with the lexicons in force for its voice
    /// (`SpeechRequest.lexiconDigest`): editing a lexicon changes the key.
    public init(request: SpeechRequest, engine: EngineDescriptor) {
        self.init(bytes: Array(SHA256.hash(data: Array(Self.canonicalDescription(request: request, engine: engine).utf8))))
    }

    /// Lowercase hex, 64 characters.
    public var hex: String { Hex.encode(bytes) }

    public var description: String { hex }

    /// One `name=value` line per input; the text last, preceded by its length so no text can
    /// impersonate another field.
    static func canonicalDescription(request: SpeechRequest, engine: EngineDescriptor) -> String {
        // The use cases hand over normalized (NFC, whitespace-folded) text.
        let text = request.text
        return """
            narrate-audio-cache-key
            schema=\(schemaVersion)
            engine=\(engine.id)
            engine-version=\(engine.version)
            sample-rate=\(engine.sampleRate)
            voice=\(request.voice.voice)
            rate=\(request.voice.rate)
            pitch=\(request.voice.pitch)
            volume=\(request.voice.volume)
            word-gap=\(request.voice.wordGap)
            ssml=\(request.isSSML ? 1 : 0)
            lexicon=\(request.lexiconDigest)
            text-scalars=\(text.unicodeScalars.count)
            \(text)
            """
    }
}
