/// Text and attribute values made safe for XML.
public enum XMLText {
    /// `text` with `&`, `<`, `>` and `"` escaped, and characters XML 1.0 forbids left out.
    public static func escaped(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "\t", "\n", "\r": output.unicodeScalars.append(scalar)
            default:
                let value = scalar.value
                guard value >= 0x20, value != 0xFFFE, value != 0xFFFF else { continue }
                output.unicodeScalars.append(scalar)
            }
        }
        return output
    }
}
