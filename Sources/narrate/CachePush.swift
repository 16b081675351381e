import ArgumentParser
import Foundation
import NarrateKit

extension Narrate.CacheCommand {
    /// `narrate cache push`: seeds the cache store from the local cache.
    struct Push: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Upload every local entry the cache store lacks.",
            discussion: "Seeds a bucket from a cache folder, or uploads what a run left for later (a store that was down, a full upload queue). Needs --cache-store or NARRATE_CACHE_STORE."
        )
        @Option(name: [.short, .long], help: "Uploads at once (1–64).") var jobs = 8
        @OptionGroup var storage: StorageOptions

        func validate() throws {
            if !(1...64).contains(jobs) { throw ValidationError("--jobs must be from 1 to 64 (got \(jobs)).") }
        }

        func run() async throws {
            let (cache, _) = try Narrate.CacheCommand.open(storage)
            guard let tier = cache as? TieredAudioCache else {
                throw ValidationError("There is no cache store to push to: give --cache-store s3://bucket/prefix or set NARRATE_CACHE_STORE.")
            }
            if tier.mode == .readOnly {
                throw ValidationError("The cache store is read-only here (--cache-store-mode read-only): nothing can be pushed.")
            }
            if let problem = await tier.probe() {
                throw CacheError.storeUnusable(reason: "\(problem).")
            }
            let quiet = storage.quiet
            let terminal = isatty(STDERR_FILENO) == 1
            let result = try await tier.pushAll(width: jobs) { done, total in
                guard !quiet, terminal, done == total || done % 50 == 0 else { return }
                FileHandle.standardError.write(Data("\r\u{1B}[KPushing \(done)/\(total)".utf8))
            }
            if !quiet, terminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            storage.report("Pushed to \(tier.store.location): \(result.uploaded) uploaded, \(result.present) already there, \(result.failed) failed.")
            if result.failed > 0 { throw ExitCode.failure }
        }
    }
}
