// A reaped process's pid, taken by another process, is never signalled (issue 43): the worker,
// the hub and its templates signal a zygote or a child through the pidfd taken before it could be
// reaped (hub_sockets.c: open_pidfd, signal_process). This test reaps a child, makes a new
// process take the very same pid (by setting the pid namespace's last pid, which needs root), and
// signals the old child's pidfd: the new process must live. It then shows that the test can fail:
// signalled by pid alone, as without pidfds, the new process dies.
//
// Exit 0: passed; 1: failed; 77: skipped (no pidfds, or the pid could not be reused here).
// Built and run by scripts/test-worker-units.sh.

#define _GNU_SOURCE

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hub_sockets.h"

static pid_t start_sleeper(void) {
    pid_t pid = fork();
    if (pid == 0) {
        for (;;) pause();
    }
    return pid;
}

// A sleeper whose pid is `wanted`, or -1: the pid namespace hands out last_pid + 1 next, unless
// another process takes it first (then try again).
static pid_t sleeper_with_pid(pid_t wanted) {
    for (int attempt = 0; attempt < 50; attempt++) {
        FILE *last = fopen("/proc/sys/kernel/ns_last_pid", "w");
        if (!last) return -1;
        int written = fprintf(last, "%d", (int)wanted - 1);
        if (fclose(last) != 0 || written <= 0) return -1;
        pid_t pid = start_sleeper();
        if (pid == wanted) return pid;
        if (pid > 0) {
            kill(pid, SIGKILL);
            waitpid(pid, NULL, 0);
        }
    }
    return -1;
}

static int alive(pid_t pid) {
    int status;
    return waitpid(pid, &status, WNOHANG) == 0;
}

int main(void) {
    // Given a child whose pidfd was taken before it could be reaped
    pid_t child = start_sleeper();
    int pidfd = open_pidfd(child);
    if (pidfd < 0) {
        fprintf(stderr, "skipped: no pidfd_open here (errno %d)\n", errno);
        return 77;
    }
    // and that ended and was reaped
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    // When another process takes its pid
    pid_t stranger = sleeper_with_pid(child);
    if (stranger < 0) {
        fprintf(stderr, "skipped: pid %d could not be handed to a new process (ns_last_pid needs root)\n", (int)child);
        close(pidfd);
        return 77;
    }
    // and the ended child is signalled through its pidfd
    int sent = signal_process(pidfd, child, SIGKILL);
    int error = errno;
    usleep(100000);
    // Then the signal is refused (the process is gone) and the stranger lives
    if (sent == 0 || error != ESRCH) {
        fprintf(stderr, "FAILED: signalling a reaped child's pidfd returned %d (errno %d), not ESRCH\n", sent, error);
        return 1;
    }
    if (!alive(stranger)) {
        fprintf(stderr, "FAILED: the process that took pid %d was killed\n", (int)child);
        return 1;
    }
    // And the same signal by pid alone (no pidfd) would have killed it: the test can tell
    signal_process(-1, child, SIGKILL);
    waitpid(stranger, NULL, 0);
    close(pidfd);
    printf("passed: pid %d reused by a new process, which its predecessor's pidfd never signalled\n", (int)child);
    return 0;
}
