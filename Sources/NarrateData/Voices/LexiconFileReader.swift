import Foundation
import NarrateDomain

/// Reads the user's own PLS lexicon files: `--lexicon` files and a preset's `lexicons`.
public enum LexiconFileReader {
    /// The lexicons at `paths`, in order.
    /// - Throws: `PronunciationError.unreadableLexicon` naming the first file that cannot be
    ///   read or is not a PLS lexicon within bounds.
    public static func read(_ paths: [String]) throws(PronunciationError) -> [PronunciationLexicon] {
        guard paths.count <= PronunciationLexicon.maxLexicons else {
            throw .tooManyLexicons(count: paths.count, limit: PronunciationLexicon.maxLexicons)
        }
        var lexicons: [PronunciationLexicon] = []
        for path in paths {
            let data = try bytes(at: path)
            switch PLSReader.read(data, name: path) {
            case let .success(lexicon): lexicons.append(lexicon)
            case let .failure(failure): throw .unreadableLexicon(path: path, reason: failure.reason)
            }
        }
        return lexicons
    }

    /// The lexicon at `path`, or, when it cannot be read, an empty one that says why: a preset's
    /// broken lexicon is reported when the preset speaks, and the text read without it.
    static func readOrReport(_ path: String) -> PronunciationLexicon {
        do {
            return try read([path])[0]
        } catch {
            let reason = switch error {
            case let .unreadableLexicon(_, reason): reason
            case .tooManyLexicons: "too many lexicons"
            }
            return PronunciationLexicon(name: path, language: nil, digest: "unreadable:\(reason)", entries: [], problem: "it could not be read (\(reason))")
        }
    }

    private static func bytes(at path: String) throws(PronunciationError) -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "it cannot be opened (permissions?)" : "there is no such file"
            throw .unreadableLexicon(path: path, reason: reason)
        }
        defer { try? handle.close() }
        do {
            // One byte past the bound tells a file that is too large without reading all of it.
            let data = try handle.read(upToCount: PLSReader.maxBytes + 1) ?? Data()
            guard data.count <= PLSReader.maxBytes else {
                throw PronunciationError.unreadableLexicon(path: path, reason: "it is larger than \(PLSReader.maxBytes / 1024) KiB, the most a lexicon may be")
            }
            return Array(data)
        } catch let error as PronunciationError {
            throw error
        } catch {
            throw .unreadableLexicon(path: path, reason: "it cannot be read (\(error.localizedDescription))")
        }
    }
}
