import Crypto
import Foundation

/// SHA-256 of a voice's file (a model, a style pack), read in 1 MiB blocks, with a bound on its
/// size: what identifies a voice's audio in the cache.
enum FileDigest {
    struct Failure: Error {
        var reason: String
    }

    /// The file's SHA-256 in hex.
    /// - Parameter what: how a failure names the file ("its model").
    /// - Throws: `Failure`, whose reason says what is wrong with the file.
    static func sha256(of path: String, maxBytes: Int64, what: String) throws(Failure) -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw Failure(reason: "\(what) \(path) cannot be read") }
        defer { try? handle.close() }
        var hasher = SHA256()
        var total: Int64 = 0
        while true {
            let block: Data
            do { block = try handle.read(upToCount: 1 << 20) ?? Data() } catch { throw Failure(reason: "\(what) \(path) cannot be read: \(error)") }
            if block.isEmpty { break }
            total += Int64(block.count)
            guard total <= maxBytes else { throw Failure(reason: "\(what) \(path) is larger than \(maxBytes >> 20) MiB") }
            hasher.update(data: block)
        }
        guard total > 0 else { throw Failure(reason: "\(what) \(path) is empty") }
        return Hex.encode(hasher.finalize())
    }
}
