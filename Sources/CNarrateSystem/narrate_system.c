#define _GNU_SOURCE
#include <fcntl.h>
#include <unistd.h>
#include <limits.h>
#include <stdlib.h>
#include <zlib.h>
#include <malloc.h>
#include <string.h>
#include "narrate_system.h"

#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

static uint32_t crc32c_table[256];

static void crc32c_make_table(void) {
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t c = n;
        for (int k = 0; k < 8; k++) c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
        crc32c_table[n] = c;
    }
}

static uint32_t crc32c_software(uint32_t crc, const uint8_t *p, size_t n) {
    if (crc32c_table[1] == 0) crc32c_make_table();
    while (n--) crc = crc32c_table[(crc ^ *p++) & 0xFF] ^ (crc >> 8);
    return crc;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2")))
static uint32_t crc32c_hardware(uint32_t crc, const uint8_t *p, size_t n) {
    uint64_t c = crc;
    while (n >= 8) {
        uint64_t v;
        memcpy(&v, p, 8);
        c = _mm_crc32_u64(c, v);
        p += 8;
        n -= 8;
    }
    uint32_t c32 = (uint32_t)c;
    while (n--) c32 = _mm_crc32_u8(c32, *p++);
    return c32;
}
#endif

uint32_t narrate_crc32c(uint32_t crc, const void *data, size_t length) {
    const uint8_t *p = data;
    crc = ~crc;
#if defined(__x86_64__)
    if (__builtin_cpu_supports("sse4.2")) return ~crc32c_hardware(crc, p, length);
#endif
    return ~crc32c_software(crc, p, length);
}

int narrate_start_writeback(int fd, int64_t offset, int64_t length) {
    return sync_file_range(fd, (off64_t)offset, (off64_t)length, SYNC_FILE_RANGE_WRITE);
}

long narrate_copy_file_range(int source, int64_t *source_offset, int destination, size_t length) {
    loff_t offset = (loff_t)*source_offset;
    ssize_t copied = copy_file_range(source, &offset, destination, NULL, length, 0);
    *source_offset = (int64_t)offset;
    return (long)copied;
}

void narrate_tune_malloc(size_t threshold) {
    mallopt(M_MMAP_THRESHOLD, (int)threshold);
    mallopt(M_TRIM_THRESHOLD, (int)threshold);
    mallopt(M_ARENA_MAX, 2);
}

int narrate_inflate_raw(const void *input, size_t input_length, size_t size_hint, size_t limit,
                        uint8_t **output, size_t *output_length) {
    *output = NULL;
    *output_length = 0;
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    if (inflateInit2(&stream, -MAX_WBITS) != Z_OK) return -3;
    size_t capacity = size_hint < 4096 ? 4096 : size_hint;
    if (capacity > limit + 1) capacity = limit + 1;
    uint8_t *buffer = malloc(capacity);
    if (!buffer) {
        inflateEnd(&stream);
        return -3;
    }
    const uint8_t *next = input;
    size_t left = input_length;
    size_t produced = 0;
    int result = -1;
    for (;;) {
        if (stream.avail_in == 0 && left > 0) {
            stream.next_in = (Bytef *)next;
            stream.avail_in = left > UINT_MAX ? UINT_MAX : (uInt)left;
            next += stream.avail_in;
            left -= stream.avail_in;
        }
        if (produced == capacity) {
            if (capacity > limit) {
                result = -2;  // one byte past the limit was produced
                break;
            }
            size_t grown = capacity * 2 > limit + 1 ? limit + 1 : capacity * 2;
            uint8_t *bigger = realloc(buffer, grown);
            if (!bigger) {
                result = -3;
                break;
            }
            buffer = bigger;
            capacity = grown;
        }
        stream.next_out = buffer + produced;
        size_t room = capacity - produced;
        stream.avail_out = room > UINT_MAX ? UINT_MAX : (uInt)room;
        uInt before = stream.avail_out;
        int status = inflate(&stream, Z_NO_FLUSH);
        produced += before - stream.avail_out;
        if (status == Z_STREAM_END) {
            result = produced > limit ? -2 : 0;
            break;
        }
        // Z_OK means progress; anything else (Z_BUF_ERROR with the input used up, Z_DATA_ERROR,
        // Z_NEED_DICT) means the stream cannot go on: corrupt or truncated, never a loop.
        if (status != Z_OK) {
            result = status == Z_MEM_ERROR ? -3 : -1;
            break;
        }
    }
    inflateEnd(&stream);
    if (result != 0) {
        free(buffer);
        return result;
    }
    *output = buffer;
    *output_length = produced;
    return 0;
}

uint32_t narrate_crc32(uint32_t crc, const void *data, size_t length) {
    while (length > 0) {
        uInt part = length > UINT_MAX ? UINT_MAX : (uInt)length;
        crc = (uint32_t)crc32(crc, data, part);
        data = (const uint8_t *)data + part;
        length -= part;
    }
    return crc;
}
