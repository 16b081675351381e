import Foundation
import NarrateDomain

/// A Piper voice's configuration (`<model>.onnx.json`): the parts Narrate reads.
struct PiperVoiceConfig: Decodable, Sendable {
    struct Audio: Decodable, Sendable {
        var sampleRate: Int
        var quality: String?
    }
    struct ESpeak: Decodable, Sendable {
        var voice: String
    }
    struct Inference: Decodable, Sendable {
        var noiseScale: Double?
        var lengthScale: Double?
        var noiseW: Double?
    }
    struct Language: Decodable, Sendable {
        var code: String?
    }

    var audio: Audio
    var espeak: ESpeak
    var inference: Inference?
    var numSpeakers: Int?
    var speakerIdMap: [String: Int]?
    var phonemeIdMap: [String: [Int]]
    var phonemeType: String?
    var language: Language?

    /// The largest configuration read (real ones are a few kilobytes).
    static let maxBytes = 1 << 20

    /// Piper's defaults where the `inference` block is silent.
    static let defaultNoiseScale = 0.667
    static let defaultLengthScale = 1.0
    static let defaultNoiseW = 0.8

    /// Parses and checks a configuration's bytes.
    /// - Throws: the reason, worded for `SpeechError.voiceFailed`.
    static func parse(_ data: Data, path: String) throws(PiperVoiceProblem) -> PiperVoiceConfig {
        guard data.count <= maxBytes else { throw PiperVoiceProblem("its configuration \(path) is larger than \(maxBytes >> 20) MiB") }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let config: PiperVoiceConfig
        do {
            config = try decoder.decode(PiperVoiceConfig.self, from: data)
        } catch let DecodingError.keyNotFound(key, _) {
            throw PiperVoiceProblem("its configuration \(path) lacks \(key.stringValue.snakeCased) (is it a Piper voice's .onnx.json?)")
        } catch is DecodingError {
            throw PiperVoiceProblem("its configuration \(path) is not a Piper voice's JSON (download the voice's .onnx.json again)")
        } catch {
            throw PiperVoiceProblem("its configuration \(path) cannot be read: \(error)")
        }
        if let type = config.phonemeType, type != "espeak" {
            throw PiperVoiceProblem("it reads phonemes of type '\(type)', and Narrate speaks only Piper voices phonemized by eSpeak NG")
        }
        guard (1_000...192_000).contains(config.audio.sampleRate) else {
            throw PiperVoiceProblem("its configuration gives a sample rate of \(config.audio.sampleRate) Hz")
        }
        for required in ["^", "$", "_"] where config.phonemeIdMap[required]?.isEmpty != false {
            throw PiperVoiceProblem("its phoneme_id_map has no id for '\(required)'")
        }
        guard config.phonemeIdMap.values.allSatisfy({ $0.allSatisfy { $0 >= 0 } }) else {
            throw PiperVoiceProblem("its phoneme_id_map holds a negative id")
        }
        return config
    }

    /// How many speakers the model has.
    var speakers: Int { max(1, numSpeakers ?? 1) }

    /// The speakers' names by id.
    var speakerNames: [String] {
        (speakerIdMap ?? [:]).sorted { $0.value < $1.value }.map(\.key)
    }

    /// The profile that speaks with the voice of `model`, at its own settings.
    func profile(model: String) -> VoiceProfile {
        VoiceProfile(voice: espeak.voice, piper: PiperVoiceSettings(model: model))
    }

    /// What a listing shows of the voice of `model`.
    func info(model: String) -> PiperVoiceInfo {
        PiperVoiceInfo(model: model, quality: audio.quality, speakers: speakers, speakerNames: speakerNames, sampleRate: audio.sampleRate)
    }

    /// The phoneme_id_map as the worker reads it, "hex=id+id,…": one code point a key (piper
    /// looks phonemes up one code point at a time; longer keys never match).
    var workerPhonemeMap: String {
        phonemeIdMap.compactMap { key, ids -> String? in
            let scalars = Array(key.unicodeScalars)
            guard scalars.count == 1, !ids.isEmpty else { return nil }
            return String(scalars[0].value, radix: 16) + "=" + ids.map(String.init).joined(separator: "+")
        }.sorted().joined(separator: ",")
    }

    /// Language tags for the voice list: `en_US` → `en-us`, `en`.
    var languages: [String] {
        var tags: [String] = []
        if let code = language?.code, !code.isEmpty {
            let tag = code.replacingOccurrences(of: "_", with: "-").lowercased()
            tags.append(tag)
            if let primary = tag.split(separator: "-").first, String(primary) != tag { tags.append(String(primary)) }
        }
        let espeakTag = espeak.voice.lowercased()
        if !tags.contains(espeakTag) { tags.append(espeakTag) }
        return tags
    }
}

/// Why a Piper voice cannot be used, in a phrase ("its configuration … lacks phoneme_id_map").
struct PiperVoiceProblem: Error, Sendable {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}

extension String {
    /// `phonemeIdMap` → `phoneme_id_map`, for naming a key as the file spells it.
    fileprivate var snakeCased: String {
        var result = ""
        for character in self {
            if character.isUppercase {
                result += "_" + character.lowercased()
            } else {
                result.append(character)
            }
        }
        return result
    }
}
