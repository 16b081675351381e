import Foundation
import NarrateData
import NarrateDomain

// The PDF reader's records under libFuzzer (`scripts/fuzz.sh SECONDS pdf`): each input is taken
// as what narrate-pdf wrote, decoded (`PDFWireDecoder`) and laid out (`PrintedLayoutAnalyzer`:
// running lines, footnotes, columns, paragraphs, chapters) into a book. Poppler itself is not
// fuzzed here: it runs in its own bounded process, and its upstream is fuzzed by OSS-Fuzz. A book
// or a `BookError` are both fine; a crash, a hang or runaway memory is a bug.
//
// Built normally, this is a replay tool: `narrate-fuzz-pdf FILE…` reads each file the same way
// and prints what came of it.

func readRecords(_ data: Data) -> Result<Book, BookError> {
    Result { () throws(BookError) in try PDFParser.book(wire: data, path: "fuzz.pdf") }
}

#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    _ = readRecords(start.map { Data(bytes: $0, count: count) } ?? Data())
    return 0
}

/// libFuzzer's entry point for a program with a main of its own (as narrate-fuzz-office's).
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ body: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

@main
struct FuzzPDF {
    static func main() {
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(runFuzzerDriver(&argc, &argv, fuzzOneInput))
    }
}
#else
@main
struct ReplayPDF {
    static func main() {
        var failed = false
        for path in CommandLine.arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else {
                print("\(path): cannot be read")
                failed = true
                continue
            }
            switch readRecords(data) {
            case let .success(book): print("\(path): \(book.format.name), \(book.chapters.count) chapters, \(book.pages.count) pages")
            case let .failure(error): print("\(path): \(error.description.escapingControlCharacters)")
            }
        }
        if failed { exit(1) }
    }
}
#endif
