// The children: one forked process per request, watched until it ends or its deadline.

#ifndef NARRATE_WORKER_CHILDREN_H
#define NARRATE_WORKER_CHILDREN_H

#include <sys/types.h>

#include "narrate_worker_protocol.h"

void die_with_parent(pid_t parent);
void serve(const narrate_worker_request *request, const char *text, int sample_rate);

#endif
