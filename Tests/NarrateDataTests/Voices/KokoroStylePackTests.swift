import Foundation
import Testing

@testable import NarrateData

/// Style packs in their published forms: `.npy` arrays in `.npz` archives (stored or deflated)
/// and raw `.bin` rows; anything else is refused with a reason.
@Suite struct KokoroStylePackTests {
    @Test("Given an array of shape (rows, 1, 256) or (rows, 256), when read, then its rows come back as they were")
    func readsBothShapes() throws {
        let rows = KokoroFixture.rows(3, seed: 5)
        #expect(try KokoroStylePack.rows(ofNumpy: KokoroFixture.numpy(rows, shape: [3, 1, 256]), name: "af_a") == rows)
        #expect(try KokoroStylePack.rows(ofNumpy: KokoroFixture.numpy(rows, shape: [3, 256]), name: "af_a") == rows)
    }

    @Test("Given an array that is not float32 rows of 256, when read, then it is refused naming the voice",
          arguments: [
              KokoroFixture.numpy(KokoroFixture.rows(3, seed: 0), shape: [3, 1, 256], descr: "<f8"),
              KokoroFixture.numpy(KokoroFixture.rows(3, seed: 0), shape: [3, 2, 128]),
              KokoroFixture.numpy(KokoroFixture.rows(3, seed: 0), shape: [768]),
              KokoroFixture.numpy(KokoroFixture.rows(2, seed: 0), shape: [3, 1, 256]),
              Data("not numpy at all".utf8),
              Data(),
          ])
    func refusesOtherArrays(npy: Data) {
        #expect(throws: KokoroVoiceProblem.self) { try KokoroStylePack.rows(ofNumpy: npy, name: "af_bad") }
    }

    @Test("Given an .npz, stored or deflated, when read, then every voice comes back by name, sorted")
    func readsArchives() throws {
        let folder = try KokoroFixture.folder("npz")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for compressed in [false, true] {
            let path = folder + "/voices-\(compressed).npz"
            try KokoroFixture.writeArchive([
                ("bf_emma", KokoroFixture.numpy(KokoroFixture.rows(2, seed: 1), shape: [2, 1, 256])),
                ("af_heart", KokoroFixture.numpy(KokoroFixture.rows(2, seed: 7), shape: [2, 1, 256])),
            ], to: path, compressed: compressed)
            let voices = try KokoroStylePack.voices(inArchive: path)
            #expect(voices.map(\.name) == ["af_heart", "bf_emma"])
            #expect(voices[0].data == KokoroFixture.rows(2, seed: 7))
        }
    }

    @Test("Given a file that is no zip, or a zip without arrays, when read as an archive, then it is refused")
    func refusesNonArchives() throws {
        let folder = try KokoroFixture.folder("npz-bad")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(repeating: 7, count: 100).write(to: URL(fileURLWithPath: folder + "/random.npz"))
        #expect(throws: KokoroVoiceProblem.self) { try KokoroStylePack.voices(inArchive: folder + "/random.npz") }
        #expect(throws: KokoroVoiceProblem.self) { try KokoroStylePack.voices(inArchive: folder + "/missing.npz") }
    }

    @Test("Raw packs are whole rows of 256 float32 values, 1 to 1024 rows")
    func rawPacks() throws {
        #expect(try KokoroStylePack.rows(ofRaw: KokoroFixture.rows(510, seed: 0), name: "af_a").count == 510 * 1024)
        #expect(throws: KokoroVoiceProblem.self) { try KokoroStylePack.rows(ofRaw: Data(count: 1000), name: "af_a") }
        #expect(throws: KokoroVoiceProblem.self) { try KokoroStylePack.rows(ofRaw: Data(), name: "af_a") }
        #expect(throws: KokoroVoiceProblem.self) { try KokoroStylePack.rows(ofRaw: KokoroFixture.rows(1025, seed: 0), name: "af_a") }
    }

    @Test("The vocabulary file is a vocab object of one-symbol keys and ids; kokoro-onnx's is built in")
    func vocabulary() throws {
        let parsed = try KokoroVocabulary.parse(Data(#"{"vocab": {"a": 43, " ": 16}}"#.utf8))
        #expect(parsed.ids == [0x61: 43, 0x20: 16])
        #expect(parsed.workerMap == "20=16,61=43")
        #expect(throws: KokoroVoiceProblem.self) { try KokoroVocabulary.parse(Data(#"{"vocab": {"ab": 1}}"#.utf8)) }
        #expect(throws: KokoroVoiceProblem.self) { try KokoroVocabulary.parse(Data(#"{"other": 1}"#.utf8)) }
        #expect(KokoroVocabulary.standard.ids.count == 114)
        #expect(KokoroVocabulary.standard.ids[0x2C] == 3 && KokoroVocabulary.standard.ids[0x2C8] == 156)
    }
}
