import Crypto
import Foundation
import NarrateDomain

/// Book files sent to the service, kept where the library can read them again: one file per
/// content (its SHA-256), written under a temporary name and renamed into place, so the same
/// book uploaded twice is one file, and an interrupted upload leaves none.
public enum BookUploadStore {
    /// Stores `bytes` as `<directory>/<sha256>.<fileExtension>` unless that file exists.
    /// - Returns: the file's path.
    /// - Throws: `BookError.unreadable` naming the folder when it cannot be written.
    public static func store(_ bytes: [UInt8], fileExtension: String, in directory: String) throws(BookError) -> String {
        let path = "\(directory)/\(Hex.encode(SHA256.hash(data: bytes))).\(fileExtension)"
        guard access(path, R_OK) != 0 else { return path }
        do throws(SystemCallError) {
            try Folder.makeAll(directory)
            try AtomicFile.writeWhole(bytes, to: path)
        } catch {
            throw .unreadable(path: directory, reason: "the upload could not be stored (\(error.reason))")
        }
        return path
    }
}
