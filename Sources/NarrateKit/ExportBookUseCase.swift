import Foundation
import Glibc
import Logging
import NarrateData
import NarrateDomain
import Synchronization

/// An event of a running export, for apps that follow it as an `AsyncSequence`.
public enum ExportEvent: Sendable {
    case progress(ExportProgress)
    case finished(ExportSummary)
}

/// Exports a library book to audio files: the business function `exportBook` composed with
/// the audio cache, `narrate worker` processes, the encoders and the manifest.
public struct ExportBookUseCase: Sendable {
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

/// The export use case. Workers are this program run as `narrate worker` (`workerExecutable`,
/// by default the running binary), `jobs` of them.
/// - Throws: `ExportError` when the cache is off or cannot be opened.
public func makeExportBookUseCase(configuration: NarrateConfiguration, jobs: Int, logger: Logger, workerExecutable: String? = nil) async throws(ExportError) -> ExportBookUseCase {
    guard let cacheDirectory = configuration.cacheDirectory else {
        throw .invalidSelection("Exporting a book needs the audio cache (it is what makes an export resumable and parallel): drop --no-cache.")
    }
    let cache: any AudioCacheContract
    do {
        cache = try AudioCache(directory: cacheDirectory, logger: logger)
    } catch {
        throw .speech(.cacheFailed(error))
    }
    let synthesizer = ESpeakSynthesizer()
    let engine: EngineDescriptor
    do { engine = try await synthesizer.descriptor() } catch { throw .speech(error) }
    let executable = workerExecutable ?? currentExecutable()
    let workers = WorkerPool(
        executable: executable,
        arguments: ["worker", "--cache-dir", cacheDirectory, "--quiet"],
        // A worker that crashes is reported in one line by the parent, not by a backtrace.
        environment: ProcessInfo.processInfo.environment.merging(["SWIFT_BACKTRACE": "enable=no"]) { _, new in new },
        count: jobs,
        logger: logger
    )
    let repository = TTSRepository(synthesizer: synthesizer, cache: cache, logger: logger)
    return ExportBookUseCase(exporter: BookExporter(cache: cache, repository: repository, engine: engine, workers: workers, logger: logger))
}

/// The running program's own path.
private func currentExecutable() -> String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard count > 0 else { return CommandLine.arguments.first ?? "narrate" }
    return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// Serves a parent export: reads `WorkerRequest` lines on standard input, synthesizes each into
/// the cache, answers a `WorkerResponse` line on standard output, and ends at end of input.
public func runExportWorker(configuration: NarrateConfiguration, logger: Logger) async -> Int32 {
    guard let cacheDirectory = configuration.cacheDirectory, let cache = try? AudioCache(directory: cacheDirectory, logger: logger) else {
        return 1
    }
    let repository = TTSRepository(synthesizer: ESpeakSynthesizer(), cache: cache, logger: logger)
    // A hook for the crash tests: abort (as eSpeak does on some input) on text containing this.
    let crashMarker = ProcessInfo.processInfo.environment["NARRATE_WORKER_CRASH_ON"].flatMap { $0.isEmpty ? nil : $0 }
    // Requests are served concurrently (the parent keeps a few in hand): the eSpeak actor
    // synthesizes one while the previous one is being stored.
    let output = LineWriter()
    await withTaskGroup(of: Void.self) { group in
        while let line = readLine(strippingNewline: true) {
            guard let request = try? JSONDecoder().decode(WorkerRequest.self, from: Data(line.utf8)) else { continue }
            if let crashMarker, request.text.contains(crashMarker) { abort() }
            group.addTask {
                var response = WorkerResponse(id: request.id)
                do throws(SpeechError) {
                    let audio = try await repository.synthesize(SpeechRequest(text: request.text, voice: request.voice, isSSML: request.isSSML), cachePolicy: .localFirst)
                    response.seconds = audio.duration
                } catch {
                    response.error = error.description
                }
                guard var data = try? JSONEncoder().encode(response) else { return }
                data.append(0x0A)
                output.write(data)
            }
        }
    }
    try? await cache.flush()
    return 0
}

/// Writes whole lines to standard output from concurrent tasks.
private final class LineWriter: Sendable {
    private let lock = Mutex(())

    func write(_ line: Data) {
        lock.withLock { _ in FileHandle.standardOutput.write(line) }
    }
}
