/// Where a voice to install comes from: a name looked up in a Piper voices repository, or the
/// URL of its model (its configuration is `<URL>.json`).
public enum VoiceInstallSource: Sendable, Equatable {
    case name(String)
    case url(model: String, config: String, name: String)

    /// Reads `NAME|URL`.
    /// - Throws: `VoiceInstallError.invalidSource` for anything else, or a name that could not
    ///   be a file name.
    public static func parse(_ text: String) throws(VoiceInstallError) -> VoiceInstallSource {
        let lowered = text.lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else {
            guard isFileName(text) else { throw .invalidSource(text) }
            return .name(text.hasSuffix(".onnx") ? String(text.dropLast(5)) : text)
        }
        // The query and fragment, if any, stay after the path (`….onnx?download=true`).
        let pathEnd = text.firstIndex { $0 == "?" || $0 == "#" } ?? text.endIndex
        let path = text[..<pathEnd]
        let file = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? ""
        guard path.split(separator: "/").count >= 3, file.hasSuffix(".onnx"), file.count > 5, isFileName(file) else {
            throw .invalidSource(text)
        }
        return .url(model: text, config: String(path) + ".json" + String(text[pathEnd...]), name: String(file.dropLast(5)))
    }

    /// The model's path in a repository laid out as Piper's is:
    /// `<family>/<lang_code>/<dataset>/<quality>/<name>.onnx` for `<lang_code>-<dataset>-<quality>`,
    /// the family being `lang_code` up to its `_`. `nil` for a name of another shape.
    public static func layoutPath(of name: String) -> String? {
        let parts = name.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty }) else { return nil }
        let language = parts[0]
        let family = language.split(separator: "_").first ?? language
        return "\(family)/\(language)/\(parts[1])/\(parts[2])/\(name).onnx"
    }

    /// Letters, digits, `_`, `-` and `.`, not starting with a dot: safe as a file name.
    static func isFileName(_ text: String) -> Bool {
        guard !text.isEmpty, !text.hasPrefix("."), text.count <= 200 else { return false }
        return text.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "_-.".unicodeScalars.contains(scalar))
        }
    }
}
