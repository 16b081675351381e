import Foundation
import NarrateKit
import Synchronization

/// Export progress on standard error: a bar redrawn in place on a terminal (pages done, hours
/// of audio, speed against real time, time left), one line per file otherwise.
final class ProgressDisplay: Sendable {
    private struct State {
        var lastDraw: Double = 0
        var drewBar = false
    }

    private let quiet: Bool
    private let isTerminal: Bool
    private let directory: String
    private let started = Date()
    private let state = Mutex(State())

    init(quiet: Bool, directory: String) {
        self.quiet = quiet
        self.directory = directory
        isTerminal = isatty(STDERR_FILENO) == 1
    }

    func update(_ progress: ExportProgress) {
        guard !quiet else { return }
        let elapsed = Date().timeIntervalSince(started)
        if !isTerminal {
            if let file = progress.finishedFile {
                write("[\(progress.filesDone)/\(progress.filesTotal)] \(directory)/\(file)\n")
            }
            return
        }
        let line: String? = state.withLock { state in
            let finished = progress.chunksDone == progress.chunksTotal
            guard elapsed - state.lastDraw >= 0.1 || finished || progress.finishedFile != nil else { return nil }
            state.lastDraw = elapsed
            state.drewBar = true
            return Self.bar(progress, elapsed: elapsed)
        }
        if let line { write("\r\u{1B}[2K" + line) }
    }

    func finish() {
        if state.withLock({ $0.drewBar }) { write("\n") }
    }

    static func bar(_ progress: ExportProgress, elapsed: Double) -> String {
        let fraction = progress.chunksTotal > 0 ? Double(progress.chunksDone) / Double(progress.chunksTotal) : 1
        let width = 24
        let filled = Int((fraction * Double(width)).rounded(.down))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let speed = elapsed > 0 ? progress.audioSeconds / elapsed : 0
        let remaining = fraction > 0 && fraction < 1 ? elapsed / fraction - elapsed : 0
        let eta = fraction >= 1 ? "done" : (fraction > 0 ? "ETA \(clock(remaining))" : "ETA …")
        return "\(bar) \(Int(fraction * 100))%  pages \(progress.pagesDone)/\(progress.pagesTotal)  files \(progress.filesDone)/\(progress.filesTotal)  \(String(format: "%.2f", progress.audioSeconds / 3600)) h audio  \(String(format: "%.0f", speed))× real time  \(eta)"
    }

    private static func clock(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        return total >= 3600 ? String(format: "%d:%02d:%02d", total / 3600, total / 60 % 60, total % 60) : String(format: "%d:%02d", total / 60, total % 60)
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
