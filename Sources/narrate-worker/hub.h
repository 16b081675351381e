// The hub: one process per worker pool that keeps a template per neural voice setting in use (a
// process that loaded the voice once and never speaks) and forks from it the zygote a worker
// asks for, so that the pool's workers share one copy of the loaded model (see hub.c).

#ifndef NARRATE_WORKER_HUB_H
#define NARRATE_WORKER_HUB_H

#include <stdint.h>
#include <sys/types.h>

#include "voices.h"
#include "zygote.h"

// The hub's name, from $NARRATE_WORKER_HUB (set by the worker pool, one per pool); NULL: no hub.
extern const char *hub_name;

// Asks the hub (started if need be) for a zygote of `settings` that speaks in place, serving
// this worker through `requests` (read end) and `replies` (write end), this worker's output and
// standard error. Its pid, or 0 when the hub cannot give one (no hub, not an in-place voice, a
// voice that does not load: the worker then starts its own zygote, as without a hub). The
// zygote's first reply on `replies` is its load reply, as a zygote the worker forked writes it.
// A hub this call starts loads its templates' voices and serves their zygotes with `work`.
pid_t hub_zygote(const zygote_work *work, const voice_settings *settings, int sample_rate, int requests, int replies);

#endif
