/// The bounds `narrate-pdf` runs under for one document.
public struct PDFReaderLimits: Sendable, Hashable {
    /// Its address space (RLIMIT_AS), in MiB.
    public var memoryMiB: Int
    /// Its CPU time (RLIMIT_CPU), in seconds.
    public var cpuSeconds: Int
    /// The wall-clock time it may take, after which it is killed.
    public var deadline: Duration
    /// Pages read at most; the rest of a longer document is left out.
    public var maxPages: Int
    /// Its output (the positioned words), in MiB.
    public var maxOutputMiB: Int

    public init(memoryMiB: Int = 1536, cpuSeconds: Int = 120, deadline: Duration = .seconds(180), maxPages: Int = 5000, maxOutputMiB: Int = 256) {
        self.memoryMiB = memoryMiB
        self.cpuSeconds = cpuSeconds
        self.deadline = deadline
        self.maxPages = maxPages
        self.maxOutputMiB = maxOutputMiB
    }
}
