import CNarrateSystem

/// Keeps memory flat, and allocation cheap, while audio streams through.
///
/// Narration allocates and frees buffers of a few megabytes, chunk after chunk (each chunk's
/// samples arrive from a worker process in a fresh array). Left alone, glibc's malloc raises its
/// mmap and trim thresholds as such buffers are freed (up to 32 and 64 MiB), so resident memory
/// creeps up with the length of the book. Fixing the thresholds picks one side of a trade:
/// - `apply()` (every command): 128 KiB. Each buffer gets its own mapping, returned to the
///   system as soon as it is freed: the smallest footprint (`say` stays under 40 MiB), for a
///   fresh zeroed page per 4 KiB of audio.
/// - `applyForService()` (`narrate serve`): 1 MiB, in between.
/// - `applyForBatch()` (`narrate book`): 16 MiB. Buffers are reused from the heap chunk after
///   chunk, with at most 16 MiB of freed space kept: page faults were a tenth of a book
///   export's time, and a few more megabytes fit its 64 MiB budget.
enum MemoryTuning {
    static func apply() {
        narrate_tune_malloc(128 * 1024)
    }

    static func applyForBatch() {
        narrate_tune_malloc(16 * 1024 * 1024)
    }

    /// `narrate serve`: 1 MiB. A sentence's buffers (a few hundred kilobytes) are reused from
    /// the heap, request after request (a tenth of an uncached request's time went to page
    /// faults), while the 1 MiB pieces of large page files are mapped and returned when sent,
    /// so serving them to many clients leaves no heap behind.
    static func applyForService() {
        narrate_tune_malloc(1024 * 1024)
    }
}
