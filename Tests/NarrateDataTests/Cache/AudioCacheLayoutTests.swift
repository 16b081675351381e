import Foundation
@testable import NarrateData
import NarrateDomain
import Testing

@Suite struct AudioCacheLayoutTests {
    typealias Fixtures = AudioCacheFixtures

    let folder: TemporaryDirectory
    let sut: AudioCacheLayout

    init() throws {
        folder = try TemporaryDirectory()
        sut = AudioCacheLayout(directory: folder.path)
    }

    @Test("Given a cache folder, when its parts are named, then the entries, the index and the responses sit in it as before")
    func parts() {
        // Given
        let layout = AudioCacheLayout(directory: "/var/cache/narrate")
        let key = Fixtures.key("x")

        // Then
        #expect(layout.objects == "/var/cache/narrate/objects")
        #expect(layout.index == "/var/cache/narrate/index.sqlite")
        #expect(layout.responses == "/var/cache/narrate/responses")
        #expect(layout.shardPath(key) == "/var/cache/narrate/objects/" + key.hex.prefix(2))
        #expect(layout.entryPath(key) == "/var/cache/narrate/objects/\(key.hex.prefix(2))/\(key.hex)")
        #expect(layout.entryPath(hex: key.hex) == layout.entryPath(key))
    }

    @Test("Given a stored entry, when the cache is opened, then its entry and index are where the layout says")
    func cacheUsesTheLayout() async throws {
        // Given
        let cache = try AudioCache(directory: folder.path)
        let key = Fixtures.key("stored")

        // When
        try await cache.store(Fixtures.audio(), key: key)
        try await cache.flush()

        // Then
        #expect(cache.layout == sut)
        #expect(FileManager.default.fileExists(atPath: sut.entryPath(key)))
        #expect(FileManager.default.fileExists(atPath: sut.index))
    }

    @Test("Given shard folders with files and strays, when every object file is listed, then only files in two-character shard folders come")
    func forEachObjectFile() throws {
        // Given
        let manager = FileManager.default
        try manager.createDirectory(atPath: sut.objects + "/ab", withIntermediateDirectories: true)
        try manager.createDirectory(atPath: sut.objects + "/cd", withIntermediateDirectories: true)
        try manager.createDirectory(atPath: sut.objects + "/long", withIntermediateDirectories: true)
        for path in ["/ab/ab01", "/ab/ab02", "/cd/cd01", "/long/x", "/ef"] {
            #expect(manager.createFile(atPath: sut.objects + path, contents: Data("x".utf8)))
        }

        // When
        var seen: [String] = []
        try sut.forEachObjectFile { name, path in seen.append("\(name) \(path)") }

        // Then
        #expect(seen.sorted() == [
            "ab01 \(sut.objects)/ab/ab01", "ab02 \(sut.objects)/ab/ab02", "cd01 \(sut.objects)/cd/cd01",
        ])
    }

    @Test("Given rendered responses, when the cache is cleared, then the responses folder the layout names is emptied but for temporaries")
    func clearEmptiesResponses() async throws {
        // Given
        let cache = try AudioCache(directory: folder.path)
        try FileManager.default.createDirectory(atPath: sut.responses, withIntermediateDirectories: true)
        let rendered = sut.responses + "/page-1.mp3"
        let temporary = TemporaryFileName.beside(sut.responses + "/page-2.mp3")
        #expect(FileManager.default.createFile(atPath: rendered, contents: Data("mp3".utf8)))
        #expect(FileManager.default.createFile(atPath: temporary, contents: Data("mp3".utf8)))

        // When
        try await cache.clear()

        // Then
        #expect(!FileManager.default.fileExists(atPath: rendered))
        #expect(FileManager.default.fileExists(atPath: temporary))
    }
}
