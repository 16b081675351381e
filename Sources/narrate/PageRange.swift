import ArgumentParser
import Foundation

/// `10-20`, or a single number.
struct PageRange: ExpressibleByArgument, Sendable {
    var range: ClosedRange<Int>

    init?(argument: String) {
        let parts = argument.split(separator: "-", omittingEmptySubsequences: false).map { Int($0.trimmingCharacters(in: .whitespaces)) }
        switch parts.count {
        case 1:
            guard let value = parts[0], value >= 1 else { return nil }
            range = value...value
        case 2:
            guard let low = parts[0], let high = parts[1], low >= 1, low <= high else { return nil }
            range = low...high
        default:
            return nil
        }
    }
}
