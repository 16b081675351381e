import ArgumentParser
import NarrateKit

extension Narrate.CacheCommand {
    /// `narrate cache stats`.
    struct Stats: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show entries, size, audio duration and hits.")
        @Flag(name: .long, help: "Print JSON for scripts.") var json = false
        @OptionGroup var storage: StorageOptions

        func run() async throws {
            let (cache, directory) = try Narrate.CacheCommand.open(storage)
            let stats = try await cache.statistics()
            if json {
                print(try Format.json(stats))
                return
            }
            print("""
                Cache:    \(directory)
                Entries:  \(stats.entryCount)
                Size:     \(Format.bytes(stats.totalBytes))
                Audio:    \(Format.duration(stats.totalDuration))
                Hits:     \(stats.totalHits)
                """)
            if stats.removedTemporaries > 0 {
                print("Removed:  \(stats.removedTemporaries) temporary file\(stats.removedTemporaries == 1 ? "" : "s") left by killed writers")
            }
        }
    }
}
