import Crypto
import Foundation

/// A small fake Piper voice laid out as Piper's voices repository holds it
/// (`en/en_US/test/medium/en_US-test-medium.onnx` and its `.onnx.json`), with a `voices.json`
/// listing its sizes and MD5 checksums. The model is any bytes; the configuration is a real
/// one's shape.
enum PiperVoiceFixture {
    static let name = "en_US-test-medium"
    static let modelPath = "en/en_US/test/medium/en_US-test-medium.onnx"
    static let configPath = modelPath + ".json"

    /// 300 kB of a deterministic pattern: enough for several reads of the body.
    static let model: Data = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ $0 >> 8) })

    static let config = Data(#"""
        {
          "audio": {"sample_rate": 22050, "quality": "medium"},
          "espeak": {"voice": "en-us"},
          "inference": {"noise_scale": 0.667, "length_scale": 1, "noise_w": 0.8},
          "phoneme_type": "espeak",
          "phoneme_map": {},
          "phoneme_id_map": {"_": [0], "^": [1], "$": [2], " ": [3], "a": [14], "b": [15], "c": [16], "ə": [59]},
          "num_symbols": 256,
          "num_speakers": 1,
          "speaker_id_map": {},
          "language": {"code": "en_US", "family": "en", "region": "US", "name_native": "English", "name_english": "English", "country_english": "United States"},
          "dataset": "test"
        }
        """#.utf8)

    /// Writes the voice's two files and `voices.json` into `root`; `modelMD5` overrides the
    /// listed checksum (a wrong one), `withIndex: false` leaves `voices.json` out.
    static func publish(in root: String, modelMD5: String? = nil, withIndex: Bool = true) throws {
        let folder = root + "/" + (modelPath as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try model.write(to: URL(fileURLWithPath: root + "/" + modelPath))
        try config.write(to: URL(fileURLWithPath: root + "/" + configPath))
        guard withIndex else { return }
        let index: [String: Any] = [
            name: [
                "key": name, "name": "test", "quality": "medium", "num_speakers": 1,
                "language": ["code": "en_US", "family": "en"],
                "files": [
                    modelPath: ["size_bytes": model.count, "md5_digest": modelMD5 ?? md5(model)],
                    configPath: ["size_bytes": config.count, "md5_digest": md5(config)],
                    "en/en_US/test/medium/MODEL_CARD": ["size_bytes": 10, "md5_digest": "00"],
                ],
            ],
            "en_GB-other-low": ["files": [:] as [String: Any]],
        ]
        try JSONSerialization.data(withJSONObject: index, options: [.sortedKeys]).write(to: URL(fileURLWithPath: root + "/voices.json"))
    }

    static func md5(_ data: Data) -> String {
        Insecure.MD5.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }

    static func sha256(_ data: Data) -> String {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }
}
