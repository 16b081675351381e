import Foundation
import CDispatch
import CoreFoundation
import Glibc
import NarrateDomain
import Synchronization

/// The Piper voices installed in voice folders (an `.onnx` model with its `.onnx.json` beside
/// it), and the voices loaded so far: a model is hashed once per process, and again only when
/// its file changes.
public final class PiperVoiceCatalog: Sendable {
    private let directories: [String]
    private let loaded = Mutex<[String: (stamp: [Int], voice: PiperVoice)]>([:])

    /// - Parameter directories: folders searched for voices, earlier ones first.
    public init(directories: [String]) {
        self.directories = directories
    }

    /// Every installed voice, by name; a name in an earlier folder hides a later one's.
    public func installed() -> [Voice] {
        var byName: [String: Voice] = [:]
        for directory in directories.reversed() {
            guard let files = try? FileManager.default.contentsOfDirectory(atPath: directory) else { continue }
            for file in files.sorted() where file.hasSuffix(".onnx") {
                let model = directory + "/" + file
                guard let (config, _) = try? PiperVoice.readConfig(model: model) else { continue }
                let name = PiperVoice.name(model: model)
                byName[name.lowercased()] = Voice(
                    name: name, identifier: model, languages: config.languages, preset: config.profile(model: model), piper: config.info(model: model)
                )
            }
        }
        return byName.values.sorted { $0.name.lowercased() < $1.name.lowercased() }
    }

    /// The profile for a voice name (`en_US-joe-medium`) or, when `allowingFiles`, a model's
    /// path (`…/x.onnx`); `nil` when neither is installed.
    /// - Parameter allowingFiles: whether a path may name a model (the local user's
    ///   `--voice`); without it only the models in the voice folders are found, by name.
    /// - Throws: `SpeechError.voiceFailed` when the path is a model whose configuration is
    ///   missing or damaged.
    public func profile(named name: String, allowingFiles: Bool = false) throws(SpeechError) -> VoiceProfile? {
        if allowingFiles, name.hasSuffix(".onnx"), name.contains("/") || FileManager.default.fileExists(atPath: name) {
            let model = URL(fileURLWithPath: name).standardizedFileURL.path
            do {
                return try PiperVoice.readConfig(model: model).0.profile(model: model)
            } catch {
                throw .voiceFailed(voice: PiperVoice.name(model: model), reason: error.reason)
            }
        }
        // By name: the first folder holding the model, and only that voice's configuration read.
        // A name is matched against each folder's listing, never joined into a path to open.
        let file = name.lowercased() + ".onnx"
        for directory in directories {
            guard let files = try? FileManager.default.contentsOfDirectory(atPath: directory),
                  let match = files.sorted().first(where: { $0.lowercased() == file })
            else { continue }
            let model = directory + "/" + match
            guard let (config, _) = try? PiperVoice.readConfig(model: model) else { continue }
            return config.profile(model: model)
        }
        return nil
    }

    /// The voice of a model, loaded (configuration checked, both files hashed) once per change.
    /// - Throws: `SpeechError.voiceFailed` saying what is wrong with it.
    public func voice(model: String) throws(SpeechError) -> PiperVoice {
        let stamp = FileStamp.of(model) + FileStamp.of(PiperVoice.configPath(model: model))
        if let known = loaded.withLock({ $0[model] }), known.stamp == stamp { return known.voice }
        let voice: PiperVoice
        do { voice = try PiperVoice.load(model: model) } catch { throw .voiceFailed(voice: PiperVoice.name(model: model), reason: error.reason) }
        loaded.withLock { $0[model] = (stamp, voice) }
        return voice
    }
}
