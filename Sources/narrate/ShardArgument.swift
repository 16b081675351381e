import ArgumentParser
import NarrateKit

/// `i/n`, 1 ≤ i ≤ n.
struct ShardArgument: ExpressibleByArgument, Sendable {
    var shard: ExportShard

    init?(argument: String) {
        let parts = argument.split(separator: "/").map { Int($0) }
        guard parts.count == 2, let index = parts[0], let count = parts[1], count >= 1, (1...count).contains(index) else { return nil }
        shard = ExportShard(index: index, count: count)
    }
}
