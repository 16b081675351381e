/// Close names for a misspelt one (edit distance), for "did you mean" messages.
public enum NameSuggester {
    /// Up to `limit` candidates within a small edit distance of `name`, closest first;
    /// candidates that start with `name` count as close.
    public static func suggestions(for name: String, among candidates: [String], limit: Int = 3) -> [String] {
        let target = Array(name.lowercased().unicodeScalars)
        // One edit for names of one or two letters (else every short voice is "close").
        let threshold = target.count <= 2 ? 1 : max(2, target.count / 3)
        var scored: [(String, Int)] = []
        var seen: Set<String> = []
        for candidate in candidates where seen.insert(candidate.lowercased()).inserted {
            let lowered = candidate.lowercased()
            let distance = lowered.hasPrefix(name.lowercased()) && !name.isEmpty ? 1 : editDistance(target, Array(lowered.unicodeScalars))
            if distance <= threshold { scored.append((candidate, distance)) }
        }
        return scored.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.prefix(limit).map(\.0)
    }

    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
