import Foundation
import NarrateDomain

extension Book {
    /// A small book: one chapter per page text, each page labelled with its index.
    static func stub(
        title: String = "Moby-Dick",
        authors: [String] = ["Herman Melville"],
        language: String? = "en",
        format: DocumentFormat = .epub,
        pages: [String] = [
            "Call me Ishmael. Some years ago, never mind how long precisely.",
            "The pale Usher, threadbare in coat, heart, body and brain.",
            "Towards thee I roll, thou all-destroying but unconquering whale.",
        ],
        cover: BookCover? = .stub()
    ) -> Book {
        Book(
            metadata: BookMetadata(
                title: title, authors: authors, language: language, identifier: "urn:stub:\(title)",
                publisher: "Stub House", date: "1851", bookDescription: "A stub of \(title)."
            ),
            format: format,
            chapters: pages.indices.map {
                Chapter(title: "Chapter \($0 + 1)", depth: $0 == 0 ? 0 : 1, firstPage: $0 + 1, textOffset: $0 == 1 ? 4 : 0)
            },
            pages: pages.enumerated().map { offset, text in
                Page(index: offset + 1, label: "\(offset + 1)", chapterIndex: offset, text: text)
            },
            cover: cover
        )
    }

    /// A book the size of Moby-Dick: `pageCount` pages of about `charactersPerPage`
    /// characters of pseudo-words (deterministic), a chapter every ten pages.
    static func large(pageCount: Int = 1_500, charactersPerPage: Int = 800) -> Book {
        var generator = StubRandom(seed: 42)
        let syllables = ["ba", "ke", "lo", "mi", "nu", "ra", "se", "ti", "vo", "wha", "le", "qu", "ee", "g"]
        let vocabulary: [String] = (0..<8_000).map { _ in
            (0..<(1 + generator.next(4))).map { _ in syllables[generator.next(syllables.count)] }.joined()
        }
        let pages: [Page] = (1...pageCount).map { index in
            var text = ""
            while text.count < charactersPerPage {
                text += vocabulary[generator.next(vocabulary.count)]
                text += generator.next(12) == 0 ? ". " : " "
            }
            return Page(index: index, label: "\(index)", chapterIndex: (index - 1) / 10, text: text)
        }
        let chapters = stride(from: 1, through: pageCount, by: 10).map {
            Chapter(title: "Chapter \(($0 - 1) / 10 + 1)", firstPage: $0)
        }
        return Book(
            metadata: BookMetadata(title: "Large Book", authors: ["Stub Author"]),
            format: .epub, chapters: chapters, pages: pages, cover: .stub()
        )
    }
}

extension BookCover {
    static func stub(mediaType: String = "image/png", byteCount: Int = 64) -> BookCover {
        BookCover(mediaType: mediaType, data: (0..<byteCount).map { UInt8(truncatingIfNeeded: $0 &* 37) })
    }
}

/// A tiny deterministic generator (LCG), so stub books are the same on every run.
struct StubRandom {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next(_ bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(bound))
    }
}
