// The zygotes: one process per voice setting in use, which loads that voice once and forks
// a child per text.

#ifndef NARRATE_WORKER_ZYGOTES_H
#define NARRATE_WORKER_ZYGOTES_H

#include <stdint.h>

#include "narrate_worker_protocol.h"

// A benchmark's switch ($NARRATE_WORKER_CHILD_PER_TEXT): a child per text even for an engine
// that could speak in place, to compare the two (scripts/benchmark-piper.sh's page faults).
extern int child_per_text;

// A zygote's first reply: how loading its voice went, with a line that says why it failed (or a
// warning); on success the detail says whether it speaks in place.
void zygote_load_reply(int fd, int32_t status, int32_t detail, const char *note);
// A loaded zygote's life: serves requests one at a time until the worker closes its input.
void zygote_serve(int requests, int replies, int in_place, int sample_rate);

void synthesize(const narrate_worker_request *request, const char *voice, const char *text, const char *entry_path, int sample_rate);
void end_zygotes(void);

#endif
