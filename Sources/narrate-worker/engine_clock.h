// The clock a request's deadline is kept by. The bottom floor: it calls no other file.

#ifndef NARRATE_WORKER_ENGINE_CLOCK_H
#define NARRATE_WORKER_ENGINE_CLOCK_H

#include <stdint.h>
#include <sys/types.h>

// Milliseconds on the monotonic clock.
int64_t monotonic_ms(void);

// A request's deadline counts the time its engine could run: time the engine's process waits
// for a core (other programs keep the machine busy) moves the deadline on, up to
// engine_clock_most_waited times the deadline in all (10 unless the worker is told otherwise:
// $NARRATE_ENGINE_MOST_WAITED). A hang that sleeps waits for no core and ends at the deadline;
// one that spins is given the time it waited, within that bound. A process caught waiting for a
// core (runnable, with less time on one than its deadline) has its deadline looked at again a
// moment later, since the kernel counts a wait only once it ends.
#define ENGINE_CLOCK_MOST_WAITED 10
#define ENGINE_CLOCK_MOST_WAITED_LIMIT 1000
extern int engine_clock_most_waited;
// Sets engine_clock_most_waited from a decimal text of 1 to ENGINE_CLOCK_MOST_WAITED_LIMIT;
// anything else leaves it as it is and answers -1.
int engine_clock_set_most_waited(const char *text);
// A voice's load is bounded by its text's deadline but never less than engine_clock_least_load_ms
// (ENGINE_CLOCK_LEAST_LOAD_MS: loading a model costs more than speaking a short text, and more
// still on a busy machine). $NARRATE_ENGINE_LEAST_LOAD_MS may only shorten it (1000 and up), for
// a test of a load that never ends.
#define ENGINE_CLOCK_LEAST_LOAD_MS 60000
extern uint32_t engine_clock_least_load_ms;
// Sets engine_clock_least_load_ms from a decimal text of 1000 to ENGINE_CLOCK_LEAST_LOAD_MS;
// anything else leaves it as it is and answers -1.
int engine_clock_set_least_load(const char *text);
typedef struct {
    pid_t pid;
    int64_t deadline;  // monotonic ms
    int64_t latest;    // the deadline moves on no further than this
    int64_t allowed_ms;  // the deadline as given: the most time on a core the engine is granted
    int64_t ran;       // the process's time on a core when the clock started (ms)
    int64_t waited;    // the process's run-queue delay when last read (ms); -1: the kernel does not say
} engine_clock;

// Starts `clock` for the engine process `pid` (its main thread does the work).
void engine_clock_start(engine_clock *clock, pid_t pid, uint32_t deadline_ms);
// Milliseconds left (<= 0: the deadline has passed).
int64_t engine_clock_left(engine_clock *clock);

#endif
