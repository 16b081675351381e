import ArgumentParser
import NarrateKit

extension Narrate.CacheCommand {
    /// `narrate cache prune --max-size SIZE`.
    struct Prune: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove least recently used entries until the cache fits a size.")
        @Option(name: .customLong("max-size"), help: "The size to fit in: 500MB, 2GB, 750MiB, or bytes.") var maxSize: ByteSize
        @OptionGroup var storage: StorageOptions

        func run() async throws {
            let (cache, _) = try Narrate.CacheCommand.open(storage)
            let result = try await cache.prune(maxBytes: maxSize.bytes)
            storage.report("Removed \(result.removedEntries) entr\(result.removedEntries == 1 ? "y" : "ies") (\(Format.bytes(result.removedBytes))).")
        }
    }
}
