// Output and input of the worker's processes: the protocol's frames on standard output,
// whole writes and exact reads on any pipe.

#ifndef NARRATE_WORKER_FRAMES_H
#define NARRATE_WORKER_FRAMES_H

#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

int write_all(int fd, struct iovec *parts, int count);
int write_frame(uint32_t status, uint64_t id, int32_t sample_rate, int32_t detail,
                const void *first, size_t first_length, uint64_t sample_count,
                const void *second, size_t second_length, uint32_t mark_count);
void final_frame(uint64_t id, uint32_t status, int32_t detail, const char *note);
int read_exactly(int fd, void *buffer, size_t length);

#endif
