import struct Foundation.Date
import NarrateDomain

extension SpeechAudio {
    /// Audio that marks every whitespace-separated word of `text`: word *i* of the text gets
    /// `samplesPerWord` samples of value *i* and a mark at sample `i * samplesPerWord`, the way
    /// an engine reports words relative to the start of its input.
    static func wordMarked(_ text: String, sampleRate: Int = 22_050, samplesPerWord: Int = 10) -> SpeechAudio {
        let scalars = Array(text.unicodeScalars)
        var marks: [WordMark] = []
        var start: Int?
        for index in scalars.indices {
            if scalars[index].properties.isWhitespace {
                if let wordStart = start {
                    marks.append(WordMark(textOffset: wordStart, textLength: index - wordStart, sampleOffset: marks.count * samplesPerWord))
                    start = nil
                }
            } else if start == nil {
                start = index
            }
        }
        if let wordStart = start {
            marks.append(WordMark(textOffset: wordStart, textLength: scalars.count - wordStart, sampleOffset: marks.count * samplesPerWord))
        }
        var samples: [Int16] = []
        for index in marks.indices {
            samples.append(contentsOf: repeatElement(Int16(truncatingIfNeeded: index), count: samplesPerWord))
        }
        return SpeechAudio(sampleRate: sampleRate, samples: samples, wordMarks: marks)
    }

    static func stub(sampleRate: Int = 22_050, samples: [Int16] = [1, 2, 3], wordMarks: [WordMark] = []) -> SpeechAudio {
        SpeechAudio(sampleRate: sampleRate, samples: samples, wordMarks: wordMarks)
    }
}

extension Book {
    static func stub(pages: [Page] = [.stub(index: 1)]) -> Book {
        Book(metadata: BookMetadata(title: "A Test Book", authors: ["A. Writer"]), format: .plainText, pages: pages)
    }
}

extension Page {
    static func stub(index: Int, label: String? = nil, text: String = "A page to read aloud.") -> Page {
        Page(index: index, label: label ?? String(index), text: text)
    }
}

/// Texts long enough to need several engine chunks.
enum TextFixtures {
    /// `paragraphs` paragraphs of `sentences` distinct sentences each (about 60 scalars per
    /// sentence), separated by `separator`.
    static func longText(paragraphs: Int = 3, sentences: Int = 12, separator: String = "\n\n") -> String {
        (1...paragraphs).map { paragraph in
            (1...sentences).map { sentence in
                "Sentence \(sentence) of paragraph \(paragraph) tells a short story about narration."
            }.joined(separator: " ")
        }.joined(separator: separator)
    }

    /// The substring of `text` made of `length` Unicode scalars from `offset`.
    static func scalars(of text: String, from offset: Int, length: Int) -> String {
        let scalars = Array(text.unicodeScalars)
        guard offset >= 0, length >= 0, offset + length <= scalars.count else { return "<out of range \(offset)+\(length)>" }
        var result = ""
        result.unicodeScalars.append(contentsOf: scalars[offset..<(offset + length)])
        return result
    }
}

extension LibraryBook {
    static let stubDate = Date(timeIntervalSince1970: 1_700_000_000)

    static func stub(
        id: Int64 = 1,
        title: String = "A Test Book",
        pages: [Page] = [.stub(index: 1)],
        chapters: [Chapter] = [],
        contentHash: String = "hash-1",
        sourcePath: String = "/books/test.txt",
        progress: ReadingProgress? = nil
    ) -> LibraryBook {
        var book = Book.stub(pages: pages)
        book.metadata.title = title
        book.chapters = chapters
        return LibraryBook(id: BookID(rawValue: id), book: book, contentHash: contentHash, sourcePath: sourcePath, dateAdded: stubDate, progress: progress)
    }
}
