// A hub's template: loads a neural voice once, then forks a zygote for each worker the hub hands
// it. The zygotes share its memory copy-on-write: the model's graph and ONNX Runtime's prepacked
// weights (some 40 MiB for Kokoro), which a zygote only reads, are in memory once however many
// workers speak. A zygote serves its worker exactly as one the worker forked: the worker's output
// and standard error and a pair of pipes are handed to it (SCM_RIGHTS), and its load reply,
// requests and replies are the same.
//
// What the worker cannot do for a zygote that is not its child, the template does: it reaps the
// zygote and writes its wait status as the last reply (ZYGOTE_ENDED), and it kills the zygote
// when the worker ends, both through pidfds (the hub hands over the worker's, taken from the
// connection itself), so that no pid that ended and was taken by another process is ever
// signalled. A template ends when its last zygote has ended, or with the hub.
//
// It knows no engine: it loads with the work the pool's worker binary gives (zygote_work, from
// main.c) and its zygotes serve through zygote.c's protocol. Below: zygote.c, children.c,
// hub_sockets.c.

#define _GNU_SOURCE  // the socket flags, whatever -std the compiler is given

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "children.h"
#include "hub_template.h"

// Zygotes one template serves at once (a pool's workers times their zygotes).
#define MAX_SERVED 64

typedef struct {
    pid_t pid;
    int replies;      // a write end of the zygote's replies: its wait status goes there last
    int zygote_watch; // pidfd: readable when the zygote ended
    int worker_watch; // pidfd: readable when its worker ended (the zygote is then killed)
} served_zygote;

static served_zygote served[MAX_SERVED];
static int served_count;
static const zygote_work *template_work;

static void close_served(void) {
    for (int index = 0; index < served_count; index++) {
        int fds[3] = {served[index].replies, served[index].zygote_watch, served[index].worker_watch};
        close_all(fds, 3);
    }
}

static void end_served(int index) {
    served_zygote *zygote = &served[index];
    int status = 0;
    while (waitpid(zygote->pid, &status, 0) < 0 && errno == EINTR) {}
    int32_t notice[2] = {ZYGOTE_ENDED, status};
    ssize_t written;
    do {
        written = write(zygote->replies, notice, sizeof notice);
    } while (written < 0 && errno == EINTR);
    int fds[3] = {zygote->replies, zygote->zygote_watch, zygote->worker_watch};
    close_all(fds, 3);
    served[index] = served[--served_count];
}

// A zygote for the worker watched by `worker_watch` (taken over), with its descriptors in
// `fds`: its pid, or 0.
static pid_t fork_zygote(int control, int worker_watch, int fds[HANDED_FDS], const char *note, int sample_rate) {
    if (served_count == MAX_SERVED) {
        close(worker_watch);
        return 0;
    }
    fflush(stderr);
    pid_t template = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        close(worker_watch);
        return 0;
    }
    if (pid == 0) {
        die_with_parent(template);
        close(control);
        close(worker_watch);
        close_served();
        dup2(fds[2], STDOUT_FILENO);
        dup2(fds[3], STDERR_FILENO);
        close(fds[2]);
        close(fds[3]);
        zygote_load_reply(fds[1], NARRATE_WORKER_DONE, 1, note);
        zygote_serve(template_work, fds[0], fds[1], 1, sample_rate);
        _exit(0);
    }
    // A child not yet waited for keeps its pid: its pidfd is taken before anyone could reuse it.
    int zygote_watch = open_pidfd(pid);
    if (zygote_watch < 0) {
        kill(pid, SIGKILL);
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {}
        close(worker_watch);
        return 0;
    }
    int replies = dup(fds[1]);
    served[served_count++] = (served_zygote){.pid = pid, .replies = replies, .zygote_watch = zygote_watch, .worker_watch = worker_watch};
    return pid;
}

// The hub's request of this template: a worker's pidfd and descriptors. Answers the zygote's
// pid and pidfd (none: 0). 1 when the hub is gone.
static int serve_hand_over(int control, const char *note, int sample_rate) {
    int32_t marker = 0;
    int fds[MAX_MESSAGE_FDS];
    int received = receive_with_fds(control, &marker, sizeof marker, fds, MAX_MESSAGE_FDS);
    if (received == 1) return 1;
    if (received != 0) return 0;  // a stray message: the hub asks again or gives up
    pid_t pid = fork_zygote(control, fds[HANDED_FDS], fds, note, sample_rate);
    close_all(fds, HANDED_FDS);
    int watch = pid > 0 ? served[served_count - 1].zygote_watch : -1;
    return send_with_fds(control, &pid, sizeof pid, &watch, watch >= 0 ? 1 : 0) != 0;
}

static void template_main(int control, const voice_settings *settings, int sample_rate) {
    // A test's switch: a template whose load never ends (the hub must stop it at the deadline).
    const char *hang = getenv("NARRATE_WORKER_HANG_TEMPLATE");
    if (hang && *hang) pause();
    if (template_work->start) template_work->start();
    int32_t detail = 0;
    char note[1024] = "";
    int in_place = 0;
    uint32_t applied = template_work->load(settings, &detail, note, sizeof note, &in_place);
    in_place = applied == NARRATE_WORKER_DONE && in_place;
    // Zygotes that are not its children can only be watched through pidfds (Linux 5.3).
    int probe = open_pidfd(getpid());
    if (probe >= 0) close(probe);
    int32_t answer = in_place && probe >= 0;
    if (send(control, &answer, sizeof answer, MSG_NOSIGNAL) != sizeof answer || !answer) _exit(0);
    int served_any = 0;
    for (;;) {
        if (served_any && served_count == 0) _exit(0);  // no worker uses this voice any more
        struct pollfd watch[1 + 2 * MAX_SERVED];
        watch[0] = (struct pollfd){.fd = control, .events = POLLIN};
        for (int index = 0; index < served_count; index++) {
            watch[1 + 2 * index] = (struct pollfd){.fd = served[index].zygote_watch, .events = POLLIN};
            watch[2 + 2 * index] = (struct pollfd){.fd = served[index].worker_watch, .events = POLLIN};
        }
        if (poll(watch, (nfds_t)(1 + 2 * served_count), -1) < 0) {
            if (errno == EINTR) continue;
            _exit(2);
        }
        // Ends first (the table shrinks as they are taken out), the last one first.
        for (int index = served_count - 1; index >= 0; index--) {
            if (watch[2 + 2 * index].revents && served[index].worker_watch >= 0) {
                // Its worker is gone: nobody reads it. Through its pidfd: it is not reaped yet.
                signal_process(served[index].zygote_watch, served[index].pid, SIGKILL);
                close(served[index].worker_watch);
                served[index].worker_watch = -1;
            }
            if (watch[1 + 2 * index].revents) end_served(index);
        }
        if (!watch[0].revents) continue;
        if (serve_hand_over(control, note, sample_rate) != 0) _exit(0);  // the hub is gone (its zygotes die with this process)
        served_any = served_any || served_count > 0;
    }
}

int template_start(const zygote_work *work, const voice_settings *settings, int sample_rate, pid_t *pid, int *pidfd) {
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) != 0) return -1;
    fflush(stderr);
    pid_t hub = getpid();
    pid_t child = fork();
    if (child < 0) {
        close(pair[0]);
        close(pair[1]);
        return -1;
    }
    if (child == 0) {
        die_with_parent(hub);
        close_all_but(pair[1]);  // the listener, the clients, the other templates' controls
        template_work = work;
        template_main(pair[1], settings, sample_rate);
        _exit(0);
    }
    close(pair[1]);
    *pid = child;
    *pidfd = open_pidfd(child);
    return pair[0];
}

int template_hand_over(int control, int worker_pidfd, const int fds[HANDED_FDS], pid_t *pid, int *zygote_pidfd) {
    int all[MAX_MESSAGE_FDS];
    memcpy(all, fds, sizeof(int) * HANDED_FDS);
    all[HANDED_FDS] = worker_pidfd;
    int32_t marker = 0;
    *pid = 0;
    *zygote_pidfd = -1;
    if (send_with_fds(control, &marker, sizeof marker, all, MAX_MESSAGE_FDS) != 0) return -1;
    if (wait_readable(control, TEMPLATE_HAND_OVER_MS) != 0) return -1;
    // A zygote comes with its pidfd; none, without.
    pid_t forked = 0;
    int watch = -1, count = 0;
    if (receive_message(control, &forked, sizeof forked, &watch, 1, &count) != 0) return -1;
    if ((forked > 0) != (count == 1)) {
        if (count == 1) close(watch);
        return -1;
    }
    *pid = forked > 0 ? forked : 0;
    *zygote_pidfd = count == 1 ? watch : -1;
    return 0;
}
