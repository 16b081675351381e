import ArgumentParser
import Foundation
import NarrateKit

extension Narrate {
    /// `narrate cache`: inspect and trim the audio cache.
    struct CacheCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "cache",
            abstract: "Inspect and trim the audio cache.",
            subcommands: [Stats.self, Prune.self, Clear.self]
        )

        struct Stats: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Show entries, size, audio duration and hits.")
            @Flag(name: .long, help: "Print JSON for scripts.") var json = false
            @OptionGroup var storage: StorageOptions

            func run() async throws {
                do {
                    let (cache, directory) = try openCache(storage)
                    let stats = try await cache.statistics()
                    if json {
                        print(try Format.json(stats))
                    } else {
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
                } catch {
                    throw fail(error)
                }
            }
        }

        struct Prune: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Remove least recently used entries until the cache fits a size.")
            @Option(name: .customLong("max-size"), help: "The size to fit in: 500MB, 2GB, 750MiB, or bytes.") var maxSize: ByteSize
            @OptionGroup var storage: StorageOptions

            func run() async throws {
                do {
                    let (cache, _) = try openCache(storage)
                    let result = try await cache.prune(maxBytes: maxSize.bytes)
                    storage.report("Removed \(result.removedEntries) entr\(result.removedEntries == 1 ? "y" : "ies") (\(Format.bytes(result.removedBytes))).")
                } catch {
                    throw fail(error)
                }
            }
        }

        struct Clear: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Remove every cached entry.")
            @OptionGroup var storage: StorageOptions

            func run() async throws {
                do {
                    let (cache, directory) = try openCache(storage)
                    try await cache.clear()
                    storage.report("Cleared the audio cache at \(directory).")
                } catch {
                    throw fail(error)
                }
            }
        }
    }
}

private func openCache(_ storage: StorageOptions) throws -> (any AudioCacheContract, String) {
    let configuration = storage.configuration()
    guard let directory = configuration.cacheDirectory,
          let cache = try makeAudioCache(configuration: configuration, logger: storage.makeLogger())
    else { throw SpeechError.cacheFailed(.notWritable(path: "(none)", reason: "no cache folder is configured")) }
    return (cache, directory)
}

/// A size such as `500MB`, `1.5GB`, `750MiB` or a plain number of bytes.
struct ByteSize: ExpressibleByArgument, Sendable {
    var bytes: Int64

    init?(argument: String) {
        let text = argument.trimmingCharacters(in: .whitespaces).uppercased()
        let units: [(String, Double)] = [
            ("KIB", 1024), ("MIB", 1024 * 1024), ("GIB", 1024 * 1024 * 1024), ("TIB", 1024 * 1024 * 1024 * 1024),
            ("KB", 1e3), ("MB", 1e6), ("GB", 1e9), ("TB", 1e12), ("K", 1e3), ("M", 1e6), ("G", 1e9), ("T", 1e12), ("B", 1),
        ]
        var multiplier = 1.0
        var number = text
        for (suffix, value) in units where text.hasSuffix(suffix) {
            multiplier = value
            number = String(text.dropLast(suffix.count)).trimmingCharacters(in: .whitespaces)
            break
        }
        guard let value = Double(number), value >= 0, value.isFinite else { return nil }
        bytes = Int64(value * multiplier)
    }

    static var defaultCompletionKind: CompletionKind { .default }
}
