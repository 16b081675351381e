import Foundation
@testable import NarrateData
import NarrateDomain

/// A fresh folder under the system's temporary folder, removed when released.
final class TemporaryDirectory {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("narrate-cache-tests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// Keys and audio for cache tests.
enum AudioCacheFixtures {
    static let engine = EngineDescriptor(id: "test-engine", version: "1", sampleRate: 22_050)

    /// A distinct, deterministic key per `name`.
    static func key(_ name: String) -> AudioCacheKey {
        AudioCacheKey(request: SpeechRequest(text: name, voice: .narrator), engine: engine)
    }

    /// `count` samples of a deterministic pattern, with a word mark every 100 samples.
    static func audio(seed: Int = 1, count: Int = 1_000, sampleRate: Int = 22_050) -> SpeechAudio {
        let samples = (0..<count).map { Int16(truncatingIfNeeded: ($0 &* 31 &+ seed &* 7_919) % 65_536 - 32_768) }
        let marks = stride(from: 0, to: count, by: 100).enumerated().map { index, sample in
            WordMark(textOffset: index * 6, textLength: 5, sampleOffset: sample)
        }
        return SpeechAudio(sampleRate: sampleRate, samples: samples, wordMarks: marks)
    }

    /// The path of `key`'s entry file in a cache at `directory`.
    static func entryPath(_ key: AudioCacheKey, in directory: String) -> String {
        "\(directory)/objects/\(key.hex.prefix(2))/\(key.hex)"
    }

    /// The names of every file below `directory/objects`, recursively.
    static func objectFileNames(in directory: String) -> [String] {
        let objects = directory + "/objects"
        let enumerator = FileManager.default.enumerator(atPath: objects)
        var names = [String]()
        while let relative = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: "\(objects)/\(relative)", isDirectory: &isDirectory), !isDirectory.boolValue {
                names.append((relative as NSString).lastPathComponent)
            }
        }
        return names
    }
}

/// The PID of a process that has run and exited: a writer that is gone.
func exitedProcessID() throws -> pid_t {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/true")
    try process.run()
    process.waitUntilExit()
    return process.processIdentifier
}
