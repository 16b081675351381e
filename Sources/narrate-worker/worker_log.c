// The worker's log: where a warning the user should see goes, in whichever process writes it
// (children.c and zygote.c point it at the worker's standard error when they take their own).

#include <unistd.h>

#include "worker_log.h"

int worker_log_fd = STDERR_FILENO;

int warning_fd(void) {
    return worker_log_fd;
}
