// The last line a process wrote to its standard error (the reason it failed). The bottom
// floor: it calls no other file.

#ifndef NARRATE_WORKER_ERROR_TAIL_H
#define NARRATE_WORKER_ERROR_TAIL_H

#include <stddef.h>
#include <sys/types.h>

// The last non-empty line of what a process wrote to its standard error.
typedef struct {
    char line[256];
    size_t length;
    char last[256];
} error_tail;

void error_tail_feed(error_tail *tail, const char *bytes, size_t count);
// Reads what is there into the tail; 0 at end of input (-1 when nothing is there to read from
// a non-blocking pipe).
ssize_t error_tail_drain(int fd, error_tail *tail);
// The last line (NULL when there was none).
const char *error_tail_finish(error_tail *tail);

#endif
