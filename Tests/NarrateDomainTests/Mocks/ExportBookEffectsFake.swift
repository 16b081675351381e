import NarrateDomain
import Synchronization

/// Fake `ExportBookEffects` that record every call, in the spirit of `functional-usecases.md`:
/// no file is found finished, every chunk succeeds and every write and record succeeds unless
/// configured otherwise.
final class ExportBookEffectsFake: Sendable {
    /// The order in which `synthesize` reports its chunks.
    enum CompletionOrder: Sendable { case inOrder, reversed }

    /// Something the effects did, in the order they did it.
    enum Event: Equatable, Sendable {
        case chunkDone(itemIndex: Int)
        case write(String)
        case record([String], isFinal: Bool)
    }

    private struct State {
        var finishedFiles: [String: ExportedFile] = [:]
        var failingPages: Set<Int> = []
        var completionOrder: CompletionOrder = .inOrder
        var synthesizeError: ExportError?
        var writeErrors: [String: ExportError] = [:]
        var reportedChunkLimit: Int?

        var finishedFileCalls: [(stem: String, chunks: [ExportChunk])] = []
        var synthesizeCalls: [[ExportChunk]] = []
        var writeCalls: [(stem: String, chunks: [ExportChunk])] = []
        var events: [Event] = []
        var progress: [ExportProgress] = []
    }

    private let state = Mutex(State())

    // MARK: - Configuration

    /// Files an earlier run finished, by file stem.
    var finishedFiles: [String: ExportedFile] {
        get { state.withLock { $0.finishedFiles } }
        set { state.withLock { $0.finishedFiles = newValue } }
    }

    /// Pages (1-based index) whose chunks fail to synthesize.
    var failingPages: Set<Int> {
        get { state.withLock { $0.failingPages } }
        set { state.withLock { $0.failingPages = newValue } }
    }

    var completionOrder: CompletionOrder {
        get { state.withLock { $0.completionOrder } }
        set { state.withLock { $0.completionOrder = newValue } }
    }

    /// Thrown by `synthesize` before it reports any chunk.
    var synthesizeError: ExportError? {
        get { state.withLock { $0.synthesizeError } }
        set { state.withLock { $0.synthesizeError = newValue } }
    }

    /// Thrown by `writeFile` for the item with this file stem.
    var writeErrors: [String: ExportError] {
        get { state.withLock { $0.writeErrors } }
        set { state.withLock { $0.writeErrors = newValue } }
    }

    /// When set, `synthesize` reports only this many chunks, then waits until its task is
    /// cancelled and returns without an error: it "stops early when its task is cancelled".
    var reportedChunkLimit: Int? {
        get { state.withLock { $0.reportedChunkLimit } }
        set { state.withLock { $0.reportedChunkLimit = newValue } }
    }

    // MARK: - Call tracking

    var finishedFileCalls: [(stem: String, chunks: [ExportChunk])] { state.withLock { $0.finishedFileCalls } }
    /// The chunks of every `synthesize` call.
    var synthesizeCalls: [[ExportChunk]] { state.withLock { $0.synthesizeCalls } }
    var synthesizedChunks: [ExportChunk] { state.withLock { $0.synthesizeCalls.flatMap { $0 } } }
    var writeCalls: [(stem: String, chunks: [ExportChunk])] { state.withLock { $0.writeCalls } }
    var writtenStems: [String] { state.withLock { $0.writeCalls.map(\.stem) } }
    var events: [Event] { state.withLock { $0.events } }
    var recordCalls: [(files: [String], isFinal: Bool)] {
        state.withLock { state in
            state.events.compactMap { event in
                if case let .record(files, isFinal) = event { (files, isFinal) } else { nil }
            }
        }
    }
    var progress: [ExportProgress] { state.withLock { $0.progress } }

    // MARK: - Effects

    var effects: ExportBookEffects {
        ExportBookEffects(
            finishedFile: { item, chunks in self.finishedFile(item, chunks) },
            synthesize: { chunks, onChunk throws(ExportError) in try await self.synthesize(chunks, onChunk) },
            writeFile: { item, chunks, ready throws(ExportError) in
                for chunk in chunks {
                    guard await ready(chunk) else { throw .workerFailed(pageLabel: chunk.pageLabel, reason: "failed") }
                }
                return try self.writeFile(item, chunks)
            },
            record: { files, isFinal throws(ExportError) in self.record(files, isFinal) }
        )
    }

    var onProgress: @Sendable (ExportProgress) -> Void {
        { progress in self.state.withLock { $0.progress.append(progress) } }
    }

    private func finishedFile(_ item: ExportItem, _ chunks: [ExportChunk]) -> ExportedFile? {
        state.withLock { state in
            state.finishedFileCalls.append((item.fileStem, chunks))
            return state.finishedFiles[item.fileStem]
        }
    }

    private func synthesize(_ chunks: [ExportChunk], _ onChunk: @Sendable (Int, Result<Double, ExportError>) async -> Void) async throws(ExportError) {
        let (order, failingPages, error, limit) = state.withLock { state in
            state.synthesizeCalls.append(chunks)
            return (state.completionOrder, state.failingPages, state.synthesizeError, state.reportedChunkLimit)
        }
        if let error { throw error }
        let indices = order == .inOrder ? Array(chunks.indices) : Array(chunks.indices.reversed())
        for index in indices.prefix(limit ?? indices.count) {
            let chunk = chunks[index]
            state.withLock { $0.events.append(.chunkDone(itemIndex: chunk.itemIndex)) }
            let result: Result<Double, ExportError> = failingPages.contains(chunk.pageIndex)
                ? .failure(.workerFailed(pageLabel: chunk.pageLabel, reason: "engine crashed"))
                : .success(1)
            await onChunk(index, result)
        }
        if limit != nil {
            while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(5)) }
        }
    }

    private func writeFile(_ item: ExportItem, _ chunks: [ExportChunk]) throws(ExportError) -> ExportedFile {
        try state.withLock { state throws(ExportError) in
            state.writeCalls.append((item.fileStem, chunks))
            state.events.append(.write(item.fileStem))
            if let error = state.writeErrors[item.fileStem] { throw error }
            return .stub(for: item, chunks: chunks)
        }
    }

    private func record(_ files: [ExportedFile], _ isFinal: Bool) {
        state.withLock { $0.events.append(.record(files.map(\.fileName), isFinal: isFinal)) }
    }
}

extension ExportedFile {
    /// The file a fake writer makes for `item`: one second of audio per chunk.
    static func stub(for item: ExportItem, chunks: [ExportChunk]) -> ExportedFile {
        ExportedFile(
            number: item.number, fileName: item.fileStem + ".wav", title: item.title, subtitleFileName: nil,
            pageLabels: item.pages.map(\.label), chapterTitles: item.chapters.map(\.title),
            duration: Double(chunks.count), sampleCount: chunks.count * 22_050, byteCount: Int64(chunks.count) * 44_100, cacheKeys: []
        )
    }
}
