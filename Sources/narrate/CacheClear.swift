import ArgumentParser
import NarrateKit

extension Narrate.CacheCommand {
    /// `narrate cache clear`.
    struct Clear: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove every cached entry.")
        @OptionGroup var storage: StorageOptions

        func run() async throws {
            let (cache, directory) = try Narrate.CacheCommand.open(storage)
            try await cache.clear()
            storage.report("Cleared the audio cache at \(directory).")
        }
    }
}
