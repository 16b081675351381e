import Foundation
import NarrateData
import NarrateDomain

// The DOCX, ODT and FB2 parsers under libFuzzer (`scripts/fuzz.sh SECONDS docx|odt|fb2`): each
// input is parsed by the parser NARRATE_FUZZ_FORMAT names (docx, odt or fb2), or, without it, by
// the one its content and name pick (`DocumentParserFactory`, sniffing included). A book or a
// `BookError` are both fine; a crash, a hang (libFuzzer's -timeout) or runaway memory
// (-rss_limit_mb) is a bug, and libFuzzer keeps the input that caused it.
//
// Built normally, this is a replay tool: `narrate-fuzz-office FILE…` parses each file the same
// way and prints what came of it, to reproduce what the fuzzer found.

/// Limits small enough for quick runs, large enough to reach every part of the parsers.
let fuzzLimits = ArchiveLimits(maxEntrySize: 8 << 20, maxTotalSize: 32 << 20)
let factory = DocumentParserFactory(epubLimits: fuzzLimits)
let forced = ProcessInfo.processInfo.environment["NARRATE_FUZZ_FORMAT"].flatMap { DocumentFormat(fileExtension: $0) }

func parseDocument(_ data: Data, path: String) -> Result<Book, BookError> {
    Result { () throws(BookError) in
        guard let forced else { return try factory.parse(data, path: path) }
        return try factory.parser(for: forced).parse(data, path: path, options: ParseOptions())
    }
}

#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    _ = parseDocument(start.map { Data(bytes: $0, count: count) } ?? Data(), path: "fuzz.\(forced?.rawValue ?? "bin")")
    return 0
}

/// libFuzzer's entry point for a program with a main of its own (SwiftPM gives every
/// executable one; the fuzz build links libFuzzer's too, and either leads here).
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ body: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

@main
struct FuzzOffice {
    static func main() {
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(runFuzzerDriver(&argc, &argv, fuzzOneInput))
    }
}
#else
@main
struct ReplayOffice {
    static func main() {
        var failed = false
        for path in CommandLine.arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else {
                print("\(path): cannot be read")
                failed = true
                continue
            }
            switch parseDocument(data, path: path) {
            case let .success(book): print("\(path): \(book.format.name), \(book.chapters.count) chapters, \(book.pages.count) pages")
            case let .failure(error): print("\(path): \(error.description.escapingControlCharacters)")
            }
        }
        if failed { exit(1) }
    }
}
#endif
