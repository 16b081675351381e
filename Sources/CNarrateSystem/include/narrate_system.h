#ifndef NARRATE_SYSTEM_H
#define NARRATE_SYSTEM_H

#include <stdint.h>

/// Starts writing back a file range to disk without waiting (sync_file_range with
/// SYNC_FILE_RANGE_WRITE), so a later fsync has little left to do. Returns 0 or -1 (errno).
int narrate_start_writeback(int fd, int64_t offset, int64_t length);

/// Gives large allocations their own mappings (fixed mmap threshold) and caps malloc arenas,
/// so memory freed after each chunk of audio goes back to the system.
void narrate_tune_malloc(void);

#endif
