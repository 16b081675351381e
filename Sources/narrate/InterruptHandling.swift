import Foundation
import NarrateKit

/// Removes files being written when the user interrupts, so nothing partial is left behind.
enum InterruptHandling {
    static func install() {
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            signal(signalNumber) { received in
                removeTemporaryFiles()
                _exit(128 + received)
            }
        }
    }
}
