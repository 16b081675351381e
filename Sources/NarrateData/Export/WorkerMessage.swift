import NarrateDomain

/// One line from the export's parent to a `narrate worker` process: synthesize this text into
/// the shared audio cache.
public struct WorkerRequest: Codable, Sendable {
    public var id: Int
    public var text: String
    public var voice: VoiceProfile
    public var isSSML: Bool

    public init(id: Int, text: String, voice: VoiceProfile, isSSML: Bool = false) {
        self.id = id
        self.text = text
        self.voice = voice
        self.isSSML = isSSML
    }
}

/// A worker's answer: the audio is in the cache (with its length), or what went wrong.
public struct WorkerResponse: Codable, Sendable {
    public var id: Int
    public var seconds: Double?
    public var error: String?

    public init(id: Int, seconds: Double? = nil, error: String? = nil) {
        self.id = id
        self.seconds = seconds
        self.error = error
    }
}
