// What a child does: the one synthesis (or voice listing) of its request, answered in one
// frame, after which it exits.

#ifndef NARRATE_WORKER_SYNTHESIS_H
#define NARRATE_WORKER_SYNTHESIS_H

#include <espeak-ng/speak_lib.h>

#include "narrate_worker_protocol.h"

// Test hooks, set by main from $NARRATE_WORKER_CRASH_ON and $NARRATE_WORKER_HANG_ON.
extern const char *crash_marker;
extern const char *hang_marker;

// Collects the audio and word marks; the worker hands it to espeak_SetSynthCallback.
int synth_callback(short *wave, int count, espeak_EVENT *events);
// Both write the child's frame and exit; `done_fd` is closed when the work is over.
void run_synthesis(const narrate_worker_request *request, const char *text, int sample_rate, int done_fd);
void run_listing(const narrate_worker_request *request, int done_fd);

#endif
