#define _GNU_SOURCE
#include <fcntl.h>
#include <malloc.h>
#include "narrate_system.h"

int narrate_start_writeback(int fd, int64_t offset, int64_t length) {
    return sync_file_range(fd, (off64_t)offset, (off64_t)length, SYNC_FILE_RANGE_WRITE);
}

void narrate_tune_malloc(void) {
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
    mallopt(M_ARENA_MAX, 2);
}
