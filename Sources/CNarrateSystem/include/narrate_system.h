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

/// copy_file_range(2) from `source` at `*source_offset` (advanced by what is copied) to
/// `destination` at its file position: bytes copied, or -1 (errno).
long narrate_copy_file_range(int source, int64_t *source_offset, int destination, size_t length);

/// Fixes malloc's mmap and trim thresholds at `threshold` bytes (glibc otherwise raises them
/// as large buffers are freed) and caps its arenas at two.
void narrate_tune_malloc(size_t threshold);

/// Inflates the raw deflate stream `input` (a ZIP entry's data) into a buffer it allocates
/// with malloc (`*output`, `*output_length`; the caller frees it), growing it from
/// `size_hint` bytes up to `limit`. Returns 0; -1 when the stream is corrupt or truncated
/// (never loops on it); -2 when the output would pass `limit`; -3 when memory runs out.
int narrate_inflate_raw(const void *input, size_t input_length, size_t size_hint, size_t limit,
                        uint8_t **output, size_t *output_length);

/// zlib's CRC-32 (the ZIP checksum) of `length` bytes, continuing from `crc` (0 to start).
uint32_t narrate_crc32(uint32_t crc, const void *data, size_t length);

#endif
