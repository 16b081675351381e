import Crypto
import Foundation
import NarrateDomain

/// Reads a W3C Pronunciation Lexicon (PLS 1.0) document: the lexicon of an EPUB 3 book or of a
/// user's own `--lexicon` file.
///
/// Each `<lexeme>` gives its `<grapheme>`s and one `<phoneme>` (the one marked `prefer="true"`,
/// else the first), in the lexicon's `alphabet` unless the phoneme names its own. Lexemes that
/// only give an `<alias>` are not pronunciations and are left out.
enum PLSReader {
    /// The largest lexicon file read.
    static let maxBytes = 1 << 20

    /// Why a lexicon could not be read.
    struct Failure: Error, Equatable {
        var reason: String
    }

    /// The lexicon in `data`, named `name` in messages.
    static func read(_ data: [UInt8], name: String) -> Result<PronunciationLexicon, Failure> {
        guard data.count <= maxBytes else {
            return .failure(Failure(reason: "it is larger than \(maxBytes / 1024) KiB, the most a lexicon may be"))
        }
        let root: XMLTree
        switch XMLTree.parse(Data(data)) {
        case let .success(tree): root = tree
        case let .failure(error): return .failure(Failure(reason: error.reason))
        }
        guard root.name == "lexicon" else {
            return .failure(Failure(reason: "the root element is <\(root.name)>, not a PLS <lexicon>"))
        }
        let alphabet = root.attribute("alphabet") ?? "ipa"
        var entries: [PronunciationEntry] = []
        for lexeme in root.children("lexeme") {
            guard entries.count < PronunciationLexicon.maxEntries else {
                return .failure(Failure(reason: "it has more than \(PronunciationLexicon.maxEntries) lexemes"))
            }
            let graphemes = lexeme.children("grapheme").map { MarkupText.collapseWhitespace($0.text) }.filter { !$0.isEmpty }
            let phonemes = lexeme.children("phoneme")
            guard !graphemes.isEmpty, let phoneme = phonemes.first(where: { $0.attribute("prefer") == "true" }) ?? phonemes.first else { continue }
            let text = MarkupText.collapseWhitespace(phoneme.text)
            guard !text.isEmpty else { continue }
            entries.append(PronunciationEntry(graphemes: graphemes, phonemes: text, alphabet: phoneme.attribute("alphabet") ?? alphabet))
        }
        return .success(PronunciationLexicon(name: name, language: root.attribute("xml:lang"), digest: digest(of: data), entries: entries))
    }

    /// A lexicon that could not be read, kept so the reader is told and reads without it.
    static func broken(_ data: [UInt8], name: String, reason: String) -> PronunciationLexicon {
        PronunciationLexicon(name: name, language: nil, digest: digest(of: data), entries: [], problem: "it could not be read (\(reason))")
    }

    /// SHA-256 of the file's bytes, in hex.
    static func digest(of data: [UInt8]) -> String {
        Hex.encode(SHA256.hash(data: data))
    }
}
