// The children: one forked process per request, watched until it ends or its deadline.

#ifndef NARRATE_WORKER_CHILDREN_H
#define NARRATE_WORKER_CHILDREN_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "narrate_worker_protocol.h"

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

// Milliseconds on the monotonic clock.
int64_t monotonic_ms(void);

// A request's deadline counts the time its engine could run: time the engine's process waits
// for a core (other programs keep the machine busy) moves the deadline on, up to
// ENGINE_CLOCK_MOST_WAITED times the deadline in all. A hang that sleeps waits for no core and
// ends at the deadline; one that spins is given the time it waited, within that bound.
#define ENGINE_CLOCK_MOST_WAITED 10
typedef struct {
    pid_t pid;
    int64_t deadline;  // monotonic ms
    int64_t latest;    // the deadline moves on no further than this
    int64_t waited;    // the process's run-queue delay when last read (ms); -1: the kernel does not say
} engine_clock;

// Starts `clock` for the engine process `pid` (its main thread does the work).
void engine_clock_start(engine_clock *clock, pid_t pid, uint32_t deadline_ms);
// Milliseconds left (<= 0: the deadline has passed).
int64_t engine_clock_left(engine_clock *clock);

void die_with_parent(pid_t parent);
// `entry_path`: where the child writes the cache entry (FLAG_ENTRY), else NULL.
void serve(const narrate_worker_request *request, const char *text, const char *entry_path, int sample_rate);

#endif
