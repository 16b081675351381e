import CNarrateSystem

/// Keeps memory flat and allocation cheap while audio streams through.
///
/// Narration allocates and frees buffers of a few megabytes again and again. glibc's malloc
/// raises its mmap and trim thresholds as such buffers are freed (up to 32 and 64 MiB), so
/// resident memory creeps up with the length of the book; a threshold low enough to give each
/// buffer its own mapping instead costs a fresh zeroed page for every 4 KiB of audio (a tenth
/// of a book export's time went to page faults). Fixed 16 MiB thresholds serve the buffers
/// from the heap, reused chunk after chunk, with at most 16 MiB of freed space kept.
enum MemoryTuning {
    static func apply() {
        narrate_tune_malloc()
    }
}
