import ArgumentParser
import NarrateKit

extension Narrate {
    /// `narrate cache`: inspect and trim the audio cache.
    struct CacheCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "cache",
            abstract: "Inspect and trim the audio cache.",
            subcommands: [Stats.self, Prune.self, Clear.self, Push.self]
        )

        /// The cache `storage` names, and its folder.
        static func open(_ storage: StorageOptions) throws -> (any AudioCacheContract, String) {
            let configuration = storage.configuration()
            guard let directory = configuration.cacheDirectory,
                  let cache = try makeAudioCache(configuration: configuration, logger: storage.makeLogger())
            else { throw SpeechError.cacheFailed(.disabled) }
            return (cache, directory)
        }
    }
}
