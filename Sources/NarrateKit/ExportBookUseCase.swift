import Foundation
import Logging
import NarrateData
import NarrateDomain

/// An event of a running export, for apps that follow it as an `AsyncSequence`.
public enum ExportEvent: Sendable {
    case progress(ExportProgress)
    case finished(ExportSummary)
}

/// Exports a book to audio files, resumably: what `narrate book` does, for any front end.
public protocol ExportBookUseCaseContract: Sendable {
    /// Runs the export, reporting progress through `onProgress`.
    /// - Throws: `ExportError` (a selection past the end, a folder that cannot be written, an
    ///   encoder that fails, speech errors).
    func execute(book: Book, voice: VoiceProfile, options: BookExportOptions, onProgress: @escaping @Sendable (ExportProgress) -> Void) async throws(ExportError) -> ExportSummary

    /// The same export as a stream of events, ending with `.finished` (or the error).
    func events(book: Book, voice: VoiceProfile, options: BookExportOptions) -> AsyncThrowingStream<ExportEvent, any Error>
}

/// Exports a book to audio files: `BookExporter` (the export business function composed with
/// the audio cache, the `narrate-worker` processes, the encoders and the manifest).
public struct ExportBookUseCase: ExportBookUseCaseContract {
    private let exporter: BookExporter

    init(exporter: BookExporter) {
        self.exporter = exporter
    }

    /// Runs the export, reporting progress through `onProgress`.
    public func execute(book: Book, voice: VoiceProfile, options: BookExportOptions, onProgress: @escaping @Sendable (ExportProgress) -> Void) async throws(ExportError) -> ExportSummary {
        try await exporter.export(book: book, voice: voice, options: options, onProgress: onProgress)
    }

    /// The same export as a stream of events, ending with `.finished` (or the error).
    public func events(book: Book, voice: VoiceProfile, options: BookExportOptions) -> AsyncThrowingStream<ExportEvent, any Error> {
        let exporter = exporter
        return AsyncThrowingStream { continuation in
            let task = Task {
                do throws(ExportError) {
                    let summary = try await exporter.export(book: book, voice: voice, options: options) { continuation.yield(.progress($0)) }
                    continuation.yield(.finished(summary))
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

/// The export use case: `jobs` chunks synthesized at once, each in a `narrate-worker` process
/// (found as `ESpeakWorkerLocator` says, or at `workerExecutable`), through the audio cache
/// (which is what makes an export resumable).
/// - Throws: `ExportError.speech(.cacheFailed(.disabled))` when the cache is off, `.speech(.cacheFailed)`
///   when it cannot be opened.
public func makeExportBookUseCase(configuration: NarrateConfiguration, jobs: Int, logger: Logger, workerExecutable: String? = nil) async throws(ExportError) -> any ExportBookUseCaseContract {
    guard let cacheDirectory = configuration.cacheDirectory else {
        // The cache is what makes an export resumable and parallel.
        throw .speech(.cacheFailed(.disabled))
    }
    let cache: any AudioCacheContract
    do {
        cache = try AudioCache(directory: cacheDirectory, logger: logger)
    } catch {
        throw .speech(.cacheFailed(error))
    }
    let espeak = ESpeakSynthesizer(
        workers: jobs, executable: workerExecutable ?? configuration.workerExecutable,
        environment: RemoteAPIKey.environmentWithoutKeys(), limits: configuration.engineLimits
    )
    // With a remote API, --jobs N means N requests in flight; eSpeak's workers start only for a fallback.
    let remote = configuration.remote.map { engine in
        var engine = engine
        engine.concurrency = jobs
        return remoteEngine(engine, logger: logger)
    }
    let synthesizer: any SpeechSynthesizerContract = remote ?? espeak
    let fallback = remote != nil && configuration.fallsBackToESpeak ? espeak : nil
    let usage = remote?.usage
    // Cache hits are counted where chunks are looked up, not when files read them back.
    let repository = TTSRepository(synthesizer: synthesizer, cache: cache, logger: logger, fallback: fallback) { event in
        if case let .fellBack(text) = event { usage?.recordFallback(text: text) }
    }
    let engine: EngineDescriptor
    do { engine = try await synthesizer.descriptor() } catch { throw .speech(error) }
    return ExportBookUseCase(exporter: BookExporter(
        cache: cache, repository: repository, engine: engine, synthesizer: synthesizer, logger: logger,
        hasFallback: fallback != nil, onCached: { usage?.recordCacheHit(characters: $0) }
    ))
}
