import Synchronization
import Testing

@testable import NarrateDomain

@Suite struct ExportBookTests {
    /// Three files of two pages; page 3 (the second file's first) is long enough for several chunks.
    static let items: [ExportItem] = {
        let pages = (1...6).map { index in
            Page(index: index, label: String(index), text: index == 3 ? TextFixtures.longText(paragraphs: 3, sentences: 12) : "Page \(index) is short.")
        }
        return (0..<3).map { file in
            ExportItem(
                number: file + 1, fileStem: "00\(file + 1) - Chapter \(file + 1)", title: "Chapter \(file + 1)",
                pages: Array(pages[(file * 2)...(file * 2 + 1)]), chapters: [.init(title: "Chapter \(file + 1)", pageOffset: 0)]
            )
        }
    }()
    static let stems = items.map(\.fileStem)
    static let chunks = ExportChunker.chunks(of: items)

    static func chunks(ofItem index: Int) -> [ExportChunk] {
        chunks.filter { $0.itemIndex == index }
    }

    static func file(_ index: Int) -> ExportedFile {
        .stub(for: items[index], chunks: chunks(ofItem: index))
    }

    let fake: ExportBookEffectsFake

    init() {
        fake = ExportBookEffectsFake()
    }

    private func export(shard: ExportShard? = nil) async throws(ExportError) -> ExportSummary {
        try await exportBook(items: Self.items, shard: shard, effects: fake.effects, onProgress: fake.onProgress)
    }

    @Test("Every chunk is synthesized, every file written with its chunks, and the summary lists them in order")
    func exportsEveryFile() async throws {
        // When
        let summary = try await export()

        // Then
        #expect(Self.chunks(ofItem: 1).count >= 3)
        #expect(fake.synthesizedChunks == Self.chunks)
        #expect(fake.writtenStems == Self.stems)
        #expect(fake.writeCalls.map(\.chunks) == (0..<3).map { Self.chunks(ofItem: $0) })
        #expect(fake.finishedFileCalls.map(\.stem) == Self.stems)
        #expect(fake.finishedFileCalls.map(\.chunks) == (0..<3).map { Self.chunks(ofItem: $0) })
        #expect(summary == ExportSummary(files: (0..<3).map(Self.file), skippedFiles: 0, writtenFiles: 3))
    }

    @Test("Files an earlier run finished are neither synthesized nor written again, and keep their place")
    func finishedFilesAreKept() async throws {
        // Given
        let earlier = ExportedFile.stub(for: Self.items[1], chunks: [])
        fake.finishedFiles = [Self.stems[1]: earlier]

        // When
        let summary = try await export()

        // Then
        #expect(fake.synthesizedChunks == Self.chunks(ofItem: 0) + Self.chunks(ofItem: 2))
        #expect(fake.writtenStems == [Self.stems[0], Self.stems[2]])
        #expect(summary == ExportSummary(files: [Self.file(0), earlier, Self.file(2)], skippedFiles: 1, writtenFiles: 2))
        #expect(fake.progress.first?.filesDone == 1)
        #expect(fake.progress.first?.chunksTotal == Self.chunks.count - Self.chunks(ofItem: 1).count)
    }

    @Test("Files are written in reading order even when their chunks complete in reverse")
    func filesWrittenInReadingOrder() async throws {
        // Given
        fake.completionOrder = .reversed

        // When
        _ = try await export()

        // Then
        let writes = fake.events.compactMap { event -> String? in
            if case let .write(stem) = event { stem } else { nil }
        }
        #expect(writes == Self.stems)
        let firstWrite = fake.events.firstIndex { if case .write = $0 { true } else { false } }
        let lastChunk = fake.events.lastIndex { if case .chunkDone = $0 { true } else { false } }
        #expect(firstWrite != nil && lastChunk != nil && firstWrite! > lastChunk!)
    }

    @Test("A failed chunk leaves its file unwritten, the others are written, and the export ends incomplete naming it")
    func failedChunkLeavesFileUnwritten() async throws {
        // Given
        fake.failingPages = [3]
        let failedChunks = Self.chunks.filter { $0.pageIndex == 3 }.count

        // When / Then
        await #expect(throws: ExportError.incomplete(failedChunks: failedChunks, files: [Self.stems[1]])) {
            _ = try await export()
        }
        #expect(fake.synthesizedChunks == Self.chunks)
        #expect(fake.writtenStems == [Self.stems[0], Self.stems[2]])
        #expect(fake.recordCalls.allSatisfy { !$0.isFinal })
        #expect(fake.recordCalls.last?.files == [Self.stems[0] + ".wav", Self.stems[2] + ".wav"])
    }

    @Test("A shard synthesizes only its share of the chunks and writes or records nothing", arguments: [1, 2])
    func shardSynthesizesItsShare(index: Int) async throws {
        // Given
        let shard = ExportShard(index: index, count: 2)

        // When
        let summary = try await export(shard: shard)

        // Then
        let share = ExportChunker.shard(Self.chunks, shard)
        #expect(!share.isEmpty && share.count < Self.chunks.count)
        #expect(fake.synthesizedChunks == share)
        #expect(fake.finishedFileCalls.isEmpty)
        #expect(fake.writeCalls.isEmpty)
        #expect(fake.recordCalls.isEmpty)
        #expect(summary == ExportSummary(files: [], skippedFiles: 0, writtenFiles: 0))
        #expect(fake.progress.last?.chunksDone == share.count)
        #expect(fake.progress.last?.chunksTotal == share.count)
    }

    @Test("A failed chunk in a shard ends the shard incomplete without writing or recording")
    func failedChunkInShard() async throws {
        // Given
        fake.failingPages = [1]

        // When / Then
        await #expect(throws: ExportError.incomplete(failedChunks: 1, files: [])) {
            _ = try await export(shard: ExportShard(index: 1, count: 2))
        }
        #expect(fake.writeCalls.isEmpty)
        #expect(fake.recordCalls.isEmpty)
    }

    @Test("A write error stops the export with that error: no later file is written, nothing is final")
    func writeErrorStopsExport() async throws {
        // Given
        let failure = ExportError.outputFailed(OutputError(path: "/out/002 - Chapter 2.mp3", cause: .noSpace))
        fake.writeErrors = [Self.stems[1]: failure]

        // When / Then
        await #expect(throws: failure) {
            _ = try await export()
        }
        #expect(fake.writtenStems == [Self.stems[0], Self.stems[1]])
        #expect(fake.recordCalls.map(\.files) == [[Self.stems[0] + ".wav"]])
        #expect(fake.recordCalls.allSatisfy { !$0.isFinal })
    }

    @Test("A synthesis error stops the export with that error before any file is written")
    func synthesisErrorStopsExport() async throws {
        // Given
        let failure = ExportError.speech(.engineUnavailable(reason: "no espeak-ng-data"))
        fake.synthesizeError = failure

        // When / Then
        await #expect(throws: failure) {
            _ = try await export()
        }
        #expect(fake.writeCalls.isEmpty)
        #expect(fake.recordCalls.isEmpty)
    }

    @Test("The files are recorded after each file, then once more as final")
    func recordsAfterEachFileAndAtTheEnd() async throws {
        // When
        _ = try await export()

        // Then
        let names = Self.stems.map { $0 + ".wav" }
        #expect(fake.recordCalls.map(\.files) == [Array(names[0...0]), Array(names[0...1]), names, names])
        #expect(fake.recordCalls.map(\.isFinal) == [false, false, false, true])
        let events = fake.events.filter { if case .chunkDone = $0 { false } else { true } }
        #expect(events == [
            .write(Self.stems[0]), .record(Array(names[0...0]), isFinal: false),
            .write(Self.stems[1]), .record(Array(names[0...1]), isFinal: false),
            .write(Self.stems[2]), .record(names, isFinal: false),
            .record(names, isFinal: true),
        ])
    }

    @Test("Progress starts at zero and reaches every chunk, page and file")
    func progressReachesTotals() async throws {
        // When
        _ = try await export()

        // Then
        let progress = fake.progress
        #expect(progress.first == ExportProgress(filesDone: 0, filesTotal: 3, pagesDone: 0, pagesTotal: 6, chunksDone: 0, chunksTotal: Self.chunks.count))
        #expect(progress.last?.chunksDone == Self.chunks.count)
        #expect(progress.last?.chunksTotal == Self.chunks.count)
        #expect(progress.last?.filesDone == 3)
        #expect(progress.last?.filesTotal == 3)
        #expect(progress.last?.pagesDone == 6)
        #expect(progress.last?.audioSeconds == Double(Self.chunks.count))
        #expect(progress.map(\.chunksDone) == progress.map(\.chunksDone).sorted())
        #expect(progress.compactMap(\.finishedFile) == Self.stems.map { $0 + ".wav" })
    }

    @Test("Cancelling the export ends it, although synthesis then stops without reporting every chunk")
    func cancellationEndsExport() async throws {
        // Given synthesis that reports the first file's chunks, then stops early once cancelled
        fake.reportedChunkLimit = Self.chunks(ofItem: 0).count
        let effects = fake.effects
        let onProgress = fake.onProgress
        let task = Task { try await exportBook(items: Self.items, shard: nil, effects: effects, onProgress: onProgress) }
        try await Self.waitForEvent { fake.writeCalls.count == 1 }

        // When
        task.cancel()
        let ended = Mutex(false)
        Task {
            _ = await task.result
            ended.withLock { $0 = true }
        }
        try await Self.waitForEvent { ended.withLock { $0 } }

        // Then
        #expect(fake.writtenStems == [Self.stems[0]])
        #expect(ended.withLock { $0 })
    }

    /// Polls `condition` every few milliseconds until it holds. The bound is a watchdog of
    /// minutes that only ends a hang: a full run on two cores (1,000 tests and the end-to-end
    /// suites' processes beside them) has kept this test's steps waiting two minutes for a
    /// thread, so what the test checks is the event, never how soon it came.
    private static func waitForEvent(until condition: () -> Bool) async throws {
        let watchdog = ContinuousClock.now + .seconds(600)
        while !condition(), ContinuousClock.now < watchdog {
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}
