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
public func fuzzEPUB(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    _ = parseEPUB(Data(bytes: start, count: count))
    return 0
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
