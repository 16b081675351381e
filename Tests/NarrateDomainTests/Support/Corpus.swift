import Foundation
import NarrateDomain

/// The shared test corpus (`../shared/corpus` next to the repository), found from this file's path.
enum Corpus {
    static let prideAndPrejudice = "pg1342-pride-and-prejudice-cp1252.txt"
    static let devilsDictionary = "pg972-devils-dictionary-1990s-header-ascii.txt"
    static let entreNous = "pg44157-entre-nous-french-utf8-bom.txt"

    /// The corpus folder: `$NARRATE_CORPUS`, else the first `shared/corpus` beside an ancestor of this file
    /// (symlinks resolved), so it works from the main checkout, a worktree, or a scratch package.
    static let directory: URL? = {
        if let override = ProcessInfo.processInfo.environment["NARRATE_CORPUS"] {
            return URL(fileURLWithPath: override, isDirectory: true)
        }
        var folder = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent("shared/corpus", isDirectory: true)
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
            folder.deleteLastPathComponent()
        }
        return nil
    }()

    struct Missing: Error, CustomStringConvertible {
        var file: String
        var description: String {
            "Test corpus file txt/\(file) not found: expected ../shared/corpus next to the repository "
                + "(searched upwards from \(#filePath)), or set NARRATE_CORPUS."
        }
    }

    /// The raw bytes of `txt/<name>`; throws a clear error when the corpus is absent.
    static func bytes(_ name: String) throws -> Data {
        guard let directory,
              let data = FileManager.default.contents(atPath: directory.appendingPathComponent("txt/\(name)").path)
        else { throw Missing(file: name) }
        return data
    }

    /// `txt/<name>` decoded with ``TextFileDecoder``.
    static func text(_ name: String) throws -> String {
        TextFileDecoder.decode(try bytes(name))
    }
}
