extension EPUBPath {
    /// The href from a file in folder `base` to archive entry `target` (which may end in a
    /// `#fragment`), percent-encoded: `../Text/ch%201.xhtml#p4`.
    static func relativeHref(from base: String, to target: String) -> String {
        let (path, fragment) = split(target)
        let from = base.split(separator: "/").map(String.init)
        let to = path.split(separator: "/").map(String.init)
        var common = 0
        while common < from.count, common < to.count - 1, from[common] == to[common] { common += 1 }
        let components = Array(repeating: "..", count: from.count - common) + to[common...].map(encoded)
        return components.joined(separator: "/") + (fragment.map { "#" + encoded($0) } ?? "")
    }

    /// A path component with what an IRI path may not hold percent-encoded.
    static func encoded(_ component: String) -> String {
        var output = ""
        for byte in component.utf8 {
            let scalar = Unicode.Scalar(byte)
            if byte < 0x80, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-._~!$&'()*+,;=:@".unicodeScalars.contains(scalar) {
                output.unicodeScalars.append(scalar)
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                output += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return output
    }
}
