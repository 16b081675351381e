import Foundation
import HTTPTypes
import Logging
import NarrateKit

/// What a client is told of an error, and what the log keeps: every error the service answers
/// (HTTP and Wyoming) passes here once. Its `detail` (the full cause) is logged with control
/// characters escaped, so a client's input cannot write to the operator's terminal; and a
/// message that would still name one of the server's folders (the cache, the library, the
/// voice folders, temporary files, the home and working folders) is replaced, the original
/// going to the log. A remote client learns nothing of the machine from an error.
struct ErrorDisclosure: Sendable {
    /// The server's folders, longest first, without a trailing `/`.
    let folders: [String]
    let logger: Logger

    /// - Parameter folders: the server's own folders; symbolic links are resolved too, and
    ///   `/` alone is ignored.
    init(folders: [String], logger: Logger) {
        var known = Set<String>()
        for folder in folders where !folder.isEmpty {
            let absolute = URL(fileURLWithPath: folder).standardizedFileURL.path
            for form in [absolute, URL(fileURLWithPath: absolute).resolvingSymlinksInPath().path] {
                let trimmed = form.hasSuffix("/") ? String(form.dropLast()) : form
                if trimmed.count > 1 { known.insert(trimmed) }
            }
        }
        self.folders = known.sorted { ($0.count, $0) > ($1.count, $1) }
        self.logger = logger
    }

    /// The folders of a service over `environment`: where it keeps and reads files.
    init(environment: NarrateEnvironment, logger: Logger) {
        let configuration = environment.configuration
        var folders = configuration.voiceDirectories
        folders += [configuration.cacheDirectory, configuration.workerExecutable.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path }].compactMap { $0 }
        folders += [
            URL(fileURLWithPath: configuration.libraryPath).deletingLastPathComponent().path, environment.uploadsDirectory,
            environment.renderedFilesDirectory, NSTemporaryDirectory(), FileManager.default.currentDirectoryPath,
            URL(fileURLWithPath: CommandLine.arguments.first ?? "").deletingLastPathComponent().path,
        ]
        if let home = ProcessInfo.processInfo.environment["HOME"] { folders.append(home) }
        self.init(folders: folders, logger: logger)
    }

    /// `error` as a client may read it, its detail logged.
    /// - Parameter context: what the client asked, for the log line (`POST /v1/audio/speech`).
    func disclosed(_ error: APIError, context: String) -> APIError {
        var error = error
        let level: Logger.Level = error.status.code >= 500 ? .warning : .notice
        if let detail = error.detail {
            logger.log(level: level, "\(context) \(error.status.code) \(error.code ?? "-"): \(Self.logged(detail))")
            error.detail = nil
        }
        if namesFolder(error.message) {
            logger.warning("\(context) \(error.status.code) \(error.code ?? "-") withheld from the client: \(Self.logged(error.message))")
            error.message = error.status.code >= 500
                ? "The service failed on this request; its log says why."
                : "The request was refused; the service's log says why."
        }
        return error
    }

    /// Whether `text` names one of the server's folders (or a file in one).
    func namesFolder(_ text: String) -> Bool {
        folders.contains { folder in
            var searched = text[...]
            while let found = searched.range(of: folder) {
                // `/tmp` names a folder in "/tmp/x", "/tmp" and "/tmp.", not in "/tmpfs" or "/tmp.d".
                let after = found.upperBound
                if after == searched.endIndex || !Self.continuesName(searched[after...]) { return true }
                searched = searched[after...]
            }
            return false
        }
    }

    /// Whether `rest` goes on with the name a match ended in: a letter, digit, `_` or `-`, or a
    /// `.` before one of those.
    private static func continuesName(_ rest: Substring) -> Bool {
        func isNameCharacter(_ character: Character) -> Bool { character.isLetter || character.isNumber || character == "_" || character == "-" }
        guard let first = rest.first else { return false }
        if isNameCharacter(first) { return true }
        return first == "." && rest.dropFirst().first.map(isNameCharacter) == true
    }

    /// A line for the log: control characters escaped, at most 2,000 characters.
    static func logged(_ text: String) -> String {
        text.escapedExcerpt(limit: 2_000)
    }
}
