// The engine clock: a request's deadline on the monotonic clock, moved on by the time the
// engine's process waited for a core (see engine_clock.h). Children (children.c) and in-place
// zygotes (zygote.c) are watched by it.
//
// The bottom floor: it calls no other file.

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "engine_clock.h"

int engine_clock_most_waited = ENGINE_CLOCK_MOST_WAITED;

int engine_clock_set_most_waited(const char *text) {
    if (!text) return -1;
    char *end = NULL;
    long value = strtol(text, &end, 10);
    if (end == text || *end != 0 || value < 1 || value > ENGINE_CLOCK_MOST_WAITED_LIMIT) return -1;
    engine_clock_most_waited = (int)value;
    return 0;
}

int64_t monotonic_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

// Milliseconds the thread `pid` has waited for a core so far: the kernel's run-queue delay,
// the second field of /proc/<pid>/schedstat (in nanoseconds). -1 when the kernel does not say.
static int64_t waited_for_core_ms(pid_t pid) {
    char path[48];
    snprintf(path, sizeof path, "/proc/%d/schedstat", (int)pid);
    FILE *file = fopen(path, "re");
    if (!file) return -1;
    unsigned long long ran = 0, waited = 0;
    int fields = fscanf(file, "%llu %llu", &ran, &waited);
    fclose(file);
    return fields == 2 ? (int64_t)(waited / 1000000ULL) : -1;
}

void engine_clock_start(engine_clock *clock, pid_t pid, uint32_t deadline_ms) {
    int64_t now = monotonic_ms();
    *clock = (engine_clock){
        .pid = pid,
        .deadline = now + (int64_t)deadline_ms,
        .latest = now + engine_clock_most_waited * (int64_t)deadline_ms,
        .waited = waited_for_core_ms(pid),
    };
}

int64_t engine_clock_left(engine_clock *clock) {
    int64_t now = monotonic_ms();
    if (clock->deadline <= now && clock->waited >= 0) {
        int64_t waited = waited_for_core_ms(clock->pid);
        if (waited > clock->waited) {
            clock->deadline += waited - clock->waited;
            if (clock->deadline > clock->latest) clock->deadline = clock->latest;
            clock->waited = waited;
        }
    }
    return clock->deadline - now;
}
