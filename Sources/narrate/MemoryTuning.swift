import CNarrateSystem

/// Keeps memory flat while audio streams through.
///
/// Narration allocates and frees buffers of a few megabytes again and again. glibc's malloc
/// raises its mmap threshold after the first such buffer is freed, and from then on serves
/// them from the heap, where freed space is kept: the resident size creeps up with the
/// length of the book. A fixed threshold keeps large buffers in their own mappings, returned
/// to the system as soon as they are freed.
enum MemoryTuning {
    static func apply() {
        narrate_tune_malloc()
    }
}
