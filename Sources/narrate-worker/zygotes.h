// The zygotes: one process per voice setting in use, which loads that voice once and forks
// a child per text.

#ifndef NARRATE_WORKER_ZYGOTES_H
#define NARRATE_WORKER_ZYGOTES_H

#include "narrate_worker_protocol.h"

void synthesize(const narrate_worker_request *request, const char *voice, const char *text, const char *entry_path, int sample_rate);
void end_zygotes(void);

#endif
