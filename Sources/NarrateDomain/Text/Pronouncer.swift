/// Applies the pronunciation lexicons in force to text for one voice.
///
/// Built once per voice: every entry of every lexicon for the voice's language is converted to
/// eSpeak's phoneme mnemonics up front (an entry that cannot be converted becomes a warning,
/// and its word is read as written). The first lexicon that has a written form wins, so the
/// caller orders them: the user's own before the book's. Written forms match whole words, with
/// their case as written (as PLS says: a lexeme lists each form it covers).
public struct Pronouncer: Sendable {
    private struct Rule: Sendable {
        var grapheme: [Unicode.Scalar]
        var span: [Unicode.Scalar]
    }

    /// Rules by first scalar, longest written form first.
    private let rules: [Unicode.Scalar: [Rule]]
    /// Entries that are not applied, and why.
    public let warnings: [PronunciationWarning]
    /// The content digests of the lexicons for this voice, in order; `nil` when there are none,
    /// and then text goes to eSpeak as it is, phoneme input off.
    public let digest: String?

    /// - Parameters:
    ///   - lexicons: the lexicons in force, the one to win first.
    ///   - voice: the eSpeak voice name; only lexicons for its language apply.
    public init(lexicons: [PronunciationLexicon], voice: String) {
        let language = PronunciationLexicon.primaryLanguage(ofVoice: voice)
        var rules: [Unicode.Scalar: [Rule]] = [:]
        var seen: Set<[Unicode.Scalar]> = []
        var warnings: [PronunciationWarning] = []
        var digests: [String] = []
        for lexicon in lexicons.prefix(PronunciationLexicon.maxLexicons) where lexicon.applies(to: voice) {
            digests.append(lexicon.digest)
            if let problem = lexicon.problem {
                warnings.append(.init(lexicon: lexicon.name, grapheme: "", reason: problem))
            }
            for entry in lexicon.entries.prefix(PronunciationLexicon.maxEntries) {
                let graphemes = entry.graphemes.map { Array(TextNormalizer.normalize($0).unicodeScalars) }
                    .filter { !$0.isEmpty && $0.count <= PronunciationLexicon.maxEntryScalars && !seen.contains($0) }
                guard let first = graphemes.first else { continue }
                let name = String(String.UnicodeScalarView(first))
                guard entry.phonemes.unicodeScalars.count <= PronunciationLexicon.maxEntryScalars else {
                    warnings.append(.init(lexicon: lexicon.name, grapheme: name, reason: "a pronunciation longer than \(PronunciationLexicon.maxEntryScalars) characters"))
                    continue
                }
                switch PhonemeConverter.espeak(entry.phonemes, alphabet: entry.alphabet, language: language) {
                case let .success(mnemonics):
                    let span = Array("[[\(mnemonics)]]".unicodeScalars)
                    for grapheme in graphemes {
                        seen.insert(grapheme)
                        rules[grapheme[0], default: []].append(Rule(grapheme: grapheme, span: span))
                    }
                case let .failure(error):
                    let reason = error.symbol.hasPrefix("alphabet ")
                        ? "the \(error.symbol.dropFirst(9)) alphabet is not supported; use ipa or x-sampa"
                        : "the symbol \u{201C}\(error.symbol)\u{201D} has no eSpeak equivalent"
                    warnings.append(.init(lexicon: lexicon.name, grapheme: name, reason: reason))
                }
            }
        }
        self.rules = rules.mapValues { $0.sorted { $0.grapheme.count > $1.grapheme.count } }
        self.warnings = warnings
        self.digest = digests.isEmpty ? nil : digests.joined(separator: ",")
    }

    /// Whether a text goes to eSpeak with phoneme input on.
    public var usesPhonemes: Bool { digest != nil }

    /// `text` with every matching word replaced by its `[[…]]` span, and each `[[` of the
    /// text itself written `[ [` so that eSpeak never reads it as phonemes. Without lexicons
    /// for this voice, the text unchanged.
    public func apply(_ text: String) -> PronouncedText {
        guard usesPhonemes else { return PronouncedText(text: text, pronouncedCount: 0, replacements: []) }
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var outCount = 0
        var replacements: [PronouncedText.Replacement] = []
        var pronounced = 0
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if index == 0 || !Self.isWordScalar(scalars[index - 1]), let rule = match(at: index, in: scalars) {
                out.append(contentsOf: rule.span)
                replacements.append(.init(originalStart: index, originalLength: rule.grapheme.count, start: outCount, length: rule.span.count))
                outCount += rule.span.count
                index += rule.grapheme.count
                pronounced += 1
                continue
            }
            if scalar == "[", index + 1 < scalars.count, scalars[index + 1] == "[" {
                out.append(contentsOf: ["[", " "])
                replacements.append(.init(originalStart: index, originalLength: 1, start: outCount, length: 2))
                outCount += 2
                index += 1
                continue
            }
            out.append(scalar)
            outCount += 1
            index += 1
        }
        return PronouncedText(text: String(out), pronouncedCount: pronounced, replacements: replacements)
    }

    private func match(at index: Int, in scalars: [Unicode.Scalar]) -> Rule? {
        guard let candidates = rules[scalars[index]] else { return nil }
        for rule in candidates {
            let end = index + rule.grapheme.count
            guard end <= scalars.count, scalars[index..<end].elementsEqual(rule.grapheme) else { continue }
            if end == scalars.count || !Self.isWordScalar(scalars[end]) { return rule }
        }
        return nil
    }

    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || scalar.properties.numericType != nil || scalar.properties.generalCategory == .nonspacingMark
    }
}
