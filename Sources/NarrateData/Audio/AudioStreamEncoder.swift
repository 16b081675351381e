import NarrateDomain

/// Encodes 16-bit mono PCM into a byte stream as it arrives, for a response that starts before
/// the whole text is synthesized. `feed` hands over samples; the encoded bytes come out of
/// `output` (in-process encoders yield at once, ffmpeg as it produces them); `finish` ends the
/// stream, and `output` ends after the last bytes.
public protocol AudioStreamEncoder: Sendable {
    /// The encoded bytes, in order; it throws when the encoder fails.
    var output: AsyncThrowingStream<[UInt8], any Error> { get }
    /// Encodes `samples` (at the rate the encoder was made for).
    /// - Throws: `ExportError.encoderFailed` when the encoder has stopped.
    func feed(_ samples: [Int16]) throws(ExportError)
    /// Ends the input: the encoder writes what it holds and `output` finishes.
    func finish() throws(ExportError)
    /// Stops at once (the client went away, or synthesis failed).
    func cancel()
}

/// The encoded formats a speech response can have.
public enum StreamFormat: String, Sendable, CaseIterable, Codable {
    case mp3, opus, aac, flac, wav, pcm

    /// The MIME type OpenAI's API answers with.
    public var contentType: String {
        switch self {
        case .mp3: "audio/mpeg"
        case .opus: "audio/ogg"
        case .aac: "audio/aac"
        case .flac: "audio/flac"
        case .wav: "audio/wav"
        case .pcm: "audio/pcm"
        }
    }

    /// The sample rate `pcm` is delivered at, as OpenAI documents it.
    public static let pcmSampleRate = 24_000
}
