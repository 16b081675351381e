/// A summary of the audio cache's content.
public struct CacheStatistics: Sendable, Equatable, Codable {
    public var entryCount: Int
    public var totalBytes: Int64
    public var totalDuration: Double
    public var totalHits: Int
    /// Temporary files that writers killed mid-store left behind, removed while counting.
    public var removedTemporaries: Int

    public init(entryCount: Int, totalBytes: Int64, totalDuration: Double, totalHits: Int, removedTemporaries: Int = 0) {
        self.entryCount = entryCount
        self.totalBytes = totalBytes
        self.totalDuration = totalDuration
        self.totalHits = totalHits
        self.removedTemporaries = removedTemporaries
    }
}
