import Foundation
import NarrateKit
import Synchronization

/// Download progress on standard error: a bar redrawn in place on a terminal (bytes done of
/// the total, speed), one line per finished file otherwise; nothing with `--quiet`.
final class DownloadProgressDisplay: Sendable {
    private struct State {
        var file = ""
        var fileStarted = Date()
        var lastDraw = Date.distantPast
        var drewBar = false
    }

    private let quiet: Bool
    private let isTerminal: Bool
    private let state = Mutex(State())

    init(quiet: Bool) {
        self.quiet = quiet
        isTerminal = isatty(STDERR_FILENO) == 1
    }

    func update(_ progress: VoiceDownloadProgress) {
        guard !quiet else { return }
        let now = Date()
        let (elapsed, draw): (Double, Bool) = state.withLock { state in
            if state.file != progress.file {
                state.file = progress.file
                state.fileStarted = now
                state.lastDraw = .distantPast
            }
            let draw = progress.isFinished || now.timeIntervalSince(state.lastDraw) >= 0.1
            if draw, isTerminal {
                state.lastDraw = now
                state.drewBar = !progress.isFinished
            }
            return (now.timeIntervalSince(state.fileStarted), draw)
        }
        let speed = elapsed > 0 ? Double(progress.bytesDone - progress.resumedFrom) / elapsed : 0
        if isTerminal {
            guard draw else { return }
            write("\r\u{1B}[2K" + Self.bar(progress, speed: speed) + (progress.isFinished ? "\n" : ""))
        } else if progress.isFinished {
            let resumed = progress.resumedFrom > 0 ? ", resumed at \(Format.bytes(progress.resumedFrom))" : ""
            write("Downloaded \(progress.file) (\(Format.bytes(progress.bytesDone))\(resumed), \(Format.bytes(Int64(speed)))/s)\n")
        }
    }

    /// Ends a bar left unfinished (a failed download), so an error starts on a line of its own.
    func finish() {
        if state.withLock({ $0.drewBar }) { write("\n") }
    }

    /// `en_US-lessac-medium.onnx ██████░░░░ 42%  26.5 MB of 63.2 MB  5.1 MB/s`
    static func bar(_ progress: VoiceDownloadProgress, speed: Double) -> String {
        let rate = "\(Format.bytes(Int64(speed)))/s"
        guard let total = progress.bytesTotal, total > 0 else {
            return "\(progress.file)  \(Format.bytes(progress.bytesDone))  \(rate)"
        }
        let fraction = min(1, Double(progress.bytesDone) / Double(total))
        let width = 24
        let filled = Int((fraction * Double(width)).rounded(.down))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        return "\(progress.file) \(bar) \(Int(fraction * 100))%  \(Format.bytes(progress.bytesDone)) of \(Format.bytes(total))  \(rate)"
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
