#ifndef NARRATE_SYSTEM_H
#define NARRATE_SYSTEM_H

#include <stddef.h>
#include <stdint.h>

#include "narrate_worker_protocol.h"

/// CRC-32C (Castagnoli) of `length` bytes, continuing from `crc` (0 to start): the SSE 4.2
/// instruction where the CPU has it, a table otherwise.
uint32_t narrate_crc32c(uint32_t crc, const void *data, size_t length);

/// Starts writing back a file range to disk without waiting (sync_file_range with
/// SYNC_FILE_RANGE_WRITE), so a later fsync has little left to do. Returns 0 or -1 (errno).
int narrate_start_writeback(int fd, int64_t offset, int64_t length);

/// Fixes malloc's mmap and trim thresholds at `threshold` bytes (glibc otherwise raises them
/// as large buffers are freed) and caps its arenas at two.
void narrate_tune_malloc(size_t threshold);

#endif
