import Foundation
import ZIPFoundation

/// Kokoro files for tests: NumPy arrays, `.npz` archives of them and raw packs, made here
/// (rows of 256 float32 values whose every value is `seed + row`, so a row tells where it came
/// from), and a folder laid out as an installed voice folder.
enum KokoroFixture {
    /// A pack's raw rows.
    static func rows(_ count: Int, seed: Float) -> Data {
        var values: [Float] = []
        for row in 0..<count { values += Array(repeating: seed + Float(row), count: 256) }
        return values.withUnsafeBufferPointer { Data(buffer: $0) }
    }

    /// An `.npy` file of float32 with `shape`, its data `rows`.
    static func numpy(_ rows: Data, shape: [Int], descr: String = "<f4") -> Data {
        let shapeText = shape.count == 1 ? "(\(shape[0]),)" : "(" + shape.map(String.init).joined(separator: ", ") + ")"
        var header = "{'descr': '\(descr)', 'fortran_order': False, 'shape': \(shapeText), }"
        while (10 + header.utf8.count + 1) % 64 != 0 { header += " " }
        header += "\n"
        var data = Data([0x93, 0x4E, 0x55, 0x4D, 0x50, 0x59, 1, 0, UInt8(header.utf8.count & 0xFF), UInt8(header.utf8.count >> 8)])
        data.append(Data(header.utf8))
        data.append(rows)
        return data
    }

    /// An `.npz` at `path` holding each array as `<name>.npy`.
    static func writeArchive(_ arrays: [(name: String, npy: Data)], to path: String, compressed: Bool = false) throws {
        let archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .create)
        for (name, npy) in arrays {
            try archive.addEntry(with: name + ".npy", type: .file, uncompressedSize: Int64(npy.count), compressionMethod: compressed ? .deflate : .none) { position, size in
                npy.subdata(in: Int(position)..<Int(position) + size)
            }
        }
    }

    /// A fresh temporary folder.
    static func folder(_ label: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("narrate-\(label)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// A voice folder with Kokoro voices installed: `kokoro/<model>` and `kokoro/voices/<name>.bin`.
    static func installed(in root: String, model: String = "kokoro-test.onnx", modelBytes: Data = Data("not a real model".utf8), voices: [String: Float]) throws {
        let folder = root + "/kokoro"
        try FileManager.default.createDirectory(atPath: folder + "/voices", withIntermediateDirectories: true)
        try modelBytes.write(to: URL(fileURLWithPath: folder + "/" + model))
        for (name, seed) in voices {
            try rows(4, seed: seed).write(to: URL(fileURLWithPath: folder + "/voices/" + name + ".bin"))
        }
    }
}
