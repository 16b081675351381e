// What a child does: the one synthesis (or voice listing, or phonemes) of its request,
// answered in one frame, after which it exits.

#ifndef NARRATE_WORKER_SYNTHESIS_H
#define NARRATE_WORKER_SYNTHESIS_H

#include "narrate_worker_protocol.h"

// Test hooks, set by main from $NARRATE_WORKER_CRASH_ON, _HANG_ON, _SPIN_ON and _HOOKS_ONCE.
extern const char *crash_marker;
extern const char *hang_marker;
extern const char *spin_marker;
extern const char *hooks_once_path;

// Each writes the child's frame and exits; `done_fd` is closed when the work is over.
// With FLAG_ENTRY the audio goes to a new cache entry file at `entry_path` (see the protocol).
void run_synthesis(const narrate_worker_request *request, const char *text, const char *entry_path, int sample_rate, int done_fd);
void run_listing(const narrate_worker_request *request, int done_fd);
void run_phonemes(const narrate_worker_request *request, const char *text, int done_fd);

// The same work, in whichever process does it, without exiting: `over(fd)` is called when the
// work is over and only the answer is left to write. The status a child would exit with: 0, 1
// (the answer could not be written), 4 (the engine failed; its reason is on standard error).
int synthesis_answer(const narrate_worker_request *request, const char *text, const char *entry_path, int sample_rate, void (*over)(int), int fd);
int phonemes_answer(const narrate_worker_request *request, const char *text, void (*over)(int), int fd);

#endif
