import Foundation
import NarrateDomain
import ZIPFoundation

/// Kokoro style packs as they are published, read into the form Narrate installs: one raw
/// little-endian float32 file per voice, rows of 256 values (kokoro-onnx's packs have 510 rows,
/// one per token count).
/// - an `.npz` (NumPy's zip of `.npy` arrays, stored or deflated) holding many voices, each
///   array float32 of shape (rows, 1, 256) or (rows, 256): kokoro-onnx's `voices-v1.0.bin` and
///   the PyPI Japanese pack;
/// - a raw `.bin` per voice (the onnx-community layout), named after the voice.
enum KokoroStylePack {
    static let width = 256
    static let maxRows = 1024
    /// The largest pack archive read, and one voice's pack (the bounds downloads have too).
    static let maxArchiveBytes = DownloadKokoroVoicesUseCase.maxArchiveBytes
    static let maxPackBytes = Int(DownloadKokoroVoicesUseCase.maxPackBytes)

    /// The voices of an `.npz`, by name, as raw float32 bytes.
    static func voices(inArchive path: String) throws(KokoroVoiceProblem) -> [(name: String, data: Data)] {
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int64) ?? nil
        guard let size, size > 0, size <= maxArchiveBytes else {
            throw KokoroVoiceProblem("the style pack archive \(path) is empty, missing or larger than \(maxArchiveBytes >> 20) MiB")
        }
        let archive: Archive
        do { archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read) } catch {
            throw KokoroVoiceProblem("\(path) is not a NumPy .npz archive (not a zip file)")
        }
        var voices: [(name: String, data: Data)] = []
        for entry in archive where entry.type == .file && entry.path.hasSuffix(".npy") {
            let name = String((entry.path.split(separator: "/").last ?? "").dropLast(4))
            guard entry.uncompressedSize <= UInt64(maxPackBytes + 4096) else {
                throw KokoroVoiceProblem("the voice \(name) in \(path) is larger than \(maxRows) rows of \(width) values")
            }
            var bytes = Data()
            do {
                _ = try archive.extract(entry, skipCRC32: false) { bytes.append($0) }
            } catch {
                throw KokoroVoiceProblem("the voice \(name) in \(path) cannot be read (a damaged archive?)")
            }
            voices.append((name, try rows(ofNumpy: bytes, name: name)))
        }
        guard !voices.isEmpty else { throw KokoroVoiceProblem("\(path) holds no voice (.npy array)") }
        return voices.sorted { $0.name < $1.name }
    }

    /// An `.npy` array's float32 data, checked: little-endian float32, C order, (rows, 1, 256)
    /// or (rows, 256).
    static func rows(ofNumpy bytes: Data, name: String) throws(KokoroVoiceProblem) -> Data {
        let bytes = Data(bytes)
        let problem = KokoroVoiceProblem("the voice \(name) is not a float32 array of rows of \(width) values (a Kokoro style pack)")
        guard bytes.count >= 10, bytes.prefix(6) == Data([0x93, 0x4E, 0x55, 0x4D, 0x50, 0x59]) else { throw problem }
        let major = bytes[6]
        let headerLength: Int
        let headerStart: Int
        if major == 1 {
            headerLength = Int(bytes[8]) | Int(bytes[9]) << 8
            headerStart = 10
        } else if major == 2 || major == 3, bytes.count >= 12 {
            headerLength = Int(bytes[8]) | Int(bytes[9]) << 8 | Int(bytes[10]) << 16 | Int(bytes[11]) << 24
            headerStart = 12
        } else {
            throw problem
        }
        guard headerLength < 65_536, bytes.count >= headerStart + headerLength,
              let header = String(data: bytes[headerStart..<headerStart + headerLength], encoding: .utf8)
        else { throw problem }
        let compact = header.filter { $0 != " " }
        guard compact.contains("'descr':'<f4'"), compact.contains("'fortran_order':False"),
              let shapeStart = compact.range(of: "'shape':("), let shapeEnd = compact[shapeStart.upperBound...].firstIndex(of: ")")
        else { throw problem }
        let shape = compact[shapeStart.upperBound..<shapeEnd].split(separator: ",").compactMap { Int($0) }
        guard shape.count >= 2, shape.last == width, shape.dropFirst().dropLast().allSatisfy({ $0 == 1 }), (1...maxRows).contains(shape[0]) else { throw problem }
        let data = bytes[(headerStart + headerLength)...]
        guard data.count == shape[0] * width * 4 else { throw problem }
        return Data(data)
    }

    /// A raw pack's data, checked: whole rows of 256 float32 values, 1 to 1024 rows.
    static func rows(ofRaw data: Data, name: String) throws(KokoroVoiceProblem) -> Data {
        guard !data.isEmpty, data.count % (width * 4) == 0, data.count <= maxPackBytes else {
            throw KokoroVoiceProblem("the style pack \(name) is \(data.count) bytes, not rows of \(width) float32 values (1 to \(maxRows) rows)")
        }
        return data
    }
}
