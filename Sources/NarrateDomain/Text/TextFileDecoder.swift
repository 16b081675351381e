/// Turns the bytes of a plain-text file into a `String`, guessing the encoding the way a reader of
/// old e-texts needs: Unicode when it is marked or valid, else Windows-1252.
public enum TextFileDecoder {
    /// Decodes `bytes` as text.
    ///
    /// UTF-8 with or without BOM, UTF-16 LE/BE with BOM; otherwise (bytes not valid UTF-8) Windows-1252.
    /// In Windows-1252, 0x80–0x9F map per cp1252 and the five undefined bytes (0x81, 0x8D, 0x8F, 0x90, 0x9D)
    /// to their Latin-1 value, as the WHATWG Encoding Standard does, so Latin-1 files decode correctly too.
    /// The byte order mark is not part of the result.
    public static func decode(_ bytes: some Collection<UInt8>) -> String {
        let bytes = Array(bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            return String(decoding: bytes[3...], as: UTF8.self)
        }
        if bytes.starts(with: [0xFF, 0xFE]) {
            return decodeUTF16(bytes[2...], bigEndian: false)
        }
        if bytes.starts(with: [0xFE, 0xFF]) {
            return decodeUTF16(bytes[2...], bigEndian: true)
        }
        if let text = String(validating: bytes, as: UTF8.self) {
            return text
        }
        return decodeWindows1252(bytes)
    }

    private static func decodeUTF16(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) -> String {
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2 + 1)
        var index = bytes.startIndex
        while index + 1 < bytes.endIndex {
            let first = UInt16(bytes[index])
            let second = UInt16(bytes[index + 1])
            units.append(bigEndian ? first << 8 | second : second << 8 | first)
            index += 2
        }
        var text = String(decoding: units, as: UTF16.self)
        if index < bytes.endIndex {
            // A dangling odd byte cannot be a character: mark it rather than drop it silently.
            text.unicodeScalars.append("\u{FFFD}")
        }
        return text
    }

    /// The Unicode values of bytes 0x80–0x9F in Windows-1252; undefined bytes keep their Latin-1 value.
    private static let windows1252High: [UInt32] = [
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
        0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
        0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
        0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
    ]

    private static func decodeWindows1252(_ bytes: [UInt8]) -> String {
        var utf8: [UInt8] = []
        utf8.reserveCapacity(bytes.count + bytes.count / 8)
        for byte in bytes {
            if byte < 0x80 {
                utf8.append(byte)
                continue
            }
            let value = byte <= 0x9F ? windows1252High[Int(byte - 0x80)] : UInt32(byte)
            // Every value in the table is a valid scalar; the fallback only keeps the compiler honest.
            let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
            utf8.append(contentsOf: scalar.utf8)
        }
        return String(decoding: utf8, as: UTF8.self)
    }
}
