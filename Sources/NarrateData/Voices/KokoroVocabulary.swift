import Foundation

/// Kokoro-82M's vocabulary: the phoneme symbols (one code point each) the model has a token id
/// for. The built-in table is kokoro-onnx 0.6.1's (its config.json, 114 symbols); a
/// model installed with its own `vocab.json` or `config.json` ({"vocab": {…}}) speaks with that.
struct KokoroVocabulary: Sendable, Hashable {
    /// Token id by code point.
    let ids: [UInt32: Int]

    /// The largest vocabulary file read.
    static let maxFileBytes = 1 << 20

    /// kokoro-onnx's table.
    static let standard = KokoroVocabulary(ids: [
        0x0020: 16, 0x0021: 5, 0x0022: 11, 0x0028: 12, 0x0029: 13, 0x002C: 3, 0x002E: 4, 0x003A: 2, 0x003B: 1, 0x003F: 6, 0x0041: 24, 0x0049: 25,
        0x004F: 31, 0x0051: 33, 0x0053: 35, 0x0054: 36, 0x0057: 39, 0x0059: 41, 0x0061: 43, 0x0062: 44, 0x0063: 45, 0x0064: 46, 0x0065: 47,
        0x0066: 48, 0x0068: 50, 0x0069: 51, 0x006A: 52, 0x006B: 53, 0x006C: 54, 0x006D: 55, 0x006E: 56, 0x006F: 57, 0x0070: 58, 0x0071: 59,
        0x0072: 60, 0x0073: 61, 0x0074: 62, 0x0075: 63, 0x0076: 64, 0x0077: 65, 0x0078: 66, 0x0079: 67, 0x007A: 68, 0x00E6: 72, 0x00E7: 78,
        0x00F0: 81, 0x00F8: 116, 0x014B: 112, 0x0153: 120, 0x0250: 70, 0x0251: 69, 0x0252: 71, 0x0254: 76, 0x0255: 77, 0x0256: 80, 0x0259: 83,
        0x025A: 85, 0x025B: 86, 0x025C: 87, 0x025F: 90, 0x0261: 92, 0x0263: 139, 0x0264: 140, 0x0265: 99, 0x0268: 101, 0x026A: 102, 0x026F: 110,
        0x0270: 111, 0x0272: 114, 0x0273: 113, 0x0274: 115, 0x0278: 118, 0x0279: 123, 0x027B: 126, 0x027D: 129, 0x027E: 125, 0x0281: 128,
        0x0282: 130, 0x0283: 131, 0x0288: 132, 0x028A: 135, 0x028B: 136, 0x028C: 138, 0x028E: 143, 0x0292: 147, 0x0294: 148, 0x029D: 103, 0x02A3: 18,
        0x02A4: 82, 0x02A5: 19, 0x02A6: 20, 0x02A7: 133, 0x02A8: 21, 0x02B0: 162, 0x02B2: 164, 0x02C8: 156, 0x02CC: 157, 0x02D0: 158, 0x0303: 17,
        0x03B2: 75, 0x03B8: 119, 0x03C7: 142, 0x1D4A: 42, 0x1D5D: 22, 0x1D7B: 177, 0x2014: 9, 0x201C: 14, 0x201D: 15, 0x2026: 10, 0x2192: 171,
        0x2193: 169, 0x2197: 172, 0x2198: 173, 0xAB67: 23
    ])

    /// The vocabulary in a `vocab.json` or `config.json`: an object whose `vocab` maps one-code-
    /// point symbols to ids from 0 to 1023.
    static func parse(_ data: Data) throws(KokoroVoiceProblem) -> KokoroVocabulary {
        guard data.count <= maxFileBytes,
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let vocab = object["vocab"] as? [String: Any], !vocab.isEmpty
        else { throw KokoroVoiceProblem("its vocabulary file has no \"vocab\" object of symbols and ids") }
        var ids: [UInt32: Int] = [:]
        for (symbol, value) in vocab {
            let scalars = Array(symbol.unicodeScalars)
            guard scalars.count == 1, let id = (value as? NSNumber)?.intValue, (0...1023).contains(id) else {
                throw KokoroVoiceProblem("its vocabulary maps '\(symbol)' to something other than one symbol's id from 0 to 1023")
            }
            ids[scalars[0].value] = id
        }
        return KokoroVocabulary(ids: ids)
    }

    /// The worker's form: "hex=id,…" by code point.
    var workerMap: String {
        ids.sorted { $0.key < $1.key }.map { String($0.key, radix: 16) + "=" + String($0.value) }.joined(separator: ",")
    }
}
