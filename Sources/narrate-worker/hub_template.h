// A hub's template (hub_template.c): a process that loaded a neural voice once and never speaks;
// it forks, for each worker the hub hands it, a zygote that shares the loaded model.

#ifndef NARRATE_WORKER_HUB_TEMPLATE_H
#define NARRATE_WORKER_HUB_TEMPLATE_H

#include <stdint.h>
#include <sys/types.h>

#include "hub_sockets.h"
#include "voices.h"
#include "zygote.h"

// How long a template has to answer a hand-over (it only forks): a template that does not is
// ended, and the worker loads its voice itself.
#define TEMPLATE_HAND_OVER_MS 5000

// Forks a template that loads `settings` with `work` (after `work->start`); its control socket
// (the hub's end), its pid and pidfd (-1 without pidfds). The template's first message on the
// control socket is an int32: 1 when it loaded the voice and serves zygotes, 0 when it cannot.
// -1 when it could not be forked.
int template_start(const zygote_work *work, const voice_settings *settings, int sample_rate, pid_t *pid, int *pidfd);

// Hands a worker's descriptors (`fds`) and its pidfd to the template of `control`, and waits
// (at most TEMPLATE_HAND_OVER_MS) for the zygote it forked: its pid and pidfd (the hub's copy,
// to pass on), or 0 (and -1) when it forked none; -1 when the template did not answer.
int template_hand_over(int control, int worker_pidfd, const int fds[HANDED_FDS], pid_t *pid, int *zygote_pidfd);

#endif
