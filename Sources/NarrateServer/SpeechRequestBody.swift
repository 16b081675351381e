/// OpenAI's `POST /v1/audio/speech` body.
struct SpeechRequestBody: Decodable, Sendable {
    var model: String
    var input: String
    var voice: String
    var responseFormat: String?
    var speed: Double?
    var streamFormat: String?
    /// gpt-4o-mini-tts' speaking instructions: accepted, and eSpeak cannot follow them.
    var instructions: String?

    enum CodingKeys: String, CodingKey {
        case model, input, voice, speed, instructions
        case responseFormat = "response_format"
        case streamFormat = "stream_format"
    }

    /// A custom voice is `{"id": "..."}` in OpenAI's API; a name works the same here.
    private struct VoiceObject: Decodable { var id: String }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        model = try container.decode(String.self, forKey: .model)
        input = try container.decode(String.self, forKey: .input)
        if let name = try? container.decode(String.self, forKey: .voice) {
            voice = name
        } else {
            voice = try container.decode(VoiceObject.self, forKey: .voice).id
        }
        responseFormat = try container.decodeIfPresent(String.self, forKey: .responseFormat)
        speed = try container.decodeIfPresent(Double.self, forKey: .speed)
        streamFormat = try container.decodeIfPresent(String.self, forKey: .streamFormat)
        instructions = try container.decodeIfPresent(String.self, forKey: .instructions)
    }
}
