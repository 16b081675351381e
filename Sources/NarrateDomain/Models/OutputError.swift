/// A file that could not be written: which, and why. Speech and export report it alike.
public struct OutputError: Error, Sendable, Equatable {
    /// Why the file could not be written, as far as the advice depends on it.
    public enum Cause: Sendable, Equatable {
        /// Something already stands where the file or its folder goes (a file where a folder
        /// is needed, or a folder where the file goes).
        case alreadyExists
        /// The folder (or the file) may not be written by this user, or is on a read-only disk.
        case permissionDenied
        /// The disk (or the user's quota) is full.
        case noSpace
        /// The folder the file goes in does not exist.
        case missingFolder
        /// The audio is longer than one file of `format` can hold (`limit`, e.g. "4 GiB").
        case tooLong(format: String, limit: String)
        /// Anything else, in the system's words.
        case other(String)
    }

    /// The path the user asked for.
    public var path: String
    public var cause: Cause

    public init(path: String, cause: Cause) {
        self.path = path
        self.cause = cause
    }

    /// What happened, e.g. `Could not write 'out.wav': the disk is full`.
    public var problem: String {
        switch cause {
        case .alreadyExists: "Could not write '\(path)': something of that name is in the way"
        case .permissionDenied: "Could not write '\(path)': permission denied"
        case .noSpace: "Could not write '\(path)': the disk is full"
        case .missingFolder: "Could not write '\(path)': its folder does not exist"
        case let .tooLong(format, limit): "Could not write '\(path)': the audio is longer than a \(format) file can hold (\(limit))"
        case let .other(reason): "Could not write '\(path)': \(Self.trimmed(reason))"
        }
    }

    /// What to do about it, before trying again.
    public var remedy: String {
        switch cause {
        case .alreadyExists: "Move it away or choose another name"
        case .permissionDenied: "Choose a folder you may write to, or change its permissions"
        case .noSpace: "Free some space"
        case .missingFolder: "Create the folder or choose another"
        case .tooLong: "Narrate fewer pages at a time"
        case .other: "Check the folder and the disk"
        }
    }

    /// A reason ends without a full stop: it goes inside a sentence.
    private static func trimmed(_ reason: String) -> String {
        var reason = reason
        while reason.hasSuffix(".") { reason.removeLast() }
        return reason
    }
}

extension OutputError: CustomStringConvertible {
    public var description: String {
        "\(problem); nothing was written. \(remedy), then try again."
    }
}
