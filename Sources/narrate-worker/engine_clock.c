// The engine clock: a request's deadline on the monotonic clock, moved on by the time the
// engine's process waited for a core (see engine_clock.h). Children (children.c) and in-place
// zygotes (zygote.c) are watched by it.
//
// The bottom floor: it calls no other file.

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

uint32_t engine_clock_least_load_ms = ENGINE_CLOCK_LEAST_LOAD_MS;

int engine_clock_set_least_load(const char *text) {
    if (!text) return -1;
    char *end = NULL;
    long value = strtol(text, &end, 10);
    if (end == text || *end != 0 || value < 1000 || value > ENGINE_CLOCK_LEAST_LOAD_MS) return -1;
    engine_clock_least_load_ms = (uint32_t)value;
    return 0;
}

int64_t monotonic_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

// The thread `pid`'s time on a core and its run-queue delay so far (the kernel's sum of
// each, the first two fields of /proc/<pid>/schedstat, in nanoseconds), in milliseconds.
// 0 when the kernel says; -1 when it does not.
static int read_schedstat(pid_t pid, int64_t *ran_ms, int64_t *waited_ms) {
    char path[48];
    snprintf(path, sizeof path, "/proc/%d/schedstat", (int)pid);
    FILE *file = fopen(path, "re");
    if (!file) return -1;
    unsigned long long ran = 0, waited = 0;
    int fields = fscanf(file, "%llu %llu", &ran, &waited);
    fclose(file);
    if (fields != 2) return -1;
    *ran_ms = (int64_t)(ran / 1000000ULL);
    *waited_ms = (int64_t)(waited / 1000000ULL);
    return 0;
}

// Whether the thread `pid` is runnable (on a core or waiting in the run queue for one): the
// state letter after the command name in /proc/<pid>/stat.
static int is_runnable(pid_t pid) {
    char path[48], line[512];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *file = fopen(path, "re");
    if (!file) return 0;
    size_t length = fread(line, 1, sizeof line - 1, file);
    fclose(file);
    line[length] = 0;
    const char *end = strrchr(line, ')');  // the command name may hold any byte but NUL
    return end && end[1] == ' ' && end[2] == 'R';
}

void engine_clock_start(engine_clock *clock, pid_t pid, uint32_t deadline_ms) {
    int64_t now = monotonic_ms();
    *clock = (engine_clock){
        .pid = pid,
        .deadline = now + (int64_t)deadline_ms,
        .latest = now + engine_clock_most_waited * (int64_t)deadline_ms,
        .allowed_ms = deadline_ms,
        .ran = -1,
        .waited = -1,
    };
    if (read_schedstat(pid, &clock->ran, &clock->waited) != 0) clock->ran = clock->waited = -1;
}

// How long the clock grants a process that is waiting for a core before it looks again.
#define ENGINE_CLOCK_RECHECK_MS 50

int64_t engine_clock_left(engine_clock *clock) {
    int64_t now = monotonic_ms();
    if (clock->deadline > now || clock->waited < 0) return clock->deadline - now;
    int64_t ran = 0, waited = 0;
    if (read_schedstat(clock->pid, &ran, &waited) != 0) return clock->deadline - now;
    if (waited > clock->waited) {
        clock->deadline += waited - clock->waited;
        if (clock->deadline > clock->latest) clock->deadline = clock->latest;
        clock->waited = waited;
    }
    // The kernel adds a wait to the run-queue delay only when it ends: a process waiting for
    // a core right now, that has not yet run for its deadline, has not used up its time. It
    // is looked at again shortly (a spinning hang runs, so its time on a core reaches the
    // deadline; a sleeping one is not runnable).
    if (clock->deadline <= now && now < clock->latest && ran - clock->ran < clock->allowed_ms && is_runnable(clock->pid)) {
        int64_t grant = clock->latest - now;
        return grant < ENGINE_CLOCK_RECHECK_MS ? grant : ENGINE_CLOCK_RECHECK_MS;
    }
    return clock->deadline - now;
}
