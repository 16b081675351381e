import Foundation
import NarrateData
import NarrateDomain
import Testing

/// Every corpus book, parsed with the real parser, cut into cues from eSpeak-like word marks
/// (``ESpeakLikeWordMarks``): no cue is cut inside a token or just after an opening quote or bracket.
@Suite struct CorpusSubtitleCueTests {
    /// `epub/*.epub` and `txt/*.txt` of the corpus (one placeholder when it is missing, so the test says so).
    static let books: [String] = {
        guard let directory = try? Corpus.directory() else { return ["epub/(corpus missing)"] }
        return ["epub", "txt"].flatMap { folder in
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent(folder).path)) ?? []
            return names.filter { $0.hasSuffix(".\(folder)") }.sorted().map { "\(folder)/\($0)" }
        }
    }()

    @Test("cues of every page fall between words, never after an opening mark", arguments: books)
    func cuesBetweenWords(book name: String) throws {
        // Given the book's pages
        let file = try Corpus.file(name)
        let book = try DocumentParserFactory().parse(file.data, path: file.path)
        var problems: [String] = []
        var cueCount = 0

        for page in book.pages {
            // When its cues are built from eSpeak-like marks
            let (marks, totalSamples) = ESpeakLikeWordMarks.marks(for: page.text)
            let cues = SubtitleCueBuilder.cues(
                text: page.text, wordMarks: marks, sampleRate: ESpeakLikeWordMarks.sampleRate, totalSamples: totalSamples
            )
            cueCount += cues.count

            // Then
            problems += Self.problems(text: page.text, cues: cues).map { "page \(page.label): \($0)" }
        }
        #expect(book.pages.count > 0 && cueCount >= book.pages.count)
        #expect(problems.isEmpty, "\(problems.count) bad cuts in \(name), first: \(problems.prefix(8).joined(separator: "\n"))")
    }

    /// Every cue holds whole whitespace-separated tokens of the text, in order, all of them, and none but the
    /// last ends with an opening quotation mark or bracket.
    static func problems(text: String, cues: [SubtitleCue]) -> [String] {
        let tokens = text.split(whereSeparator: \.isWhitespace)
        var problems: [String] = []
        var cursor = 0
        for (number, cue) in cues.enumerated() {
            let own = cue.text.split(whereSeparator: \.isWhitespace)
            guard cursor + own.count <= tokens.count, tokens[cursor..<(cursor + own.count)].elementsEqual(own) else {
                let context = tokens[max(cursor - 2, 0)..<min(cursor + own.count + 2, tokens.count)]
                problems.append("cue “\(cue.text)” is not whole words of “\(context.joined(separator: " "))”")
                return problems
            }
            cursor += own.count
            if number + 1 < cues.count, let last = own.last, endsWithOpener(last) {
                problems.append("a cue ends with an opening mark: “\(cue.text)”")
            }
        }
        if cursor != tokens.count { problems.append("the cues hold \(cursor) of \(tokens.count) words") }
        return problems
    }

    private static func endsWithOpener(_ token: Substring) -> Bool {
        guard let last = token.last else { return false }
        if "([{“‘„‚¿¡".contains(last) { return true }
        return "«‹\"'".contains(last) && !token.contains { $0.isLetter || $0.isNumber }
    }
}
