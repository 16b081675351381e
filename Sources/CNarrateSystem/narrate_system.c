#define _GNU_SOURCE
#include <fcntl.h>
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

void narrate_tune_malloc(size_t threshold) {
    mallopt(M_MMAP_THRESHOLD, (int)threshold);
    mallopt(M_TRIM_THRESHOLD, (int)threshold);
    mallopt(M_ARENA_MAX, 2);
}
