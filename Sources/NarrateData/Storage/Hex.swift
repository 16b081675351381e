/// Lowercase hexadecimal, the one encoding of digests and keys in names and manifests.
enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    /// Two lowercase hex digits per byte.
    static func encode<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
        var out = [UInt8]()
        out.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes `text` stands for when it is exactly `byteCount` bytes of lowercase hex, else `nil`.
    static func decode(_ text: String, byteCount: Int) -> [UInt8]? {
        let characters = Array(text.utf8)
        guard characters.count == byteCount * 2 else { return nil }
        func value(_ digit: UInt8) -> UInt8? {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
            default: nil
            }
        }
        var bytes = [UInt8]()
        bytes.reserveCapacity(byteCount)
        for index in stride(from: 0, to: characters.count, by: 2) {
            guard let high = value(characters[index]), let low = value(characters[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }
}
