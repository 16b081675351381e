import Foundation
import NarrateDomain

/// Reads a text file or standard input and decodes it (UTF-8/UTF-16 with BOM, else Windows-1252).
public enum TextFileReader {
    /// - Throws: `BookError.fileNotFound` / `.unreadable` with the path.
    public static func read(path: String) throws(BookError) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw .fileNotFound(path: path) }
        guard !isDirectory.boolValue else { throw .unreadable(path: path, reason: "it is a folder, not a file") }
        do {
            return TextFileDecoder.decode(try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe))
        } catch {
            throw .unreadable(path: path, reason: (error as NSError).localizedDescription)
        }
    }

    /// Everything on standard input, decoded.
    public static func readStandardInput() -> String {
        TextFileDecoder.decode(FileHandle.standardInput.readDataToEndOfFile())
    }
}
