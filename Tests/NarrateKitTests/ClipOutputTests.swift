import Foundation
import Logging
import Testing

@testable import NarrateKit

/// A chunk the engine stored in the cache is handed over as a clip and copied from its entry;
/// when another process replaced that entry meanwhile, it is read from the cache instead.
@Suite struct ClipOutputTests {
    /// The test's folder, removed with the suite instance.
    final class Scratch {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("narrate-clip-tests-\(UUID().uuidString)").path
        deinit { try? FileManager.default.removeItem(atPath: path) }
    }

    let scratch = Scratch()
    var folder: String { scratch.path }
    let environment: NarrateEnvironment

    init() throws {
        try FileManager.default.createDirectory(atPath: scratch.path, withIntermediateDirectories: true)
        let folder = scratch.path
        let configuration = NarrateConfiguration(cacheDirectory: folder + "/cache", voiceDirectories: [], libraryPath: folder + "/library.sqlite", engineWorkers: 1)
        environment = NarrateEnvironment(configuration: configuration, logger: Logger(label: "test"))
    }

    private func clip(of text: String) async throws -> SpeechClip? {
        var pieces: [SpeechPiece] = []
        _ = try await environment.speakText().execute(text: SpeechText(text, isSSML: false), voice: VoiceProfile(voice: "en-us")) { (piece: SpeechPiece) throws(SpeechError) in
            pieces.append(piece)
        }
        guard case let .clip(clip) = pieces.first, pieces.count == 1 else { return nil }
        return clip
    }

    private func entryPath(_ clip: SpeechClip) -> String {
        "\(folder)/cache/objects/\(clip.cacheKey.prefix(2))/\(clip.cacheKey)"
    }

    @Test("A clip's source is its fresh entry; once another process replaced the entry, its audio is read and verified instead")
    func replacedEntryIsReadInstead() async throws {
        // Given: a miss, stored by the engine
        let clip = try #require(try await clip(of: "A clip of the cache, copied in the kernel."))
        let source = try #require(await environment.entrySource(for: clip))
        #expect(source.sampleCount == clip.sampleCount)

        // When: the same entry is stored again by someone else (same bytes, a new file)
        let path = entryPath(clip)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        try bytes.write(to: URL(fileURLWithPath: path + ".other"))
        #expect(rename(path + ".other", path) == 0)

        // Then
        #expect(await environment.entrySource(for: clip) == nil)
        let audio = try await environment.audio(for: clip)
        #expect(audio.samples.count == clip.sampleCount)
        #expect(audio.wordMarks == clip.wordMarks)
        #expect(audio.samples.withUnsafeBytes { Array($0) } == Array(bytes[source.pcmOffset..<(source.pcmOffset + clip.sampleCount * 2)]))
    }

    @Test("A clip whose entry is gone altogether is a clear error")
    func removedEntryIsAnError() async throws {
        let clip = try #require(try await clip(of: "This entry will be removed."))
        try FileManager.default.removeItem(atPath: entryPath(clip))
        await #expect(throws: SpeechError.self) { _ = try await environment.audio(for: clip) }
        #expect(await environment.entrySource(for: clip) == nil)
    }
}
