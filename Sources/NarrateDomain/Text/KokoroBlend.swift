/// A Kokoro voice as a user names it: one voice (`af_heart`), or a blend of style packs by
/// weight, in Narrate's form (`af_heart:0.6+bf_emma:0.4`) or Kokoro-FastAPI's
/// (`af_heart(3)+bf_emma(2)`). The weights are normalized to sum to 1; a part named without a
/// weight weighs 1.
public struct KokoroBlend: Sendable, Hashable {
    public struct Part: Sendable, Hashable {
        public var name: String
        public var weight: Double

        public init(name: String, weight: Double) {
            self.name = name
            self.weight = weight
        }
    }

    /// The parts, in the order named, with normalized weights.
    public let parts: [Part]

    /// The most voices one blend mixes.
    public static let maxParts = 8

    /// Parts as given; weights are normalized here.
    public init(parts: [Part]) {
        let total = parts.reduce(0) { $0 + $1.weight }
        self.parts = parts.map { Part(name: $0.name, weight: total > 0 ? $0.weight / total : $0.weight) }
    }

    /// Whether the name is a blend (more than one part) rather than one voice.
    public var isBlend: Bool { parts.count > 1 }

    /// `af_heart`, or `af_heart:0.6+bf_emma:0.4` with each share to at most 4 decimals.
    public var canonicalName: String {
        guard isBlend else { return parts.first?.name ?? "" }
        return parts.map { "\($0.name):\(Self.share($0.weight))" }.joined(separator: "+")
    }

    /// Reads a name. `nil` when it is not a Kokoro voice's shape at all (no part looks like
    /// `xx_name`), so that other engines may have it.
    /// - Throws: `KokoroBlend.Problem` for a blend whose weights or parts are wrong.
    public static func parse(_ text: String) throws(Problem) -> KokoroBlend? {
        let pieces = text.split(separator: "+", omittingEmptySubsequences: false).map { $0.trimmingSpaces }
        let split = pieces.map(Self.split)
        // Not one part looks like a Kokoro voice (`en+f3` is eSpeak's voice with a variant).
        guard split.contains(where: { isVoiceName($0.name) }) else { return nil }
        guard pieces.count <= maxParts else { throw Problem(name: text, reason: "a blend mixes at most \(maxParts) voices") }
        var parts: [Part] = []
        var seen: Set<String> = []
        for (name, weightText) in split {
            guard isVoiceName(name) else {
                throw Problem(name: text, reason: "'\(name)' is not a Kokoro voice name (a language letter, a gender letter, '_', a name: af_heart)")
            }
            guard seen.insert(name.lowercased()).inserted else { throw Problem(name: text, reason: "it names \(name) twice; give it one weight") }
            guard let weightText else {
                parts.append(Part(name: name, weight: 1))
                continue
            }
            guard let weight = Double(weightText), weight.isFinite, weight > 0, weight <= 1000 else {
                throw Problem(name: text, reason: "the weight '\(weightText)' of \(name) is not a number above 0 and at most 1000")
            }
            parts.append(Part(name: name, weight: weight))
        }
        return KokoroBlend(parts: parts)
    }

    /// Why a blend cannot be used.
    public struct Problem: Error, Sendable, Equatable {
        public let name: String
        public let reason: String
    }

    /// A part's name and weight: `name`, `name:w` or `name(w)`.
    private static func split(_ piece: String) -> (name: String, weight: String?) {
        if piece.hasSuffix(")"), let open = piece.firstIndex(of: "(") {
            return (String(piece[..<open]).trimmingSpaces, String(piece[piece.index(after: open)..<piece.index(before: piece.endIndex)]).trimmingSpaces)
        }
        if let colon = piece.lastIndex(of: ":") {
            return (String(piece[..<colon]).trimmingSpaces, String(piece[piece.index(after: colon)...]).trimmingSpaces)
        }
        return (piece, nil)
    }

    /// `af_heart`: a language letter, a gender letter, `_`, then lowercase letters, digits, `_`
    /// or `-` (Kokoro's names are lowercase; Piper's `en_US-joe-medium` is not one).
    public static func isVoiceName(_ name: String) -> Bool {
        let scalars = Array(name.unicodeScalars)
        guard scalars.count >= 4, scalars.count <= 64, scalars[2] == "_", ("a"..."z").contains(scalars[0]), ("a"..."z").contains(scalars[1]) else { return false }
        return scalars[3...].allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "-" }
    }

    private static func share(_ weight: Double) -> String {
        var text = String(Double((weight * 10_000).rounded()) / 10_000)
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }
}

extension StringProtocol {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
