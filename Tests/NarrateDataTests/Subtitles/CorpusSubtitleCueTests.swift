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
            problems += SubtitleCutCheck.problems(text: page.text, cues: cues).map { "page \(page.label): \($0)" }
        }
        #expect(book.pages.count > 0 && cueCount >= book.pages.count)
        #expect(problems.isEmpty, "\(problems.count) bad cuts in \(name), first: \(problems.prefix(8).joined(separator: "\n"))")
    }
}
