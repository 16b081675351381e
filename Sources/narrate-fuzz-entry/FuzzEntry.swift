import Foundation
@_spi(Fuzzing) import NarrateData

// The cache entry decoder under libFuzzer (`scripts/fuzz.sh SECONDS entry`): each input is
// decoded as a store object. A refusal is fine; a crash, a trap (an overflow) or a hang is a
// bug, and libFuzzer keeps the input. Built normally, it replays files: `narrate-fuzz-entry FILE…`.

#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    _ = AudioCacheEntryFuzzing.decode(start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? [])
    return 0
}

@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ body: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

@main
struct FuzzEntry {
    static func main() {
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(runFuzzerDriver(&argc, &argv, fuzzOneInput))
    }
}
#else
@main
struct ReplayEntry {
    static func main() {
        var failed = false
        for path in CommandLine.arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else {
                print("\(path): cannot be read")
                failed = true
                continue
            }
            switch AudioCacheEntryFuzzing.decode(Array(data)) {
            case let .entry(samples, marks): print("\(path): an entry, \(samples) samples, \(marks) word marks")
            case let .refused(reason): print("\(path): refused: \(reason)")
            }
        }
        if failed { exit(1) }
    }
}
#endif
