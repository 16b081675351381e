import ArgumentParser
import NarrateKit

extension Narrate.CacheCommand {
    /// `narrate cache stats`.
    struct Stats: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show entries, size, audio duration and hits, and the cache store's counts when there is one.")
        @Flag(name: .long, help: "Print JSON for scripts.") var json = false
        @OptionGroup var storage: StorageOptions

        /// The JSON form: the local tier's figures at the top (as before there was a store),
        /// and the store's under `store` when there is one.
        struct Report: Encodable {
            var local: CacheStatistics
            var store: StoreReport?

            enum CodingKeys: String, CodingKey { case store }

            func encode(to encoder: any Encoder) throws {
                try local.encode(to: encoder)
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encodeIfPresent(store, forKey: .store)
            }
        }

        struct StoreReport: Encodable {
            var location: String
            var mode: String
            /// `nil` when it answers; else what is wrong.
            var problem: String?
            /// Added up over the runs that used this cache folder.
            var counts: CacheStoreStatistics
        }

        func run() async throws {
            let (cache, directory) = try Narrate.CacheCommand.open(storage)
            let stats = try await cache.statistics()
            var store: StoreReport?
            if let tier = cache as? TieredAudioCache {
                let problem = await tier.probe()
                store = StoreReport(location: tier.store.location, mode: tier.mode.rawValue, problem: problem.map { "\($0)" }, counts: CacheStoreRecord(directory: directory).read())
            }
            if json {
                print(try Format.json(Report(local: stats, store: store)))
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
            if let store {
                let counts = store.counts
                let latency = counts.requests > 0 ? " (\(Int((counts.requestSeconds / Double(counts.requests) * 1000).rounded())) ms a request)" : ""
                print("""
                    Store:    \(store.location) (\(store.mode)), \(store.problem.map { "not answering: \($0)" } ?? "answering")
                    Store hits: \(counts.hits), misses: \(counts.misses)\(latency)
                    Uploads:  \(counts.uploads) (\(counts.alreadyStored) already there, \(counts.skippedUploads) skipped)
                    Errors:   \(counts.errors) (\(counts.corrupt) damaged object\(counts.corrupt == 1 ? "" : "s") not used)
                    """)
            }
        }
    }
}
