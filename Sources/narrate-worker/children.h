// The children: one forked process per request, watched until it ends or its deadline.

#ifndef NARRATE_WORKER_CHILDREN_H
#define NARRATE_WORKER_CHILDREN_H

#include <sys/types.h>

#include "narrate_worker_protocol.h"

void die_with_parent(pid_t parent);
// `entry_path`: where the child writes the cache entry (FLAG_ENTRY), else NULL.
void serve(const narrate_worker_request *request, const char *text, const char *entry_path, int sample_rate);

#endif
