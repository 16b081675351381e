import CNarrateSystem
import Crypto
import Foundation
import NarrateDomain

/// An installed Kokoro model: its `.onnx` file and what identifies its audio (the model's
/// SHA-256 and its vocabulary), and the worker's description of a voice it speaks.
public struct KokoroModel: Sendable {
    public let path: String
    /// SHA-256 of the model's bytes, in hex.
    public let digest: String
    let vocabulary: KokoroVocabulary

    /// The largest model loaded (the fp32 export is about 330 MB).
    static let maxModelBytes: Int64 = 1 << 30

    /// Hashes the model and reads the vocabulary beside it (`vocab.json`, else `config.json`,
    /// else kokoro-onnx's own).
    static func load(path: String) throws(KokoroVoiceProblem) -> KokoroModel {
        guard FileManager.default.fileExists(atPath: path) else { throw KokoroVoiceProblem("its model \(path) does not exist") }
        let digest: String
        do { digest = try FileDigest.sha256(of: path, maxBytes: maxModelBytes, what: "its model") } catch { throw KokoroVoiceProblem(error.reason) }
        let folder = (path as NSString).deletingLastPathComponent
        var vocabulary = KokoroVocabulary.standard
        for file in ["vocab.json", "config.json"] {
            guard let handle = FileHandle(forReadingAtPath: folder + "/" + file) else { continue }
            defer { try? handle.close() }
            let data = (try? handle.read(upToCount: KokoroVocabulary.maxFileBytes + 1)) ?? Data()
            do { vocabulary = try KokoroVocabulary.parse(data) } catch { throw KokoroVoiceProblem("\(file) beside its model: \(error.reason)") }
            break
        }
        return KokoroModel(path: path, digest: digest, vocabulary: vocabulary)
    }

    /// One style pack of a voice, hashed.
    struct Pack: Sendable, Hashable {
        var name: String
        var path: String
        var digest: String
        var weight: Double
    }

    /// The description the worker loads the voice from (narrate-worker/kokoro.c): the model's
    /// path, eSpeak NG's language, the name, the vocabulary, the packs and their weights, the
    /// speed, the pauses, and where the worker may keep the model in ONNX Runtime's format
    /// (`modelFolder`; shared by every worker), separated by 0x1F.
    func workerDescription(_ settings: KokoroVoiceSettings, packs: [Pack], speed: Double, modelFolder: String?) -> String {
        let styles = packs.map { Self.number($0.weight) + "\u{1D}" + $0.path }.joined(separator: "\u{1E}")
        let fields: [String] = [
            "kokoro", path, settings.language, settings.name, vocabulary.workerMap, styles, Self.number(speed),
            Self.number(KokoroVoiceSettings.sentencePause), Self.number(KokoroVoiceSettings.clausePause),
            modelFolder.map { "\($0)/\(digest)-kokoro" } ?? "",
        ]
        return fields.joined(separator: "\u{1F}")
    }

    /// The part of the description that changes the samples, for the cache key: the model's
    /// and each pack's SHA-256 and weight, the vocabulary, the language, the speed and pauses.
    func identity(_ settings: KokoroVoiceSettings, packs: [Pack], speed: Double) -> String {
        let styles = packs.map { "\($0.digest):\(Self.number($0.weight))" }.joined(separator: ",")
        let vocabularyDigest = Hex.encode(SHA256.hash(data: Data(vocabulary.workerMap.utf8)))
        return "kokoro model-sha256=\(digest) vocab-sha256=\(vocabularyDigest) language=\(settings.language) styles=\(styles) speed=\(Self.number(speed)) pauses=\(Self.number(KokoroVoiceSettings.sentencePause)),\(Self.number(KokoroVoiceSettings.clausePause))"
    }

    /// A number as the worker reads it back exactly (`strtof`, `strtod`).
    static func number(_ value: Double) -> String {
        String(format: "%.17g", value)
    }
}
