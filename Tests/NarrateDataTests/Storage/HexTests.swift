import Testing

@testable import NarrateData

/// The one hex encoding of keys and digests.
@Suite("Hex")
struct HexTests {
    @Test("Bytes are encoded as two lowercase digits each, and decoded back")
    func roundTrip() {
        // Given
        let bytes: [UInt8] = [0x00, 0x0f, 0xa0, 0xff, 0x12]

        // When
        let text = Hex.encode(bytes)

        // Then
        #expect(text == "000fa0ff12")
        #expect(Hex.decode(text, byteCount: 5) == bytes)
    }

    @Test("Decoding refuses the wrong length, upper case and non-hex characters", arguments: ["000fa0ff", "000FA0FF12", "000fa0ffzz", "000fa0ff123"])
    func decodeRefuses(text: String) {
        // When / Then
        #expect(Hex.decode(text, byteCount: 5) == nil)
    }
}
