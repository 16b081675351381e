import Foundation
import Glibc
import Logging
import NarrateDomain
import Synchronization

extension BookExportOptions {
    /// Where the audio files go: the folder itself, or for a read-along EPUB a work folder in it
    /// (the EPUB holds the audio; these copies make a re-run skip what is done).
    public var audioDirectory: String {
        format == .epub ? directory + "/" + ReadAlongEPUBBuilder.workFolderName : directory
    }
}

/// A whole book to audio files: composes the export business function (`exportBook`) with
/// the cache, the engine's worker processes, the encoders and the manifest.
public struct BookExporter: BookExportRepositoryContract {
    private let cache: any AudioCacheContract
    private let repository: any TTSRepositoryContract
    private let synthesizer: any SpeechSynthesizerContract
    private let logger: Logger
    /// Whether chunks may come from a fallback engine (then a file holding any is not taken as
    /// finished by a later run, which replaces them with the API's audio).
    private let hasFallback: Bool
    /// Told the characters of each chunk found in the cache (what a remote API was not asked for).
    private let onCached: @Sendable (Int) -> Void

    /// Requests kept in hand per worker: while the parent stores one chunk in the cache, the
    /// worker already synthesizes the next, and one more waits, so eSpeak never idles.
    static let depth = 3

    /// - Parameters:
    ///   - repository: speech through `cache`, synthesized by `synthesizer`.
    ///   - synthesizer: its concurrency is how many chunks are synthesized at once.
    ///   - hasFallback: whether `repository` falls back on another engine.
    ///   - onCached: told the characters of each chunk to synthesize that the cache already has.
    public init(
        cache: any AudioCacheContract, repository: any TTSRepositoryContract, synthesizer: any SpeechSynthesizerContract,
        logger: Logger, hasFallback: Bool = false, onCached: @escaping @Sendable (Int) -> Void = { _ in }
    ) {
        self.onCached = onCached
        self.cache = cache
        self.repository = repository
        self.synthesizer = synthesizer
        self.logger = logger
        self.hasFallback = hasFallback
    }

    public func export(
        book: Book,
        voice: VoiceProfile,
        options: BookExportOptions,
        onProgress: @escaping @Sendable (ExportProgress) -> Void
    ) async throws(ExportError) -> ExportSummary {
        let voice = voice.reading(book)
        let items = try ExportPlanner.plan(book: book, split: options.split, selection: options.selection)
        let directory = options.directory
        if options.shard == nil {
            try Self.prepare(directory)
            if options.audioDirectory != directory { try Self.prepare(options.audioDirectory) }
        }
        let previous = ExportManifest.read(from: directory)
        // Unless an earlier run finished this folder, synthesis is likely: the workers start now,
        // while the book is cut into chunks, rather than after.
        if options.shard != nil || previous?.complete != true {
            try? synthesizer.prestart()
        }
        // An engine that reads no phonemes is given no lexicons, and keyed without them
        // (as `TTSRepository` keys what it stores).
        let acceptsPhonemes = synthesizer.acceptsPhonemes
        let keyed: @Sendable (VoiceProfile) -> VoiceProfile = { voice in
            var keyVoice = voice
            if !acceptsPhonemes { keyVoice.lexicons = [] }
            return keyVoice
        }
        let cast = try Self.validated(options.cast?.mapVoices { $0.reading(book) })
        // Each voice's own engine (a Piper voice's model), as `TTSRepository` keys it.
        var engines: [VoiceProfile: EngineDescriptor] = [:]
        for speaker in [voice] + (cast?.voices ?? []) where engines[keyed(speaker)] == nil {
            do { engines[keyed(speaker)] = try await synthesizer.descriptor(for: SpeechRequest(text: "", voice: keyed(speaker))) } catch { throw .speech(error) }
        }
        let engine = engines[keyed(voice)]!
        let key: @Sendable (ExportChunk) -> AudioCacheKey = { [engines] chunk in
            let keyVoice = keyed(chunk.voice ?? voice)
            return AudioCacheKey(request: SpeechRequest(text: chunk.text, voice: keyVoice), engine: engines[keyVoice] ?? engine)
        }
        let manifestBase = ExportManifest(
            generator: "narrate",
            book: .init(title: book.metadata.title, authors: book.metadata.authors, language: book.metadata.language, identifier: book.metadata.identifier),
            voice: voice,
            settings: .init(split: options.split, format: options.format, subtitles: options.subtitles, selection: Self.describe(options.selection)),
            complete: false,
            files: [],
            engine: .init(id: engine.id, version: engine.version, timing: synthesizer.timing(for: voice))
        )
        let writer = ExportFileWriter(
            directory: options.audioDirectory, format: options.format, subtitles: options.subtitles, book: book, voice: voice,
            sampleRate: engine.sampleRate, fileCount: items.count, repository: repository, cache: cache, key: key
        )
        let cache = cache
        let repository = repository
        let width = synthesizer.concurrency * Self.depth
        let hasFallback = hasFallback
        // Who reads it, as a listener would name it.
        let narrator = synthesizer.narrator(speaking: voice)
        let onCached = onCached
        let logger = logger
        let effects = ExportBookEffects(
            finishedFile: { item, itemChunks in
                Self.finishedFile(item, chunks: itemChunks, key: key, options: options, previous: previous)
            },
            synthesize: { work, onChunk throws(ExportError) in
                var missing: [Int] = []
                let present = await cache.containsEntries(keys: work.map(key))
                for (index, chunk) in work.enumerated() {
                    if present[index] {
                        onCached(chunk.text.unicodeScalars.count)
                        await onChunk(index, .success(0))
                    } else {
                        missing.append(index)
                    }
                }
                logger.debug("\(work.count - missing.count) chunks already in the cache, \(missing.count) to synthesize, \(width) at a time")
                let positions = missing
                let stopped = await Self.synthesize(positions.map { work[$0] }, voice: voice, repository: repository, width: width, logger: logger) { index, result in
                    await onChunk(positions[index], result)
                }
                if let stopped { throw .speech(stopped) }
            },
            writeFile: { item, itemChunks, ready throws(ExportError) in
                var file = try await writer.write(item, chunks: itemChunks, cacheKeys: itemChunks.map { key($0).hex }, ready: ready)
                if hasFallback {
                    // A chunk the fallback engine spoke has no entry under the API's key: the
                    // file is not the API's, and a later run writes it again.
                    for (index, chunk) in itemChunks.enumerated() where !(await cache.containsEntry(key: key(chunk))) {
                        file.cacheKeys[index] = "fallback"
                    }
                }
                return file
            },
            record: { files, isFinal throws(ExportError) in
                var manifest = manifestBase
                manifest.files = files
                manifest.complete = isFinal
                try manifest.write(to: directory)
                if isFinal, options.format == .epub {
                    let builder = ReadAlongEPUBBuilder(
                        book: book, items: items, files: files, options: options, narrator: narrator, logger: logger
                    )
                    try builder.build()
                } else if isFinal {
                    // The same UTF-8 list twice: .m3u8 is the name that says UTF-8 to every player.
                    let contents = Array(Playlist.contents(files).utf8)
                    for name in ["playlist.m3u", "playlist.m3u8"] {
                        let playlist = directory + "/" + name
                        try ExportError.writing(playlist) { () throws(SystemCallError) in try AtomicFile.writeWholeIfChanged(contents, to: playlist) }
                    }
                    // What an audiobook server (Audiobookshelf) shows when the folder is dropped in.
                    let shelf = AudiobookshelfMetadata(book: book.metadata, narrator: narrator, files: files)
                    let shelfPath = directory + "/" + AudiobookshelfMetadata.fileName
                    guard let shelfBytes = try? shelf.data() else { return }
                    try ExportError.writing(shelfPath) { () throws(SystemCallError) in try AtomicFile.writeWholeIfChanged(shelfBytes, to: shelfPath) }
                    if let cover = EmbeddableCover(book.cover) {
                        let coverPath = directory + "/cover." + cover.fileExtension
                        try ExportError.writing(coverPath) { () throws(SystemCallError) in try AtomicFile.writeWholeIfChanged(cover.data, to: coverPath) }
                    }
                }
            }
        )
        let outcome: Result<ExportSummary, ExportError>
        do {
            outcome = .success(try await exportBook(items: items, voice: voice, cast: cast, shard: options.shard, effects: effects, onProgress: onProgress))
        } catch {
            outcome = .failure(error)
        }
        // The workers are not left idling in a host app; the next export starts them again.
        synthesizer.shutdown()
        try? await cache.flush()
        return try outcome.get()
    }

    /// The cast with every voice validated, its error an export's.
    private static func validated(_ cast: VoiceCast?) throws(ExportError) -> VoiceCast? {
        do { return try cast?.validated() } catch { throw .speech(error) }
    }

    /// Synthesizes `chunks` into the cache, `width` at a time, reporting each (by index) as it
    /// completes. A chunk that fails is reported and the others go on; when the task is
    /// cancelled no new chunk starts, and it returns only once none is still being stored.
    /// A failure that every other chunk would meet too (the API refused the key, the cap on
    /// characters is reached) stops it: no new chunk starts, and that error is returned.
    @discardableResult
    static func synthesize(
        _ chunks: [ExportChunk],
        voice: VoiceProfile,
        repository: any TTSRepositoryContract,
        width: Int,
        logger: Logger,
        onChunk: @escaping @Sendable (Int, Result<Double, ExportError>) async -> Void
    ) async -> SpeechError? {
        let stop = StopSignal()
        await withTaskGroup(of: Void.self) { group in
            var next = 0
            func start() {
                let index = next
                let chunk = chunks[index]
                next += 1
                group.addTask {
                    do throws(SpeechError) {
                        // Into the cache only: the files are assembled from the entries afterwards.
                        let seconds = try await repository.fill(SpeechRequest(text: chunk.text, voice: chunk.voice ?? voice))
                        await onChunk(index, .success(seconds))
                    } catch {
                        if error.stopsEveryText {
                            let first = stop.error.withLock { stopped in
                                defer { if stopped == nil { stopped = error } }
                                return stopped == nil
                            }
                            if first { logger.debug("synthesis stopped on page \(chunk.pageLabel): \(error)") }
                        } else {
                            logger.error("synthesis failed on page \(chunk.pageLabel.escapedExcerpt(limit: 64)): \(error.chunkFailure.escapedExcerpt(limit: 2_000))")
                        }
                        await onChunk(index, .failure(.workerFailed(pageLabel: chunk.pageLabel, reason: error.chunkFailure)))
                    }
                }
            }
            while next < chunks.count, next < max(1, width) { start() }
            while await group.next() != nil {
                if next < chunks.count, !Task.isCancelled, stop.error.withLock({ $0 == nil }) { start() }
            }
        }
        return stop.error.withLock { $0 }
    }

    /// The error that stopped a batch, shared by its tasks.
    private final class StopSignal: Sendable {
        let error = Mutex<SpeechError?>(nil)
    }

    /// The file an earlier run wrote for `item`, if it is there, whole, and made of the same audio.
    private static func finishedFile(_ item: ExportItem, chunks: [ExportChunk], key: (ExportChunk) -> AudioCacheKey, options: BookExportOptions, previous: ExportManifest?) -> ExportedFile? {
        let fileName = "\(item.fileStem).\(options.format.audioFileExtension)"
        guard let previous, previous.settings.format == options.format,
              let entry = previous.files.first(where: { $0.number == item.number && $0.fileName == fileName }),
              entry.cacheKeys == chunks.map({ key($0).hex })
        else { return nil }
        let path = options.audioDirectory + "/" + fileName
        guard let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value, size == entry.byteCount else { return nil }
        if let subtitles = options.subtitles {
            let name = "\(item.fileStem).\(subtitles.rawValue)"
            guard entry.subtitleFileName == name, FileManager.default.fileExists(atPath: options.directory + "/" + name) else { return nil }
        }
        if options.format == .epub {
            let name = ReadAlongEPUBBuilder.timingFileName(stem: item.fileStem)
            guard entry.subtitleFileName == name, FileManager.default.fileExists(atPath: options.audioDirectory + "/" + name) else { return nil }
        }
        return entry
    }

    /// Creates the folder, and removes temporary files that processes killed earlier left in it.
    private static func prepare(_ directory: String) throws(ExportError) {
        try ExportError.writing(directory) { () throws(SystemCallError) in
            try Folder.makeAll(directory)
            guard access(directory, W_OK) == 0 else { throw .last("access", directory) }
        }
        TemporaryFileName.removeAbandoned(in: directory)
    }

    private static func describe(_ selection: ExportSelection) -> String {
        switch selection {
        case .all: "all"
        case let .pages(range): "pages \(range.lowerBound)-\(range.upperBound)"
        case let .chapters(range): "chapters \(range.lowerBound)-\(range.upperBound)"
        }
    }
}
