import ArgumentParser
import Foundation
import NarrateKit

/// How a failed command ends: the one place where errors are reported to the user.
enum CommandFailure {
    /// The error to exit with. The argument parser's own pass as they are, for it to print
    /// (an exit code, a clean exit, a validation error, and the help request its internal
    /// `help` command throws); any other is reported on one line and ends the program with
    /// the failure status.
    static func exitError(for error: any Error) -> any Error {
        if isArgumentParserError(error) { return error }
        report(error)
        return ExitCode.failure
    }

    /// Whether the argument parser defined `error`'s type. Some of its types are internal
    /// (`--help` runs a command that throws one), so they are known by their module.
    static func isArgumentParserError(_ error: any Error) -> Bool {
        error is ExitCode || error is CleanExit || error is ValidationError
            || String(reflecting: type(of: error)).hasPrefix("ArgumentParser.")
    }

    /// Prints one line that says what happened and what to do. Control characters the message
    /// quotes from input are escaped: it stays one harmless line.
    static func report(_ error: any Error) {
        let message = ErrorMessage.line(for: error).escapingControlCharacters
        FileHandle.standardError.write(Data("narrate: error: \(message)\n".utf8))
    }
}
