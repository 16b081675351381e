// The hub: one process per worker pool, named by $NARRATE_WORKER_HUB (an abstract Unix socket
// the pool's workers share), that keeps a template per neural voice setting in use: a process
// that loaded the voice once and never speaks. A worker that needs a zygote for such a voice
// asks the hub, and the template forks it. So the pool's zygotes share the template's memory
// copy-on-write: the model's graph and ONNX Runtime's prepacked weights (some 40 MiB for
// Kokoro), which a zygote only reads, are in memory once however many workers speak, instead
// of once per worker. The zygote then serves its worker exactly as one the worker forked: the
// worker's output and standard error and a pair of pipes are handed to it (SCM_RIGHTS), and
// its load reply, requests and replies are the same.
//
// What the worker cannot do for a zygote that is not its child, its template does: it reaps
// the zygote and writes its wait status as the last reply (HUB_ZYGOTE_ENDED), and it kills the
// zygote when the worker dies. The hub dies with the worker that started it, a template with
// the hub and a zygote with its template; a worker whose zygote died that way sees a crash
// (the pool tries the text once more) and its next zygote starts a new hub. A template ends
// when its last zygote has ended. Only processes of this user may connect, and a worker only
// talks to a hub of this user. Whatever the hub cannot do (no hub, a voice that does not load
// or does not speak in place, no place for another template), the worker does itself.
//
// The process model's top floor: it knows no engine. A template loads its voice and its zygotes
// serve with the work the worker gave (zygote_work, from main.c), through zygote.c's protocol.
// Below: zygote.c, children.c, hub_sockets.c (the sockets and descriptors).

#define _GNU_SOURCE  // kill and the socket flags, whatever -std the compiler is given

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "children.h"
#include "hub.h"
#include "hub_sockets.h"
#include "zygote.h"

#define MAX_TEMPLATES 4
// Zygotes one template serves at once (a pool's workers times their zygotes).
#define MAX_SERVED 64
const char *hub_name;

// What the templates load and their zygotes do: the work of the worker that started the hub
// (set by hub_zygote before the hub is forked; the hub and its templates inherit it).
static const zygote_work *hub_work;

typedef struct {
    voice_settings settings;
    int32_t sample_rate;
} hub_request;

// ---- The template: loads the voice once, then forks a zygote for each handed-over worker.

typedef struct {
    pid_t pid;
    int replies;      // a write end of the zygote's replies: its wait status goes there last
    int zygote_watch; // pidfd: readable when the zygote ended
    int worker_watch; // pidfd: readable when its worker ended (the zygote is then killed)
} served_zygote;

static served_zygote served[MAX_SERVED];
static int served_count;

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

// A zygote for the worker `worker` (its descriptors in `fds`): its pid, or 0.
static pid_t fork_zygote(int control, pid_t worker, int fds[HANDED_FDS], const char *note, int sample_rate) {
    if (served_count == MAX_SERVED) return 0;
    int worker_watch = open_pidfd(worker);
    if (worker_watch < 0) return 0;  // already gone
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
        zygote_serve(hub_work, fds[0], fds[1], 1, sample_rate);
        _exit(0);
    }
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

static void template_main(int control, const voice_settings *settings, int sample_rate) {
    int32_t detail = 0;
    char note[1024] = "";
    int in_place = 0;
    uint32_t applied = hub_work->load(settings, &detail, note, sizeof note, &in_place);
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
        int count = 1 + 2 * served_count;
        if (poll(watch, (nfds_t)count, -1) < 0) {
            if (errno == EINTR) continue;
            _exit(2);
        }
        // Ends first (the table shrinks as they are taken out), the last one first.
        for (int index = served_count - 1; index >= 0; index--) {
            if (watch[2 + 2 * index].revents && served[index].worker_watch >= 0) {
                kill(served[index].pid, SIGKILL);  // its worker is gone: nobody reads it
                close(served[index].worker_watch);
                served[index].worker_watch = -1;
            }
            if (watch[1 + 2 * index].revents) end_served(index);
        }
        if (!watch[0].revents) continue;
        pid_t worker = 0;
        int fds[HANDED_FDS];
        int received = receive_with_fds(control, &worker, sizeof worker, fds);
        if (received == 1) _exit(0);  // the hub is gone (its zygotes die with this process)
        if (received != 0) continue;
        pid_t pid = fork_zygote(control, worker, fds, note, sample_rate);
        close_all(fds, HANDED_FDS);
        served_any = served_any || pid > 0;
        if (send(control, &pid, sizeof pid, MSG_NOSIGNAL) != sizeof pid) _exit(0);
    }
}

// ---- The hub: a template per voice setting, and the handing over.

typedef struct {
    int used;
    hub_request request;
    pid_t pid;
    int control;
    uint64_t last_used;
} template_place;

static template_place templates[MAX_TEMPLATES];
static uint64_t template_uses;

static void end_template(template_place *place) {
    close(place->control);
    kill(place->pid, SIGKILL);
    while (waitpid(place->pid, NULL, 0) < 0 && errno == EINTR) {}
    place->used = 0;
}

// Templates that ended by themselves (their last zygote ended) are taken out.
static void reap_templates(void) {
    for (int index = 0; index < MAX_TEMPLATES; index++) {
        if (!templates[index].used) continue;
        struct pollfd watch = {.fd = templates[index].control, .events = POLLIN};
        if (poll(&watch, 1, 0) > 0 && (watch.revents & (POLLHUP | POLLERR))) end_template(&templates[index]);
    }
}

// The template for `request`, started if need be; NULL when it cannot serve.
static template_place *template_for(const hub_request *request, int listener) {
    reap_templates();
    template_place *free_place = NULL;
    for (int index = 0; index < MAX_TEMPLATES; index++) {
        template_place *candidate = &templates[index];
        if (!candidate->used) {
            if (!free_place) free_place = candidate;
        } else if (memcmp(&candidate->request, request, sizeof *request) == 0) {
            return candidate;
        }
    }
    // Every place taken by a voice still in use: the worker loads its own.
    if (!free_place) return NULL;
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, pair) != 0) return NULL;
    fflush(stderr);
    pid_t hub = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        close(pair[0]);
        close(pair[1]);
        return NULL;
    }
    if (pid == 0) {
        die_with_parent(hub);
        close_all_but(pair[1]);  // the listener, the other templates' controls, the request's descriptors
        template_main(pair[1], &request->settings, request->sample_rate);
        _exit(0);
    }
    close(pair[1]);
    *free_place = (template_place){.used = 1, .request = *request, .pid = pid, .control = pair[0]};
    int32_t answer = 0;
    if (receive_exactly(free_place->control, &answer, sizeof answer) != 0 || !answer) {
        end_template(free_place);
        return NULL;
    }
    return free_place;
}

// Hands the worker's descriptors to the template of its voice; the zygote's pid, or 0.
static pid_t hand_over(const hub_request *request, pid_t worker, const int fds[HANDED_FDS], int listener) {
    // A template that ended meanwhile is started again, once.
    for (int attempt = 0; attempt < 2; attempt++) {
        template_place *place = template_for(request, listener);
        if (!place) return 0;
        place->last_used = ++template_uses;
        pid_t pid = 0;
        if (send_with_fds(place->control, &worker, sizeof worker, fds, HANDED_FDS) == 0 &&
            receive_exactly(place->control, &pid, sizeof pid) == 0) {
            return pid;
        }
        end_template(place);
    }
    return 0;
}

static void hub_main(int listener) {
    for (;;) {
        int client = accept(listener, NULL, NULL);
        if (client < 0) {
            if (errno == EINTR || errno == ECONNABORTED) continue;
            _exit(2);
        }
        pid_t worker = 0;
        hub_request request;
        int fds[HANDED_FDS];
        if (peer_is_this_user(client, &worker) && receive_with_fds(client, &request, sizeof request, fds) == 0) {
            request.settings.voice[sizeof request.settings.voice - 1] = 0;
            pid_t pid = hand_over(&request, worker, fds, listener);
            close_all(fds, HANDED_FDS);
            send(client, &pid, sizeof pid, MSG_NOSIGNAL);
        }
        close(client);
    }
}

// ---- The worker's side.

static pid_t started_hub;

// Binds the hub's name and forks the hub. 0 when a hub is there (this one, or another worker's
// that bound the name first), -1 when none can be.
static int start_hub(const struct sockaddr_un *address, socklen_t length) {
    int listener = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
    if (listener < 0) return -1;
    if (bind(listener, (const struct sockaddr *)address, length) != 0) {
        int taken = errno == EADDRINUSE;
        close(listener);
        return taken ? 0 : -1;
    }
    if (listen(listener, 16) != 0) {
        close(listener);
        return -1;
    }
    if (started_hub > 0) waitpid(started_hub, NULL, WNOHANG);  // an earlier one that died
    fflush(stderr);
    pid_t worker = getpid();
    pid_t pid = fork();
    if (pid == 0) {
        die_with_parent(worker);
        // It holds nothing of the worker's: not its input, not its output (the client must see
        // the worker's output end when the worker ends), not its zygotes' pipes.
        close(STDIN_FILENO);
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) {
            dup2(null, STDOUT_FILENO);
            close(null);
        }
        close_all_but(listener);  // its zygotes' pipes, the pipes of the zygote being asked for
        hub_main(listener);
        _exit(0);
    }
    close(listener);
    if (pid < 0) return -1;
    started_hub = pid;
    return 0;
}

static int hub_connect(void) {
    struct sockaddr_un address;
    socklen_t length;
    if (hub_address(hub_name, &address, &length) != 0) return -1;
    for (int attempt = 0; attempt < 3; attempt++) {
        int hub = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
        if (hub < 0) return -1;
        if (connect(hub, (const struct sockaddr *)&address, length) == 0) {
            if (peer_is_this_user(hub, NULL)) return hub;
            close(hub);
            return -1;  // someone else's: never hand them this worker's output
        }
        int reason = errno;
        close(hub);
        if (reason != ECONNREFUSED && reason != ENOENT) return -1;
        if (start_hub(&address, length) != 0) return -1;
    }
    return -1;
}

pid_t hub_zygote(const zygote_work *work, const voice_settings *settings, int sample_rate, int requests, int replies) {
    if (!hub_name) return 0;
    hub_work = work;
    int hub = hub_connect();
    if (hub < 0) return 0;
    hub_request request;
    memset(&request, 0, sizeof request);
    request.settings = *settings;
    request.sample_rate = sample_rate;
    int fds[HANDED_FDS] = {requests, replies, STDOUT_FILENO, STDERR_FILENO};
    pid_t pid = 0;
    if (send_with_fds(hub, &request, sizeof request, fds, HANDED_FDS) != 0 || receive_exactly(hub, &pid, sizeof pid) != 0) pid = 0;
    close(hub);
    return pid > 0 ? pid : 0;
}
