import Foundation
import NarrateDomain

/// What `narrate-pdf` wrote about one PDF: its pages as positioned lines, its outline and
/// metadata, the pages that are only images, or the error it stopped on.
public struct PDFWireDocument: Sendable, Hashable {
    public var layout = LayoutDocument(pages: [])
    public var title: String?
    public var author: String?
    public var language: String?
    /// Numbers of the pages with images and no text.
    public var imagePages: [Int] = []
    /// The document's page count, from the `end` record; nil when the output stopped before it.
    public var pageCount: Int?
    /// The `error` record's code and message (`password-required`, `damaged`…).
    public var error: (code: String, message: String)? {
        get { errorCode.map { ($0, errorMessage ?? "") } }
        set { errorCode = newValue?.code; errorMessage = newValue?.message }
    }
    var errorCode: String?
    var errorMessage: String?

    public init() {}
}

/// Why the output of `narrate-pdf` cannot be read.
public enum PDFWireError: Error, Sendable, Equatable {
    /// The first line is not `narrate-pdf<TAB>1`: another version of the reader, or not it.
    case wrongVersion(found: String)
    /// A record breaks the format or a bound, at the 1-based line `line`.
    case malformed(line: Int, reason: String)
}

/// Decodes the records `narrate-pdf` writes (docs/pdf.md): one a line, fields split by tabs,
/// the page's words after its `page` record, each `line` record starting a printed line. Every
/// number is checked finite and within a page's reach, every count bounded, so what a crafted
/// PDF made the reader print cannot make this process misbehave.
public enum PDFWireDecoder {
    public static let version = "1"
    /// At most this many pages, lines per page, words per line and outline entries.
    public static let maxPages = 5000, maxLinesPerPage = 5000, maxWordsPerLine = 2000, maxOutline = 20000
    /// The largest coordinate or size taken, in points (PDF's own limit on a page is 14,400).
    static let maxCoordinate = 200_000.0

    public static func decode(_ data: Data) throws(PDFWireError) -> PDFWireDocument {
        var document = PDFWireDocument()
        var lineNumber = 0
        var pageOpen = false
        var pages: [LayoutPage] = []
        for rawLine in data.split(separator: 0x0A, omittingEmptySubsequences: false) {
            lineNumber += 1
            let fields = String(decoding: rawLine, as: UTF8.self).split(separator: "\t", omittingEmptySubsequences: false)
            guard let kind = fields.first else { continue }
            if lineNumber == 1 {
                guard kind == "narrate-pdf", fields.count == 2, fields[1] == Substring(version) else {
                    throw .wrongVersion(found: String(String(decoding: rawLine.prefix(60), as: UTF8.self)))
                }
                continue
            }
            func fail(_ reason: String) -> PDFWireError { .malformed(line: lineNumber, reason: reason) }
            switch kind {
            case "":
                guard fields.count == 1 else { throw fail("an empty record kind") }
            case "meta":
                guard fields.count == 3 else { throw fail("meta needs a name and a value") }
                let value = fields[2].trimmingCharacters(in: .whitespaces)
                guard !value.isEmpty else { break }
                switch fields[1] {
                case "title": document.title = value
                case "author": document.author = value
                case "language": document.language = value
                default: break
                }
            case "outline":
                guard fields.count == 5, let depth = Int(fields[1]), (0...16).contains(depth),
                      let page = Int(fields[2]), page >= 1, page <= maxPages
                else { throw fail("outline needs a depth, a page and a title") }
                guard document.layout.outline.count < maxOutline else { throw fail("more than \(maxOutline) outline entries") }
                let top = fields[3] == "-" ? nil : try number(fields[3], line: lineNumber)
                document.layout.outline.append(LayoutOutlineEntry(
                    title: fields[4].trimmingCharacters(in: .whitespaces), depth: depth, page: page, top: top
                ))
            case "page":
                guard fields.count == 5, let number = Int(fields[1]), number >= 1, number <= maxPages,
                      number > (pages.last?.number ?? 0)
                else { throw fail("page needs a number above the last, a width, a height and a label") }
                guard pages.count < maxPages else { throw fail("more than \(maxPages) pages") }
                let width = try Self.number(fields[2], line: lineNumber), height = try Self.number(fields[3], line: lineNumber)
                let label = fields[4].trimmingCharacters(in: .whitespaces)
                pages.append(LayoutPage(number: number, label: label.isEmpty ? nil : label, width: width, height: max(height, 1), lines: []))
                pageOpen = true
            case "line":
                guard pageOpen, fields.count == 1 else { throw fail("a line outside a page") }
                guard pages[pages.count - 1].lines.count < maxLinesPerPage else { throw fail("more than \(maxLinesPerPage) lines on a page") }
                pages[pages.count - 1].lines.append(LayoutLine(words: []))
            case "word":
                guard pageOpen, let last = pages.last?.lines.indices.last, fields.count == 8 else { throw fail("a word outside a line") }
                guard pages[pages.count - 1].lines[last].words.count < maxWordsPerLine else { throw fail("more than \(maxWordsPerLine) words in a line") }
                let box = LayoutBox(
                    x: try number(fields[1], line: lineNumber), y: try number(fields[2], line: lineNumber),
                    width: try number(fields[3], line: lineNumber), height: try number(fields[4], line: lineNumber)
                )
                let size = try number(fields[5], line: lineNumber)
                let text = String(fields[7])
                guard !text.isEmpty, fields[6] == "0" || fields[6] == "1" else { throw fail("a word needs text and a bold flag") }
                pages[pages.count - 1].lines[last].words.append(LayoutWord(text: text, box: box, fontSize: size, isBold: fields[6] == "1"))
            case "image":
                guard fields.count == 2, let number = Int(fields[1]), number == pages.last?.number else { throw fail("an image record for another page") }
                document.imagePages.append(number)
            case "end":
                guard fields.count == 3, let count = Int(fields[1]), count >= 0 else { throw fail("end needs the page count") }
                document.pageCount = count
                pageOpen = false
            case "error":
                guard fields.count == 3 else { throw fail("error needs a code and a message") }
                document.error = (String(fields[1]), String(fields[2]))
            default:
                throw fail("unknown record '\(kind.prefix(20))'")
            }
        }
        guard lineNumber > 0 else { throw .wrongVersion(found: "") }
        for index in pages.indices { pages[index].lines.removeAll { $0.words.isEmpty } }
        document.layout.pages = pages
        return document
    }

    /// A coordinate or size: finite, not negative beyond rounding, within `maxCoordinate`.
    static func number(_ field: Substring, line: Int) throws(PDFWireError) -> Double {
        guard field.count <= 24, let value = Double(field), value.isFinite, value >= -maxCoordinate, value <= maxCoordinate else {
            throw .malformed(line: line, reason: "'\(field.prefix(24))' is not a number within a page")
        }
        return value
    }
}
