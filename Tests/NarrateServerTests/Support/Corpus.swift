import Foundation
import Testing

/// The shared test corpus (`../shared/corpus` beside the repository).
enum Corpus {
    struct Missing: Error, CustomStringConvertible {
        var description: String
    }

    /// The corpus folder, found from this file's path: up to the folder holding Package.swift,
    /// then `../shared/corpus`.
    static func directory(filePath: String = #filePath) throws -> URL {
        var folder = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
                let corpus = folder.deletingLastPathComponent().appendingPathComponent("shared/corpus")
                guard FileManager.default.fileExists(atPath: corpus.path) else {
                    throw Missing(description: "The test corpus is missing: expected it at \(corpus.path)")
                }
                return corpus
            }
            folder = folder.deletingLastPathComponent()
        }
        throw Missing(description: "No Package.swift above \(filePath): cannot locate ../shared/corpus")
    }

    /// The bytes and path of `name` (e.g. `epub/wasteland.epub`).
    static func file(_ name: String) throws -> (data: Data, path: String) {
        let url = try directory().appendingPathComponent(name)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw Missing(description: "Corpus file missing: \(url.path)")
        }
        return (data, url.path)
    }
}
