import Foundation
import NarrateDomain
import Synchronization
import Testing

@testable import NarrateData

/// Objects planted in the store by someone who can write the bucket: an entry whose checksum is
/// right but whose fields lie, and, with a fleet key, any object without the key's seal.
@Suite("Tiered audio cache: forged store objects")
struct TieredAudioCacheForgeryTests {
    let folder: TemporaryDirectory
    let store = ObjectStoreMock()
    static let seal = CacheStoreSeal(key: Array("fleet key of at least sixteen bytes".utf8))!

    init() throws {
        folder = try TemporaryDirectory()
    }

    private func makeSUT(seal: CacheStoreSeal? = nil) throws -> (TieredAudioCache, LogHandlerMock.Recorder) {
        let (logger, recorder) = LogHandlerMock.logger()
        let sut = TieredAudioCache(local: try AudioCache(directory: folder.path), store: store, drainDeadline: .seconds(900), firstPause: .seconds(60), seal: seal, logger: logger)
        return (sut, recorder)
    }

    private func sealOf(_ bytes: [UInt8], _ key: AudioCacheKey, with seal: CacheStoreSeal = Self.seal) -> String {
        bytes.withUnsafeBytes { seal.seal(hex: key.hex, bytes: $0) }
    }

    @Test("an entry with a valid checksum and a word mark far past its samples is a damaged object: a miss, never a crash, replaced by the next upload")
    func forgedMarks() async throws {
        // Given
        let key = AudioCacheFixtures.key("forged")
        let forged = SpeechAudio(sampleRate: 22_050, samples: [1, 2, 3], wordMarks: [WordMark(textOffset: 0, textLength: 5, sampleOffset: Int(Int64.max - 1))])
        store.serve([key.hex: try AudioCacheEntryCodec.encode(forged, key: key)])
        let (sut, recorder) = try makeSUT()

        // When
        let found = try await sut.lookup(key: key)
        try await sut.store(AudioCacheFixtures.audio(seed: 3), key: key)
        await sut.drain()

        // Then
        #expect(found == nil)
        #expect(sut.storeStatistics.corrupt == 1)
        #expect(recorder.messages.contains { $0.contains("damaged object") && $0.contains("inconsistent entry: word mark 0") })
        #expect(store.calls.last == .put(key.hex, ifAbsent: false))
        #expect(try await sut.local.lookup(key: key) == AudioCacheFixtures.audio(seed: 3))
    }

    @Test("with a fleet key, an object without a seal is refused as damaged and replaced by a sealed one")
    func unsealedRefused() async throws {
        // Given: a well-formed entry of other audio, planted without the key
        let key = AudioCacheFixtures.key("planted")
        store.serve([key.hex: try AudioCacheEntryCodec.encode(AudioCacheFixtures.audio(seed: 9), key: key)])
        let (sut, recorder) = try makeSUT(seal: Self.seal)

        // When
        let found = try await sut.lookup(key: key)
        try await sut.store(AudioCacheFixtures.audio(seed: 4), key: key)
        await sut.drain()

        // Then: the planted audio is not served; ours replaces it, sealed
        #expect(found == nil)
        #expect(recorder.messages.contains { $0.contains("does not carry the fleet key's seal") })
        #expect(store.calls.last == .put(key.hex, ifAbsent: false))
        let stored = try #require(store.state.withLock { $0.objects?[key.hex] })
        #expect(stored == (try AudioCacheEntryCodec.encode(AudioCacheFixtures.audio(seed: 4), key: key)))
        #expect(store.state.withLock { $0.seals[key.hex] } == sealOf(stored, key))
    }

    @Test("with a fleet key, an object sealed with another key, or with the seal of another object, is refused")
    func wrongSeals() async throws {
        // Given
        let key = AudioCacheFixtures.key("a"), other = AudioCacheFixtures.key("b")
        let bytes = try AudioCacheEntryCodec.encode(AudioCacheFixtures.audio(seed: 1), key: key)
        let otherBytes = try AudioCacheEntryCodec.encode(AudioCacheFixtures.audio(seed: 2), key: other)
        let stranger = CacheStoreSeal(key: Array("another fleet's key, also long".utf8))!
        store.serve([key.hex: bytes, other.hex: otherBytes])
        store.state.withLock { $0.seals = [key.hex: sealOf(bytes, key, with: stranger), other.hex: sealOf(bytes, key)] }
        let (sut, _) = try makeSUT(seal: Self.seal)

        // When / Then
        #expect(try await sut.lookup(key: key) == nil)
        #expect(try await sut.lookup(key: other) == nil)
        #expect(sut.storeStatistics.corrupt == 2)
    }

    @Test("with a fleet key, a sealed object is taken, and every upload carries its seal")
    func sealedTaken() async throws {
        // Given
        let key = AudioCacheFixtures.key("sealed"), fresh = AudioCacheFixtures.key("fresh")
        let bytes = try AudioCacheEntryCodec.encode(AudioCacheFixtures.audio(seed: 5), key: key)
        store.serve([key.hex: bytes])
        store.state.withLock { $0.seals[key.hex] = sealOf(bytes, key) }
        let (sut, _) = try makeSUT(seal: Self.seal)

        // When
        let found = try await sut.lookup(key: key)
        try await sut.store(AudioCacheFixtures.audio(seed: 6), key: fresh)
        await sut.drain()

        // Then
        #expect(found == AudioCacheFixtures.audio(seed: 5))
        let uploaded = try #require(store.state.withLock { $0.objects?[fresh.hex] })
        #expect(store.state.withLock { $0.seals[fresh.hex] } == sealOf(uploaded, fresh))
    }

    @Test("a fleet key file that is missing or too short is refused with a line naming the variable")
    func badKeyFiles() {
        #expect(throws: CacheStoreError.badSetting("The fleet key file /nowhere (NARRATE_CACHE_STORE_KEY_FILE) cannot be read.")) {
            try CacheStoreSeal.from(file: "/nowhere", text: nil)
        }
        let short = #expect(throws: CacheStoreError.self) { try CacheStoreSeal.from(file: "/k", text: "short\n") }
        #expect(short?.description.contains("openssl rand -hex 32") == true)
        #expect((try? CacheStoreSeal.from(file: "/k", text: "0123456789abcdef0123\n")) == CacheStoreSeal(key: Array("0123456789abcdef0123".utf8)))
    }
}
