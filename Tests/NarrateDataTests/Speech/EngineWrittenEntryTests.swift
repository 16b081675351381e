import Foundation
import Glibc
import Logging
import Synchronization
import NarrateDomain
import Testing

@testable import NarrateData

/// The worker's child writes a miss's cache entry itself; this process checks and renames it.
@Suite("Entries the engine writes itself")
struct EngineWrittenEntryTests {
    typealias Fixtures = AudioCacheFixtures
    let folder: TemporaryDirectory
    let voice = VoiceProfile(voice: "en-us")
    static let text = "The child writes its own entry, and the audio never crosses a pipe."

    init() throws {
        folder = try TemporaryDirectory()
    }

    /// A repository over a real eSpeak worker and a cache in the test's folder.
    private func makeRepository() throws -> (AudioCache, EngineWorkerSynthesizer, TTSRepository) {
        let cache = try AudioCache(directory: folder.path)
        let engine = EngineWorkerSynthesizer(workers: 1)
        return (cache, engine, TTSRepository(synthesizer: engine, cache: cache, logger: Logger(label: "test")))
    }

    private func files(under path: String) -> [String] {
        (FileManager.default.enumerator(atPath: path)?.allObjects as? [String] ?? []).filter { name in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: path + "/" + name, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
    }

    @Test("The child's entry file is byte for byte the one the cache writes from the same audio")
    func childEntryEqualsCodec() async throws {
        // Given
        let cache = try AudioCache(directory: folder.path)
        let sut = EngineWorkerSynthesizer(workers: 1)
        defer { sut.shutdown() }
        let request = SpeechRequest(text: Self.text, voice: voice)
        let key = AudioCacheKey(request: request, engine: try sut.descriptor())
        let draft = try #require(cache.draftEntry(key: key))

        // When
        let outcome = try await sut.synthesize(request, into: draft)
        let inMemory = try await sut.synthesize(request)

        // Then: the worker answered with the marks and length only, and the file is the codec's
        guard case let .storedEntry(sampleRate, sampleCount, marks) = outcome else {
            Issue.record("expected a stored entry, got \(outcome)")
            return
        }
        #expect(sampleRate == inMemory.sampleRate)
        #expect(sampleCount == inMemory.samples.count)
        #expect(marks == inMemory.wordMarks)
        let written = try #require(FileManager.default.contents(atPath: draft.path))
        #expect(Array(written) == (try AudioCacheEntryCodec.encode(inMemory, key: key)))
        let adopted = try await cache.adoptEntry(draft, readBack: true)
        #expect(adopted == inMemory)
        #expect(try await cache.lookup(key: key) == inMemory)
        #expect(!FileManager.default.fileExists(atPath: draft.path))
    }

    @Test("A child that cannot create its entry (a full or read-only disk) sends the audio through the pipe instead")
    func unwritableDraftFallsBackToPipe() async throws {
        // Given: a draft in a folder that does not exist
        let sut = EngineWorkerSynthesizer(workers: 1)
        defer { sut.shutdown() }
        let request = SpeechRequest(text: Self.text, voice: voice)
        let draft = EntryDraft(path: folder.path + "/missing/entry", key: Fixtures.key("x"))

        // When
        let outcome = try await sut.synthesize(request, into: draft)

        // Then
        guard case let .audio(audio) = outcome else {
            Issue.record("expected audio, got \(outcome)")
            return
        }
        #expect(audio == (try await sut.synthesize(request)))
        #expect(!FileManager.default.fileExists(atPath: draft.path))
    }

    @Test("A child killed with half its entry written: the text is tried once more, and no torn entry or temporary file is left")
    func tornEntryLeavesNothing() async throws {
        // Given
        let cache = try AudioCache(directory: folder.path)
        let engine = EngineWorkerSynthesizer(workers: 1, environment: ProcessInfo.processInfo.environment.merging(["NARRATE_WORKER_TEAR_ENTRY_ON": "Sosostris"]) { $1 })
        defer { engine.shutdown() }
        let clean = EngineWorkerSynthesizer(workers: 1)
        defer { clean.shutdown() }
        let sut = TTSRepository(synthesizer: engine, cache: cache, logger: Logger(label: "test"))
        let torn = SpeechRequest(text: "Madame Sosostris had a bad cold.", voice: voice)

        // When
        let spoken = try await sut.synthesize(torn, cachePolicy: .localFirst)
        let after = try await sut.synthesize(SpeechRequest(text: Self.text, voice: voice), cachePolicy: .localFirst)

        // Then: the second try gave the text's own samples, and the cache holds only whole entries
        #expect(engine.crashRetries == 1)
        #expect(spoken.samples == (try await clean.synthesize(torn)).samples)
        #expect(after.samples.count > 0)
        let entries = files(under: folder.path + "/objects")
        #expect(entries.allSatisfy { !TemporaryFileName.isTemporary(($0 as NSString).lastPathComponent, legacyCache: true) }, "\(entries)")
        #expect(try await cache.lookup(key: AudioCacheKey(request: torn, engine: try engine.descriptor()))?.samples ?? spoken.samples == spoken.samples)
    }

    @Test("A miss is stored by the engine and handed back verified; fill stores without handing it back")
    func repositoryStoresThroughDrafts() async throws {
        // Given
        let (cache, engine, sut) = try makeRepository()
        defer { engine.shutdown() }
        let first = SpeechRequest(text: Self.text, voice: voice)
        let second = SpeechRequest(text: "A second text, filled for an export.", voice: voice)

        // When
        let audio = try await sut.synthesize(first, cachePolicy: .localFirst)
        let seconds = try await sut.fill(second)
        let again = try await sut.fill(second)

        // Then
        #expect(audio == (try await engine.synthesize(first)))
        let reference = try await engine.synthesize(second)
        #expect(abs(seconds - reference.duration) < 1e-9)
        #expect(again == 0)
        let secondKey = AudioCacheKey(request: second, engine: try engine.descriptor())
        #expect(try await cache.lookup(key: secondKey) == reference)
        let source = try #require(await cache.freshSource(key: secondKey))
        #expect(source.sampleCount == reference.samples.count)
        #expect(source.wordMarks == reference.wordMarks)
        #expect(files(under: folder.path + "/objects").count == 2)
    }

    @Test("A miss comes as a clip of the entry, a hit as audio; a WAV copied from the clip equals one written from the audio")
    func piecesAndCopiedWAV() async throws {
        // Given
        let (cache, engine, sut) = try makeRepository()
        defer { engine.shutdown() }
        let request = SpeechRequest(text: Self.text, voice: voice)

        // When
        let miss = try await sut.piece(request)
        let hit = try await sut.piece(request)

        // Then
        guard case let .clip(clip) = miss, case let .audio(audio) = hit else {
            Issue.record("expected a clip then audio, got \(miss) and \(hit)")
            return
        }
        #expect(clip.sampleCount == audio.samples.count)
        #expect(clip.wordMarks == audio.wordMarks)
        let key = try #require(AudioCacheKey(hex: clip.cacheKey))
        let source = try #require(await cache.freshSource(key: key))
        let copied = try WAVWriterFixture(path: folder.path + "/copied.wav")
        let written = try WAVWriterFixture(path: folder.path + "/written.wav")
        try copied.writer.append(source)
        try copied.writer.finish()
        try written.writer.append(audio)
        try written.writer.finish()
        #expect(FileManager.default.contents(atPath: copied.path) == FileManager.default.contents(atPath: written.path))
    }

    @Test("An entry the engine wrote badly is not taken: the text is spoken again in memory and stored from there, with one warning")
    func badEngineEntryIsReplaced() async throws {
        // Given: an engine whose entries are garbage
        let cache = try AudioCache(directory: folder.path)
        let engine = GarbageEntryEngine()
        let (logger, logs) = LogHandlerMock.logger()
        let sut = TTSRepository(synthesizer: engine, cache: cache, logger: logger)
        let request = SpeechRequest(text: Self.text, voice: voice)

        // When
        let audio = try await sut.synthesize(request, cachePolicy: .localFirst)

        // Then
        #expect(audio == GarbageEntryEngine.audio)
        #expect(engine.calls.withLock { $0 } == ["into draft", "in memory"])
        let key = AudioCacheKey(request: request, engine: try engine.descriptor())
        #expect(try await cache.lookup(key: key) == GarbageEntryEngine.audio)
        #expect(files(under: folder.path + "/objects").count == 1)
        #expect(logs.messages.filter { $0.contains("could not store audio") }.count == 1)
    }

    @Test("A draft under another key, or cut short, is not adopted, and nothing is left of it")
    func badDraftsAreRefused() async throws {
        // Given
        let cache = try AudioCache(directory: folder.path)
        let key = Fixtures.key("wanted")
        let wrong = try #require(cache.draftEntry(key: key))
        try Data(AudioCacheEntryCodec.encode(Fixtures.audio(), key: Fixtures.key("other"))).write(to: URL(fileURLWithPath: wrong.path))
        let short = try #require(cache.draftEntry(key: key))
        try Data(AudioCacheEntryCodec.encode(Fixtures.audio(), key: key).dropLast(10)).write(to: URL(fileURLWithPath: short.path))

        // When / Then
        await #expect(throws: CacheError.self) { _ = try await cache.adoptEntry(wrong, readBack: false) }
        await #expect(throws: CacheError.self) { _ = try await cache.adoptEntry(short, readBack: true) }
        #expect(try await cache.lookup(key: key) == nil)
        #expect(files(under: folder.path + "/objects").isEmpty)
    }

    @Test("Only entries this cache wrote in this process are copied without being read back, and only while the file is theirs")
    func freshSourcesAreThisProcessOwn() async throws {
        // Given: an entry stored by one cache, and a second cache on the same folder (a later run)
        let key = Fixtures.key("fresh")
        let audio = Fixtures.audio()
        let first = try AudioCache(directory: folder.path)
        try await first.store(audio, key: key)
        let later = try AudioCache(directory: folder.path)

        // When
        let found = try #require(await first.freshSource(key: key))
        let bytes = try #require(FileManager.default.contents(atPath: found.path))
        let laterSource = await later.freshSource(key: key)
        try await later.store(Fixtures.audio(seed: 2), key: key)  // the file replaced
        let afterReplace = await first.freshSource(key: key)

        // Then
        #expect(found.pcmOffset == AudioCacheEntryCodec.fixedHeaderSize + audio.wordMarks.count * AudioCacheEntryCodec.markSize)
        #expect(found.sampleCount == audio.samples.count)
        #expect(found.wordMarks == audio.wordMarks)
        let pcm = bytes[found.pcmOffset..<(found.pcmOffset + found.sampleCount * 2)]
        #expect(Array(pcm) == audio.samples.withUnsafeBytes { Array($0) }, "the PCM lies where the source says")
        #expect(laterSource == nil)
        #expect(afterReplace == nil)
    }
}

/// A WAV writer on a new file.
private struct WAVWriterFixture {
    let path: String
    let writer: WAVWriter

    init(path: String) throws {
        self.path = path
        writer = try WAVWriter(path: path)
    }
}

/// An engine that answers a draft with garbage in it, and in memory with `audio`.
private final class GarbageEntryEngine: SpeechSynthesizerContract {
    static let audio = AudioCacheFixtures.audio()
    let calls = Mutex<[String]>([])

    func descriptor() throws(SpeechError) -> EngineDescriptor { AudioCacheFixtures.engine }

    func synthesize(_ request: SpeechRequest) async throws(SpeechError) -> SpeechAudio {
        calls.withLock { $0.append("in memory") }
        return Self.audio
    }

    func synthesize(_ request: SpeechRequest, into draft: EntryDraft) async throws(SpeechError) -> SynthesisOutcome {
        calls.withLock { $0.append("into draft") }
        FileManager.default.createFile(atPath: draft.path, contents: Data(repeating: 7, count: 500))
        return .storedEntry(sampleRate: Self.audio.sampleRate, sampleCount: Self.audio.samples.count, wordMarks: Self.audio.wordMarks)
    }
}
