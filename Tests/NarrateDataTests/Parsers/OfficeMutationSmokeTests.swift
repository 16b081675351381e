import Foundation
@testable import NarrateData
import NarrateDomain
import Testing
import ZIPFoundation

/// A cheap, deterministic cousin of the fuzz targets (`scripts/fuzz.sh docx|odt|fb2`), run on
/// every test run: seeded bit flips, cuts and copied ranges of small real files, of their bytes
/// and of the XML inside their archives. Whatever comes of one, the parser must answer — with a
/// book whose pages and chapters hold together, or a `BookError` — and never crash or hang.
@Suite struct OfficeMutationSmokeTests {
    /// The same mutations on every machine and every run (SplitMix64).
    typealias Seeded = SeededGenerator

    /// `bytes` changed one of four ways: a few bits flipped, cut short, a range copied over
    /// another, a range dropped.
    static func mutated(_ bytes: [UInt8], _ random: inout Seeded) -> [UInt8] {
        var result = bytes
        guard !result.isEmpty else { return result }
        switch random.below(4) {
        case 0:
            for _ in 0...random.below(8) { result[random.below(result.count)] ^= UInt8(1 << random.below(8)) }
        case 1:
            result = Array(result.prefix(random.below(result.count)))
        case 2:
            let length = 1 + random.below(64)
            let from = random.below(result.count)
            let to = random.below(result.count)
            for offset in 0..<length where from + offset < result.count && to + offset < result.count {
                result[to + offset] = result[from + offset]
            }
        default:
            let start = random.below(result.count)
            result.removeSubrange(start..<min(result.count, start + 1 + random.below(256)))
        }
        return result
    }

    /// The entries of a real archive, in order.
    static func entries(of data: Data) throws -> [(String, Data)] {
        let archive = try Archive(data: data, accessMode: .read)
        return try archive.map { entry in
            var content = Data()
            _ = try archive.extract(entry) { content.append($0) }
            return (entry.path, content)
        }
    }

    /// What a parser may answer: a book that holds together, or a `BookError` (typed throws).
    static func checkAnswer(_ data: Data, name: String) -> Bool {
        let parser = DocumentParserFactory(epubLimits: ArchiveLimits(maxEntrySize: 4 << 20, maxTotalSize: 16 << 20))
        guard let book = try? parser.parse(data, path: "/mutants/\(name)") else { return false }
        #expect(!book.pages.isEmpty, "\(name)")
        #expect(book.pages.map(\.index) == Array(1...book.pages.count), "\(name)")
        #expect(book.chapters.allSatisfy { $0.firstPage >= 1 && $0.firstPage <= book.pages.count }, "\(name)")
        return true
    }

    @Test("Given small real DOCX, ODT and FB2 files, when their bytes are mutated, then every parse ends in a book or a BookError", .timeLimit(.minutes(10)), arguments: OfficeFiles.names)
    func rawMutations(name: String) throws {
        // Given
        let original = try [UInt8](OfficeFiles.data(name))
        var random = Seeded(seed: name.utf8.reduce(7 as UInt64) { $0 &* 31 &+ UInt64($1) })
        var books = 0

        // When
        for _ in 0..<60 {
            if Self.checkAnswer(Data(Self.mutated(original, &random)), name: name) { books += 1 }
        }

        // Then the original still reads, and the mutants were answered (most raw mutants of an
        // archive break a checksum)
        #expect(Self.checkAnswer(Data(original), name: name))
        #expect(books < 60)
    }

    @Test("Given the same files, when the XML inside their archives is mutated and zipped again, then every parse ends in a book or a BookError", .timeLimit(.minutes(10)), arguments: ["small.docx", "small-lo.docx", "small.odt", "small-lo.odt", "small.fb2.zip"])
    func xmlMutations(name: String) throws {
        // Given the part that holds the text
        let entries = try Self.entries(of: OfficeFiles.data(name))
        let text = try #require(entries.firstIndex { ["word/document.xml", "content.xml"].contains($0.0) || $0.0.hasSuffix(".fb2") })
        let original = [UInt8](entries[text].1)
        var random = Seeded(seed: name.utf8.reduce(11 as UInt64) { $0 &* 131 &+ UInt64($1) })
        var books = 0
        var errors = 0

        // When
        for _ in 0..<60 {
            var mutant = entries
            mutant[text].1 = Data(Self.mutated(original, &random))
            if Self.checkAnswer(try EPUBFixture.archive(mutant), name: name) { books += 1 } else { errors += 1 }
        }

        // Then some mutants still read (a flipped letter) and some do not (broken XML)
        #expect(books > 0)
        #expect(errors > 0)
    }
}

extension SeededGenerator {
    /// A number in 0..<`bound` (0 when the bound is not positive).
    mutating func below(_ bound: Int) -> Int { bound <= 0 ? 0 : Int(next() % UInt64(bound)) }
}
