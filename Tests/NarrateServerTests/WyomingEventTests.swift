import NIOCore
import Testing
@testable import NarrateServer

@Suite("WyomingEvent")
struct WyomingEventTests {
    @Test("Given an event with data and payload, when encoded and parsed, then the same comes back")
    func roundTrip() throws {
        let event = WyomingEvent(type: "audio-chunk", data: ["rate": 22_050, "width": 2, "channels": 1], payload: [1, 2, 3, 4])
        var buffer = event.encoded()
        let parsed = try #require(try WyomingEvent.parse(&buffer))
        #expect(parsed.type == "audio-chunk")
        #expect(parsed.payload == [1, 2, 3, 4])
        #expect((parsed.data["rate"] as? SendableJSON)?.value as? Int == 22_050)
        #expect(buffer.readableBytes == 0)
    }

    @Test("Given an event cut in the middle, when parsed, then nothing is taken until the rest arrives")
    func partial() throws {
        let whole = WyomingEvent(type: "synthesize", data: ["text": "Hello."]).encoded()
        var buffer = ByteBuffer(bytes: whole.readableBytesView.prefix(whole.readableBytes - 3))
        #expect(try WyomingEvent.parse(&buffer) == nil)
        buffer.writeBytes(whole.readableBytesView.suffix(3))
        let parsed = try #require(try WyomingEvent.parse(&buffer))
        #expect(parsed.string("text") == "Hello.")
    }

    @Test("Given data inline in the header (older clients), when parsed, then it is read")
    func inlineData() throws {
        var buffer = ByteBuffer(string: #"{"type":"synthesize","data":{"text":"Inline."}}"# + "\n")
        #expect(try WyomingEvent.parse(&buffer)?.string("text") == "Inline.")
    }

    @Test("Given hostile headers, when parsed, then they are refused", arguments: [
        #"{"type":"x","payload_length":999999999}"# + "\n", #"{"type":"x","data_length":-1}"# + "\n", "not json\n", #"{"data":{}}"# + "\n",
    ])
    func hostile(line: String) {
        var buffer = ByteBuffer(string: line)
        #expect(throws: (any Error).self) { try WyomingEvent.parse(&buffer) }
    }

    @Test("Given a header line without end longer than the bound, when parsed, then it is refused")
    func endlessHeader() {
        var buffer = ByteBuffer(string: String(repeating: "x", count: WyomingEvent.maxHeaderBytes + 1))
        #expect(throws: (any Error).self) { try WyomingEvent.parse(&buffer) }
    }

    @Test("Given random bytes and mangled events, when parsed, then each ends in an event, a wait or an error, and nothing is read past the buffer")
    func randomInput() throws {
        var generator = SystemRandomNumberGenerator()
        let valid = Array(WyomingEvent(type: "audio-chunk", data: ["rate": 22_050], payload: [1, 2, 3]).encoded().readableBytesView)
        for round in 0..<3_000 {
            var bytes: [UInt8]
            if round.isMultiple(of: 2) {
                bytes = (0..<Int.random(in: 0...300, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
                if Bool.random(using: &generator) { bytes.insert(UInt8(ascii: "\n"), at: Int.random(in: 0...bytes.count, using: &generator)) }
            } else {
                // A real event with some bytes flipped or cut.
                bytes = valid
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
                }
                bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &generator)))
            }
            var buffer = ByteBuffer(bytes: bytes)
            let before = buffer.readableBytes
            do {
                if try WyomingEvent.parse(&buffer) != nil {
                    #expect(buffer.readableBytes < before, "an event was read from nothing")
                } else {
                    #expect(buffer.readableBytes == before, "waiting for more, yet bytes were taken")
                }
            } catch {
                // A refused event: the connection ends with it.
            }
        }
    }

    @Test("Given streamed text, when the last complete sentence is looked for, then the cut is after its punctuation")
    func sentenceCut() {
        let text = "One sentence. And a half"
        let cut = WyomingServer.lastSentenceEnd(in: text)
        #expect(cut.map { String(text[..<$0]) } == "One sentence.")
        #expect(WyomingServer.lastSentenceEnd(in: "No end yet") == nil)
    }
}
