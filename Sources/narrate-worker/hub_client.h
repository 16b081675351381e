// The workers' side of the hub (hub_client.c): a zygote of a neural voice, asked of the pool's hub.

#ifndef NARRATE_WORKER_HUB_CLIENT_H
#define NARRATE_WORKER_HUB_CLIENT_H

#include <stdint.h>
#include <sys/types.h>

#include "voices.h"

// The pool's hub, from $NARRATE_WORKER_HUB and $NARRATE_WORKER_HUB_SECRET (set by the pool
// that started it); either missing: no hub, and every zygote is the worker's own.
extern const char *hub_name;
extern const char *hub_secret;
// The hub's pid, from $NARRATE_WORKER_HUB_PID (0: not given): the worker sends its secret and
// descriptors only to a socket whose peer is that process, never to whoever bound the name after
// the hub died.
extern pid_t hub_pid;

// Asks the hub for a zygote of `settings` that speaks in place, serving this worker through
// `requests` (read end) and `replies` (write end), this worker's output and standard error. Its
// pid (and in `pidfd` its pidfd, -1 without), or 0 when the hub gives none (no hub, not an
// in-place voice, a voice that does not load within `deadline_ms`: the worker then forks its own
// zygote). The zygote's first reply on `replies` is its load reply, as a zygote the worker forked
// writes it. Every wait is bounded: the hub answers within the text's deadline as the engine
// clock counts it (at most engine_clock_most_waited times it) and a little more.
pid_t hub_zygote(const voice_settings *settings, int sample_rate, uint32_t deadline_ms, int requests, int replies, int *pidfd);

#endif
