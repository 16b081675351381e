// Where a process of the worker writes a warning the user should see. The bottom floor: it
// calls no other file.

#ifndef NARRATE_WORKER_WORKER_LOG_H
#define NARRATE_WORKER_WORKER_LOG_H

// Where a child writes a warning the user should see (the worker's standard error; the
// child's own goes to the worker, which keeps its last line for a failure).
extern int worker_log_fd;
int warning_fd(void);

#endif
