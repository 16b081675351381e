/// The side effects an export is made of, injected so the business rules can be tested alone
/// (after `functional-usecases.md`).
public struct ExportBookEffects: Sendable {
    /// The file already written for an item by an earlier run with the same chunks, if any.
    public var finishedFile: @Sendable (ExportItem, [ExportChunk]) async -> ExportedFile?
    /// Synthesizes chunks into the audio cache, calling `onChunk` with each chunk's index
    /// into the given array and its audio length in seconds (or its error) as it completes.
    /// It stops early when its task is cancelled.
    public var synthesize: @Sendable ([ExportChunk], _ onChunk: @escaping @Sendable (Int, Result<Double, ExportError>) async -> Void) async throws(ExportError) -> Void
    /// Writes an item's file (and subtitles) from its synthesized chunks.
    public var writeFile: @Sendable (ExportItem, [ExportChunk]) async throws(ExportError) -> ExportedFile
    /// Records the files done so far (manifest, playlist); called after every file and at the end.
    public var record: @Sendable ([ExportedFile], _ isFinal: Bool) async throws(ExportError) -> Void

    public init(
        finishedFile: @escaping @Sendable (ExportItem, [ExportChunk]) async -> ExportedFile?,
        synthesize: @escaping @Sendable ([ExportChunk], _ onChunk: @escaping @Sendable (Int, Result<Double, ExportError>) async -> Void) async throws(ExportError) -> Void,
        writeFile: @escaping @Sendable (ExportItem, [ExportChunk]) async throws(ExportError) -> ExportedFile,
        record: @escaping @Sendable ([ExportedFile], _ isFinal: Bool) async throws(ExportError) -> Void
    ) {
        self.finishedFile = finishedFile
        self.synthesize = synthesize
        self.writeFile = writeFile
        self.record = record
    }
}

/// Exports `items`: files finished by an earlier run are kept, the others' chunks are
/// synthesized (in parallel, by `effects.synthesize`) and each file is written as soon as all
/// its chunks are ready, in reading order. A chunk that fails does not stop the others: the
/// files that need it are not written, and the export ends with `ExportError.incomplete`.
/// With a `shard`, only that share of the chunks is synthesized (into the cache) and no file is
/// written: a later run without a shard assembles them.
public func exportBook(
    items: [ExportItem],
    shard: ExportShard?,
    effects: ExportBookEffects,
    onProgress: @escaping @Sendable (ExportProgress) -> Void
) async throws(ExportError) -> ExportSummary {
    let allChunks = ExportChunker.chunks(of: items)
    var finished: [Int: ExportedFile] = [:]
    if shard == nil {
        for (index, item) in items.enumerated() {
            if let file = await effects.finishedFile(item, allChunks.filter { $0.itemIndex == index }) {
                finished[index] = file
            }
        }
    }
    let pending = allChunks.filter { finished[$0.itemIndex] == nil }
    let work = shard.map { ExportChunker.shard(pending, $0) } ?? pending
    let tracker = ExportTracker(items: items, chunks: work, finished: finished, onProgress: onProgress)
    await tracker.report()

    async let synthesis: Result<Void, ExportError> = {
        do throws(ExportError) {
            try await effects.synthesize(work) { index, result in await tracker.complete(index, result) }
            // Cancelled, or a synthesizer that left chunks unreported: nobody may wait forever.
            await tracker.synthesisEnded(cancelled: Task.isCancelled)
            return .success(())
        } catch {
            await tracker.abort(error)
            return .failure(error)
        }
    }()

    var files: [ExportedFile] = []
    var failedItems: [String] = []
    var written = 0
    if shard == nil {
        for (index, item) in items.enumerated() {
            if let file = finished[index] {
                files.append(file)
                continue
            }
            switch await tracker.waitForItem(index) {
            case .ready:
                // A file that cannot be written (a full disk) stops the export; leaving this
                // scope cancels the synthesis still under way.
                let file = try await effects.writeFile(item, allChunks.filter { $0.itemIndex == index })
                files.append(file)
                written += 1
                try await effects.record(files, false)
                await tracker.fileWritten(file)
            case .failed:
                failedItems.append(item.fileStem)
            case let .aborted(error):
                throw error
            }
        }
    }
    if case let .failure(error) = await synthesis {
        throw error
    }
    let failedChunks = await tracker.failedChunks
    if failedChunks > 0 {
        if shard == nil { try await effects.record(files, false) }
        throw .incomplete(failedChunks: failedChunks, files: failedItems)
    }
    if shard == nil {
        try await effects.record(files, true)
    }
    return ExportSummary(files: files, skippedFiles: finished.count, writtenFiles: written)
}

/// Which chunks are done, and who waits for which file.
actor ExportTracker {
    enum ItemState { case ready, failed, aborted(ExportError) }

    private let chunks: [ExportChunk]
    private var remaining: [Int: Int] = [:]
    private var failedItems: Set<Int> = []
    private var waiters: [Int: CheckedContinuation<ItemState, Never>] = [:]
    private var abortError: ExportError?
    private(set) var failedChunks = 0
    private var progress: ExportProgress
    private var pagesRemaining: [Int: Int] = [:]
    private let onProgress: @Sendable (ExportProgress) -> Void

    init(items: [ExportItem], chunks: [ExportChunk], finished: [Int: ExportedFile], onProgress: @escaping @Sendable (ExportProgress) -> Void) {
        self.chunks = chunks
        self.onProgress = onProgress
        for chunk in chunks {
            remaining[chunk.itemIndex, default: 0] += 1
            pagesRemaining[chunk.pageIndex, default: 0] += 1
        }
        let pagesTotal = Set(chunks.map(\.pageIndex)).count
        progress = ExportProgress(
            filesDone: finished.count,
            filesTotal: items.count,
            pagesDone: 0,
            pagesTotal: pagesTotal,
            chunksDone: 0,
            chunksTotal: chunks.count,
            audioSeconds: finished.values.reduce(0) { $0 + $1.duration }
        )
    }

    func report() { onProgress(progress) }

    func complete(_ index: Int, _ result: Result<Double, ExportError>) {
        guard chunks.indices.contains(index) else { return }
        let chunk = chunks[index]
        progress.chunksDone += 1
        switch result {
        case let .success(seconds):
            progress.audioSeconds += seconds
        case .failure:
            failedChunks += 1
            failedItems.insert(chunk.itemIndex)
        }
        pagesRemaining[chunk.pageIndex, default: 1] -= 1
        if pagesRemaining[chunk.pageIndex] == 0 { progress.pagesDone += 1 }
        remaining[chunk.itemIndex, default: 1] -= 1
        progress.finishedFile = nil
        onProgress(progress)
        resume(chunk.itemIndex)
    }

    func fileWritten(_ file: ExportedFile) {
        progress.filesDone += 1
        progress.finishedFile = file.fileName
        onProgress(progress)
    }

    func abort(_ error: ExportError) {
        abortError = error
        for (item, waiter) in waiters {
            waiters[item] = nil
            waiter.resume(returning: .aborted(error))
        }
    }

    /// Settles every chunk that was never reported: the export was cancelled, or they failed.
    func synthesisEnded(cancelled: Bool) {
        if cancelled {
            abort(.cancelled)
            return
        }
        for (item, count) in remaining where count > 0 {
            failedChunks += count
            failedItems.insert(item)
            remaining[item] = 0
            resume(item)
        }
    }

    func waitForItem(_ item: Int) async -> ItemState {
        if let state = state(of: item) { return state }
        return await withCheckedContinuation { waiters[item] = $0 }
    }

    private func state(of item: Int) -> ItemState? {
        if let abortError { return .aborted(abortError) }
        guard (remaining[item] ?? 0) <= 0 else { return nil }
        return failedItems.contains(item) ? .failed : .ready
    }

    private func resume(_ item: Int) {
        guard let waiter = waiters[item], let state = state(of: item) else { return }
        waiters[item] = nil
        waiter.resume(returning: state)
    }
}
