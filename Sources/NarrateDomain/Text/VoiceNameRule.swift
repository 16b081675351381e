/// The one rule for voice names that must come from the catalog (`VoiceNaming.catalog`): a name
/// that could be read as a file is refused as unknown before anything looks it up, and what a
/// message or log line shows of a refused name is bounded and never a path.
public enum VoiceNameRule {
    /// The longest name the catalog holds or a blend of its names needs, in UTF-8 bytes (eSpeak's
    /// own bound on a voice name is 256).
    public static let maxBytes = 256
    /// The most characters of a refused name a message shows.
    public static let shownCharacters = 64
    /// Endings of model, configuration and style-pack files, compared without regard to case.
    public static let fileSuffixes = [".onnx", ".ort", ".json", ".bin", ".npz", ".npy", ".pt", ".pth", ".ckpt", ".safetensors", ".pb", ".tflite"]

    /// Whether `name` may reach the catalog when only catalog names are allowed: `false` for a
    /// path (any `/` or `\`), a file name (a model suffix), a control or NUL character, a name
    /// longer than `maxBytes`, and `.` or `..` (an empty name is admitted: the catalog
    /// answers it as unknown).
    public static func admits(_ name: String) -> Bool {
        guard name.utf8.count <= maxBytes, name != ".", name != ".." else { return false }
        if name.contains("/") || name.contains("\\") || name.containsControlCharacters { return false }
        let lowered = name.lowercased()
        return !fileSuffixes.contains { lowered.hasSuffix($0) }
    }

    /// What a message names a refused voice by: its last path component (a server's folders never
    /// show), control characters escaped, at most `shownCharacters` characters.
    public static func shown(_ name: String) -> String {
        lastComponent(of: name).escapedExcerpt(limit: shownCharacters)
    }

    /// The catalog name a file-like `name` may have meant: its last path component without a
    /// model suffix (`/x/en_US-joe-medium.onnx` → `en_US-joe-medium`); `nil` when even that is
    /// not a name the catalog could hold.
    public static func stem(_ name: String) -> String? {
        guard name.utf8.count <= maxBytes, !name.containsControlCharacters else { return nil }
        var last = lastComponent(of: name)
        while let suffix = fileSuffixes.first(where: { last.lowercased().hasSuffix($0) }) {
            last = String(last.dropLast(suffix.count))
        }
        return admits(last) && !last.isEmpty ? last : nil
    }

    /// What follows the last `/` or `\` (all of `name` when it has neither).
    private static func lastComponent(of name: String) -> String {
        name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
    }
}
