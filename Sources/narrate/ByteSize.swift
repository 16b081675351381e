import ArgumentParser
import Foundation

/// A size such as `500MB`, `1.5GB`, `750MiB` or a plain number of bytes.
struct ByteSize: ExpressibleByArgument, Sendable {
    var bytes: Int64

    init?(argument: String) {
        let text = argument.trimmingCharacters(in: .whitespaces).uppercased()
        let units: [(String, Double)] = [
            ("KIB", 1024), ("MIB", 1024 * 1024), ("GIB", 1024 * 1024 * 1024), ("TIB", 1024 * 1024 * 1024 * 1024),
            ("KB", 1e3), ("MB", 1e6), ("GB", 1e9), ("TB", 1e12), ("K", 1e3), ("M", 1e6), ("G", 1e9), ("T", 1e12), ("B", 1),
        ]
        var multiplier = 1.0
        var number = text
        for (suffix, value) in units where text.hasSuffix(suffix) {
            multiplier = value
            number = String(text.dropLast(suffix.count)).trimmingCharacters(in: .whitespaces)
            break
        }
        guard let value = Double(number), value >= 0, value.isFinite else { return nil }
        bytes = Int64(value * multiplier)
    }

    static var defaultCompletionKind: CompletionKind { .default }
}
