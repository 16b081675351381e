import CNarrateSystem
import Crypto
import Foundation
import NarrateDomain

/// An installed Piper voice: its model file, its configuration, and what identifies its audio
/// (the SHA-256 of both files).
public struct PiperVoice: Sendable {
    /// The name to pass to `--voice`: the model's file name without `.onnx` (`en_US-joe-medium`).
    public let name: String
    public let modelPath: String
    let config: PiperVoiceConfig
    /// SHA-256 of the model's and of the configuration's bytes, in hex.
    public let modelDigest: String
    public let configDigest: String
    /// The phoneme_id_map in the worker's form, made once when the voice is loaded (every
    /// request's description carries it).
    let phonemeMap: String

    /// The seed every random node of the model gets: same text, same samples.
    static let seed = 1

    /// How the noise is drawn: the worker's stateless operator (narrate-worker/onnx_noise.h),
    /// SplitMix64 by element and the normal quantile (version 1 drew with Box–Muller), in place of
    /// ONNX Runtime's RandomNormalLike. Part of the cache key and of the converted model's name:
    /// other noise is other audio.
    static let noise = "stateless-splitmix64-2"

    /// The largest model loaded (Piper's "high" voices are about 115 MB).
    static let maxModelBytes: Int64 = 1 << 30

    /// The configuration's path for a model: `<model>.json`.
    static func configPath(model: String) -> String { model + ".json" }

    /// The voice's name for its model's path.
    static func name(model: String) -> String {
        let file = (model as NSString).lastPathComponent
        return file.hasSuffix(".onnx") ? String(file.dropLast(5)) : file
    }

    /// Reads and checks the configuration, and hashes both files.
    static func load(model: String) throws(PiperVoiceProblem) -> PiperVoice {
        let (config, configData) = try readConfig(model: model)
        return PiperVoice(
            name: name(model: model), modelPath: model, config: config,
            modelDigest: try digest(of: model), configDigest: Hex.encode(SHA256.hash(data: configData)), phonemeMap: config.workerPhonemeMap
        )
    }

    /// The model's configuration, parsed and checked, and its bytes.
    static func readConfig(model: String) throws(PiperVoiceProblem) -> (PiperVoiceConfig, Data) {
        let path = configPath(model: model)
        guard FileManager.default.fileExists(atPath: model) else { throw PiperVoiceProblem("its model \(model) does not exist") }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw PiperVoiceProblem("its configuration \(path) is missing (a Piper voice is two files: the .onnx model and its .onnx.json)")
        }
        defer { try? handle.close() }
        let data: Data
        do { data = try handle.read(upToCount: PiperVoiceConfig.maxBytes + 1) ?? Data() } catch { throw PiperVoiceProblem("its configuration \(path) cannot be read: \(error)") }
        return (try PiperVoiceConfig.parse(data, path: path), data)
    }

    /// SHA-256 of the model.
    private static func digest(of path: String) throws(PiperVoiceProblem) -> String {
        do { return try FileDigest.sha256(of: path, maxBytes: maxModelBytes, what: "its model") } catch { throw PiperVoiceProblem(error.reason) }
    }

    /// The settings `profile` asks of this voice, resolved against the configuration: the
    /// speaker, the three scales (`rate` divides the length scale, 175 words a minute being
    /// 1) and the silence after each sentence, in samples.
    struct Resolved: Sendable, Hashable {
        var speaker: Int
        var noiseScale: Float
        var lengthScale: Float
        var noiseW: Float
        var silenceSamples: Int
    }

    func resolve(_ profile: VoiceProfile) throws(SpeechError) -> Resolved {
        let settings = profile.piper ?? PiperVoiceSettings(model: modelPath)
        let speakers = config.speakers
        var speaker = -1
        if speakers > 1 {
            speaker = settings.speaker ?? 0
            guard (0..<speakers).contains(speaker) else {
                throw .parameterOutOfRange(name: "speaker", value: speaker, range: 0...(speakers - 1))
            }
        } else if let asked = settings.speaker, asked != 0 {
            throw .parameterOutOfRange(name: "speaker", value: asked, range: 0...0)
        }
        let inference = config.inference
        let length = (settings.lengthScale ?? inference?.lengthScale ?? PiperVoiceConfig.defaultLengthScale) * 175 / Double(max(1, profile.rate))
        return Resolved(
            speaker: speaker,
            noiseScale: Float(settings.noiseScale ?? inference?.noiseScale ?? PiperVoiceConfig.defaultNoiseScale),
            lengthScale: Float(length),
            noiseW: Float(settings.noiseW ?? inference?.noiseW ?? PiperVoiceConfig.defaultNoiseW),
            silenceSamples: Int(((settings.sentenceSilence ?? 0) * Double(config.audio.sampleRate)).rounded())
        )
    }

    /// The description the worker loads the voice from (narrate-worker/piper.c): the model's
    /// path, the eSpeak voice, the rate, the resolved settings, the seed, the name, the
    /// phoneme ids, the NFD decompositions, and where the worker may keep the model in ONNX
    /// Runtime's format (`modelFolder`; shared by every worker), separated by 0x1F.
    func workerDescription(_ resolved: Resolved, modelFolder: String? = nil) -> String {
        let fields: [String] = [
            "piper", modelPath, config.espeak.voice, String(config.audio.sampleRate),
            Self.number(resolved.noiseScale), Self.number(resolved.lengthScale), Self.number(resolved.noiseW),
            String(resolved.speaker), String(resolved.silenceSamples), String(Self.seed), name,
            phonemeMap, Self.decompositions, modelFolder.map { "\($0)/\(modelDigest)-seed\(Self.seed)-\(Self.noise)" } ?? "",
        ]
        return fields.joined(separator: "\u{1F}")
    }

    /// The part of the description that changes the samples, for the cache key: all of it but
    /// the model's path (its digest stands for it).
    func identity(_ resolved: Resolved) -> String {
        "model-sha256=\(modelDigest) config-sha256=\(configDigest) speaker=\(resolved.speaker) scales=\(Self.number(resolved.noiseScale)),\(Self.number(resolved.lengthScale)),\(Self.number(resolved.noiseW)) silence=\(resolved.silenceSamples) seed=\(Self.seed) noise=\(Self.noise)"
    }

    /// A float as the worker reads it back exactly (`strtof`).
    private static func number(_ value: Float) -> String {
        String(format: "%.9g", Double(value))
    }

    /// Canonical decompositions (NFD) of the code points eSpeak's IPA can hold (below U+3000),
    /// as "hex=hex+hex,…": piper splits phonemes into NFD code points.
    static let decompositions: String = {
        var entries: [String] = []
        for value in UInt32(0x80)..<0x3000 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let decomposed = String(Character(scalar)).decomposedStringWithCanonicalMapping.unicodeScalars.map(\.value)
            guard decomposed != [value] else { continue }
            entries.append(String(value, radix: 16) + "=" + decomposed.map { String($0, radix: 16) }.joined(separator: "+"))
        }
        return entries.joined(separator: ",")
    }()

    /// What a listing shows of the voice.
    var info: PiperVoiceInfo { config.info(model: modelPath) }
}
