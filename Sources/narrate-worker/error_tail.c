// Error tails: what a child (or an in-place zygote) writes to its standard error is read as it
// comes and only its last non-empty line kept, to go with a failure's final frame.
//
// The bottom floor: it calls no other file (children.c and zygote.c use it).

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "error_tail.h"

void error_tail_feed(error_tail *tail, const char *bytes, size_t count) {
    for (size_t index = 0; index < count; index++) {
        char byte = bytes[index];
        if (byte == '\n' || byte == '\r') {
            if (tail->length > 0) {
                memcpy(tail->last, tail->line, tail->length);
                tail->last[tail->length] = 0;
                tail->length = 0;
            }
        } else if (tail->length < sizeof tail->line - 1) {
            tail->line[tail->length++] = (byte >= 0 && byte < 0x20) ? ' ' : byte;
        }
    }
}

const char *error_tail_finish(error_tail *tail) {
    error_tail_feed(tail, "\n", 1);
    return tail->last[0] ? tail->last : NULL;
}

ssize_t error_tail_drain(int fd, error_tail *tail) {
    char buffer[4096];
    ssize_t count;
    do {
        count = read(fd, buffer, sizeof buffer);
    } while (count < 0 && errno == EINTR);
    if (count > 0) error_tail_feed(tail, buffer, (size_t)count);
    return count;
}

