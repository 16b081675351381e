// Framing: everything the worker's processes write (a frame of the protocol, or a run of
// bytes to a pipe) goes out whole, and everything they read comes in whole.
//
// The wire format's floor, the bottom: it calls no other file (main.c, children.c, zygote.c,
// synthesis.c and audio.c write and read through it).

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "frames.h"
#include "narrate_worker_protocol.h"

// ---- Output -------------------------------------------------------------------------------

int write_all(int fd, struct iovec *parts, int count) {
    while (count > 0) {
        ssize_t written = writev(fd, parts, count);
        if (written < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        while (count > 0 && (size_t)written >= parts->iov_len) {
            written -= (ssize_t)parts->iov_len;
            parts++;
            count--;
        }
        if (count > 0) {
            parts->iov_base = (char *)parts->iov_base + written;
            parts->iov_len -= (size_t)written;
        }
    }
    return 0;
}

int write_frame(uint32_t status, uint64_t id, int32_t sample_rate, int32_t detail,
                const void *first, size_t first_length, uint64_t sample_count,
                const void *second, size_t second_length, uint32_t mark_count) {
    uint64_t payload = (uint64_t)first_length + second_length;
    narrate_worker_frame frame = {
        .magic = NARRATE_WORKER_FRAME_MAGIC,
        .status = status,
        .id = id,
        .sample_rate = sample_rate,
        .detail = detail,
        .sample_count = sample_count,
        .mark_count = mark_count,
        .payload_length_high = (uint32_t)(payload >> 32),
        .payload_length_low = (uint32_t)payload,
        .protocol_version = NARRATE_WORKER_PROTOCOL_VERSION,
    };
    struct iovec parts[3] = {
        {&frame, sizeof frame},
        {(void *)first, first_length},
        {(void *)second, second_length},
    };
    return write_all(STDOUT_FILENO, parts, 3);
}

// The worker's last word on a request; `note` (may be NULL) is the last line the child wrote
// to its standard error, which says why it failed ("*** buffer overflow detected ***").
void final_frame(uint64_t id, uint32_t status, int32_t detail, const char *note) {
    size_t length = note ? strlen(note) : 0;
    if (write_frame(status, id, 0, detail, note, length, 0, NULL, 0, 0) != 0) _exit(0);  // client gone
}

// ---- Input --------------------------------------------------------------------------------

// 0: read `length` bytes; 1: end of input before any byte; -1: error or a partial read.
int read_exactly(int fd, void *buffer, size_t length) {
    size_t done = 0;
    while (done < length) {
        ssize_t count = read(fd, (char *)buffer + done, length - done);
        if (count < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        if (count == 0) return done == 0 ? 1 : -1;
        done += (size_t)count;
    }
    return 0;
}
