// Children: for each request, fork the child that does the work, keep the last line of its
// standard error, kill it at the deadline, wait for it and write the request's final frame.
// What the child does is not known here: the caller hands it over as a function (main.c's
// process model gives the engines' work, synthesis.c). Below: frames.c, engine_clock.c,
// error_tail.c, hub_sockets.c (pidfds), worker_log.c.

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "children.h"
#include "engine_clock.h"
#include "error_tail.h"
#include "frames.h"
#include "hub_sockets.h"
#include "worker_log.h"

// Asks the kernel to SIGKILL this (just forked) process when its parent dies, and exits
// now if the parent is already gone (it may have died before the request took effect).
void die_with_parent(pid_t parent) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(1);
}

// Forks the child for `request`, waits for it (killing it at the deadline) and writes the
// final frame.
void serve(const narrate_worker_request *request, const char *text, const char *entry_path, int sample_rate, child_work work) {
    int done[2], errors[2];
    if (pipe(done) != 0) {
        final_frame(request->id, NARRATE_WORKER_EXITED, 126, "no pipe for the child");
        return;
    }
    if (pipe(errors) != 0) {
        close(done[0]);
        close(done[1]);
        final_frame(request->id, NARRATE_WORKER_EXITED, 126, "no pipe for the child");
        return;
    }
    fflush(stderr);
    pid_t zygote_pid = getpid();
    pid_t child = fork();
    if (child < 0) {
        close(done[0]);
        close(done[1]);
        close(errors[0]);
        close(errors[1]);
        final_frame(request->id, NARRATE_WORKER_EXITED, 127, "fork failed");
        return;
    }
    if (child == 0) {
        // Killed with its zygote, so that no orphan holds the client's pipe open.
        die_with_parent(zygote_pid);
        close(done[0]);
        close(errors[0]);
        close(STDIN_FILENO);
        worker_log_fd = dup(STDERR_FILENO);
        if (worker_log_fd < 0) worker_log_fd = errors[1];
        dup2(errors[1], STDERR_FILENO);
        close(errors[1]);
        // A crash ends the child at once, with no crash report of the runtime this program
        // was linked with: the worker reports it in one line.
        const int fatal[] = {SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP};
        for (size_t index = 0; index < sizeof fatal / sizeof *fatal; index++) signal(fatal[index], SIG_DFL);
        work(request, text, entry_path, sample_rate, done[1]);  // it exits
    }
    close(done[1]);
    close(errors[1]);
    // Its pidfd, taken before it could be reaped: what is signalled is this child, whatever
    // happens to its pid (-1 without pidfds: then its pid, which stays its own until waited for).
    int pidfd = open_pidfd(child);
    // The child closes `done` when its work is over (or dies): then only its answer is left
    // to write, which the client reads as it comes. Meanwhile its standard error is kept.
    error_tail tail = {0};
    int errors_open = 1;
    engine_clock clock;
    engine_clock_start(&clock, child, request->deadline_ms);
    int timed_out = 0;
    for (;;) {
        int64_t left = engine_clock_left(&clock);
        if (left <= 0) {
            timed_out = 1;
            break;
        }
        struct pollfd watch[2] = {{.fd = done[0], .events = POLLIN}, {.fd = errors_open ? errors[0] : -1, .events = POLLIN}};
        int ready = poll(watch, 2, (int)(left > 60000 ? 60000 : left));
        if (ready < 0 && errno != EINTR) break;
        if (ready <= 0) continue;
        if (watch[1].revents) errors_open = error_tail_drain(errors[0], &tail) != 0;
        if (watch[0].revents) break;  // POLLHUP (or stray data): the child is done
    }
    close(done[0]);
    if (timed_out) signal_process(pidfd, child, SIGKILL);
    if (pidfd >= 0) close(pidfd);
    int status = 0;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {}
    while (errors_open && error_tail_drain(errors[0], &tail) > 0) {}
    close(errors[0]);
    const char *note = error_tail_finish(&tail);
    if (timed_out) {
        final_frame(request->id, NARRATE_WORKER_TIMED_OUT, (int32_t)request->deadline_ms, NULL);
    } else if (WIFSIGNALED(status)) {
        final_frame(request->id, NARRATE_WORKER_CRASHED, WTERMSIG(status), note);
    } else if (WEXITSTATUS(status) != 0) {
        final_frame(request->id, NARRATE_WORKER_EXITED, WEXITSTATUS(status), note);
    } else {
        final_frame(request->id, NARRATE_WORKER_DONE, 0, NULL);
    }
}
