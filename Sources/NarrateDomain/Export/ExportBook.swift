/// The side effects an export is made of, injected so the business rules can be tested alone
/// (after `functional-usecases.md`).
public struct ExportBookEffects: Sendable {
    /// The file already written for an item by an earlier run with the same chunks, if any.
    public var finishedFile: @Sendable (ExportItem, [ExportChunk]) async -> ExportedFile?
    /// Synthesizes chunks into the audio cache, calling `onChunk` with each chunk's index
    /// into the given array and its audio length in seconds (or its error) as it completes.
    /// It stops early when its task is cancelled.
    public var synthesize: @Sendable ([ExportChunk], _ onChunk: @escaping @Sendable (Int, Result<Double, ExportError>) async -> Void) async throws(ExportError) -> Void
    /// Writes an item's file (and subtitles) from its chunks, in order, as they are
    /// synthesized: before it reads a chunk's audio it awaits `ready(chunk)`, which is false
    /// when that chunk failed (the writer then discards what it wrote and throws).
    public var writeFile: @Sendable (ExportItem, [ExportChunk], _ ready: @escaping @Sendable (ExportChunk) async -> Bool) async throws(ExportError) -> ExportedFile
    /// Records the files done so far (manifest, playlist); called after every file and at the end.
    public var record: @Sendable ([ExportedFile], _ isFinal: Bool) async throws(ExportError) -> Void

    public init(
        finishedFile: @escaping @Sendable (ExportItem, [ExportChunk]) async -> ExportedFile?,
        synthesize: @escaping @Sendable ([ExportChunk], _ onChunk: @escaping @Sendable (Int, Result<Double, ExportError>) async -> Void) async throws(ExportError) -> Void,
        writeFile: @escaping @Sendable (ExportItem, [ExportChunk], _ ready: @escaping @Sendable (ExportChunk) async -> Bool) async throws(ExportError) -> ExportedFile,
        record: @escaping @Sendable ([ExportedFile], _ isFinal: Bool) async throws(ExportError) -> Void
    ) {
        self.finishedFile = finishedFile
        self.synthesize = synthesize
        self.writeFile = writeFile
        self.record = record
    }
}

/// Exports `items`: files finished by an earlier run are kept, the others' chunks are
/// synthesized (in parallel, by `effects.synthesize`) while the files are written in reading
/// order, each chunk as soon as it is ready (a whole-book file streams along with synthesis). A chunk that fails does not stop the others: the
/// files that need it are not written, and the export ends with `ExportError.incomplete`.
/// With a `shard`, only that share of the chunks is synthesized (into the cache) and no file is
/// written: a later run without a shard assembles them.
public func exportBook(
    items: [ExportItem],
    voice: VoiceProfile? = nil,
    cast: VoiceCast? = nil,
    shard: ExportShard?,
    effects: ExportBookEffects,
    onProgress: @escaping @Sendable (ExportProgress) -> Void
) async throws(ExportError) -> ExportSummary {
    let allChunks = ExportChunker.chunks(of: items, voice: voice, cast: cast)
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
            // A file that cannot be written (a full disk) stops the export; leaving this scope
            // cancels the synthesis still under way. A file one of whose chunks failed is
            // skipped, and the export goes on.
            do throws(ExportError) {
                let file = try await effects.writeFile(item, allChunks.filter { $0.itemIndex == index }) { chunk in
                    await tracker.waitForChunk(chunk)
                }
                files.append(file)
                written += 1
                try await effects.record(files, false)
                await tracker.fileWritten(file)
            } catch {
                if let abortError = await tracker.abortError { throw abortError }
                guard await tracker.hasFailures(item: index) else { throw error }
                failedItems.append(item.fileStem)
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

/// Which chunks are done, and who waits for which chunk.
actor ExportTracker {
    private let chunks: [ExportChunk]
    private var positions: [ExportChunk: Int] = [:]
    /// nil: pending; true: done; false: failed.
    private var states: [Bool?]
    private var failedItems: Set<Int> = []
    private var waiters: [Int: [CheckedContinuation<Bool, Never>]] = [:]
    private(set) var abortError: ExportError?
    private(set) var failedChunks = 0
    private var progress: ExportProgress
    private var pagesRemaining: [Int: Int] = [:]
    private let onProgress: @Sendable (ExportProgress) -> Void

    init(items: [ExportItem], chunks: [ExportChunk], finished: [Int: ExportedFile], onProgress: @escaping @Sendable (ExportProgress) -> Void) {
        self.chunks = chunks
        self.onProgress = onProgress
        states = Array(repeating: nil, count: chunks.count)
        for (position, chunk) in chunks.enumerated() {
            positions[chunk] = position
            pagesRemaining[chunk.pageIndex, default: 0] += 1
        }
        progress = ExportProgress(
            filesDone: finished.count,
            filesTotal: items.count,
            pagesDone: 0,
            pagesTotal: pagesRemaining.count,
            chunksDone: 0,
            chunksTotal: chunks.count,
            audioSeconds: finished.values.reduce(0) { $0 + $1.duration }
        )
    }

    func report() { onProgress(progress) }

    func complete(_ index: Int, _ result: Result<Double, ExportError>) {
        guard states.indices.contains(index), states[index] == nil else { return }
        let chunk = chunks[index]
        progress.chunksDone += 1
        switch result {
        case let .success(seconds):
            progress.audioSeconds += seconds
            states[index] = true
        case .failure:
            failedChunks += 1
            failedItems.insert(chunk.itemIndex)
            states[index] = false
        }
        pagesRemaining[chunk.pageIndex, default: 1] -= 1
        if pagesRemaining[chunk.pageIndex] == 0 { progress.pagesDone += 1 }
        progress.finishedFile = nil
        onProgress(progress)
        resume(index)
    }

    func fileWritten(_ file: ExportedFile) {
        progress.filesDone += 1
        progress.finishedFile = file.fileName
        onProgress(progress)
    }

    func hasFailures(item: Int) -> Bool {
        failedItems.contains(item)
    }

    func abort(_ error: ExportError) {
        abortError = error
        for index in waiters.keys { resume(index) }
    }

    /// Settles every chunk that was never reported: the export was cancelled, or they failed.
    func synthesisEnded(cancelled: Bool) {
        if cancelled {
            abort(.cancelled)
            return
        }
        for index in states.indices where states[index] == nil {
            complete(index, .failure(.workerFailed(pageLabel: chunks[index].pageLabel, reason: "it was never synthesized")))
        }
    }

    /// Waits until `chunk` is synthesized: true when its audio is ready, false when it failed
    /// or the export was aborted. A chunk this export does not synthesize is ready.
    func waitForChunk(_ chunk: ExportChunk) async -> Bool {
        guard let index = positions[chunk] else { return true }
        if let ready = state(of: index) { return ready }
        return await withCheckedContinuation { waiters[index, default: []].append($0) }
    }

    private func state(of index: Int) -> Bool? {
        if abortError != nil { return false }
        return states[index]
    }

    private func resume(_ index: Int) {
        guard let ready = state(of: index), let list = waiters.removeValue(forKey: index) else { return }
        for waiter in list { waiter.resume(returning: ready) }
    }
}
