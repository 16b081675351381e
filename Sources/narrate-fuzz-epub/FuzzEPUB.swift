import Foundation
import NarrateData
import NarrateDomain

// The EPUB path under libFuzzer (`scripts/fuzz.sh`): each input is parsed as a book. A book or
// a `BookError` are both fine; a crash, a hang (libFuzzer's -timeout) or runaway memory
// (-rss_limit_mb) is a bug, and libFuzzer keeps the input that caused it.
//
// Built normally, this is a replay tool: `narrate-fuzz-epub FILE…` parses each file the same
// way and prints what came of it, to reproduce what the fuzzer found.

/// Limits small enough for quick runs, large enough to reach every part of the parser.
let fuzzLimits = ArchiveLimits(maxEntrySize: 8 << 20, maxTotalSize: 32 << 20)

func parseEPUB(_ data: Data) -> Result<Book, BookError> {
    Result { () throws(BookError) in try EPUBParser(limits: fuzzLimits).parse(data, path: "fuzz.epub", options: ParseOptions()) }
}

#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    _ = parseEPUB(start.map { Data(bytes: $0, count: count) } ?? Data())
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
struct FuzzEPUB {
    static func main() {
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(runFuzzerDriver(&argc, &argv, fuzzOneInput))
    }
}
#else
@main
struct ReplayEPUB {
    static func main() {
        var failed = false
        for path in CommandLine.arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else {
                print("\(path): cannot be read")
                failed = true
                continue
            }
            switch parseEPUB(data) {
            case let .success(book): print("\(path): a book, \(book.chapters.count) chapters, \(book.pages.count) pages")
            case let .failure(error): print("\(path): \(error.description.escapingControlCharacters)")
            }
        }
        if failed { exit(1) }
    }
}
#endif
