import ArgumentParser
import Foundation
import NarrateKit

/// Prints one line that says what happened and what to do, and ends with a failure status.
/// Control characters the message quotes from input are escaped: it stays one harmless line.
func fail(_ error: any Error) -> ExitCode {
    let message = String(describing: error).escapingControlCharacters
    FileHandle.standardError.write(Data("narrate: error: \(message)\n".utf8))
    return ExitCode.failure
}

/// Removes files being written when the user interrupts, so nothing partial is left behind.
enum InterruptHandling {
    static func install() {
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            signal(signalNumber) { received in
                TemporaryFileRegistry.removeAll()
                _exit(128 + received)
            }
        }
    }
}

/// A failure the CLI itself detects, with its message.
struct CLIMessage: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
