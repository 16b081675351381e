// The children: one forked process per request, watched until it ends or its deadline. A
// bottom floor: it knows no engine; the child's work is handed to it as a function.

#ifndef NARRATE_WORKER_CHILDREN_H
#define NARRATE_WORKER_CHILDREN_H

#include <sys/types.h>

#include "narrate_worker_protocol.h"

// Asks the kernel to SIGKILL this (just forked) process when its parent dies, and exits
// now if the parent is already gone.
void die_with_parent(pid_t parent);

// A child's work on `request`: writes the child's frame and exits (never returns); `done_fd`
// is closed when the work is over and only the answer is left to write.
typedef void (*child_work)(const narrate_worker_request *request, const char *text, const char *entry_path,
                           int sample_rate, int done_fd);

// Forks a child that does `work` on the request, watches it against the request's deadline
// and writes the final frame. `entry_path`: where the child writes the cache entry
// (FLAG_ENTRY), else NULL.
void serve(const narrate_worker_request *request, const char *text, const char *entry_path, int sample_rate, child_work work);

#endif
