import CNarrateSystem

/// Keeps memory flat, and allocation cheap, while audio streams through.
///
/// Narration allocates and frees buffers of a few megabytes, chunk after chunk (each chunk's
/// samples arrive from a worker process in a fresh array). Left alone, glibc's malloc raises its
/// mmap and trim thresholds as such buffers are freed (up to 32 and 64 MiB), so resident memory
/// creeps up with the length of the book. Fixed at 16 MiB, buffers are reused from the heap
/// chunk after chunk, with at most 16 MiB of freed space kept: page faults on fresh zeroed
/// mappings were a tenth of a book export's time, and a few more megabytes fit the memory
/// budgets (`say` stays under 40 MiB now that eSpeak no longer runs in this process).
enum MemoryTuning {
    static func apply() {
        narrate_tune_malloc(16 * 1024 * 1024)
    }
}
