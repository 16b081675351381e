// Zygotes, the worker's side (zygote_serve.c holds the zygote's own life): one process per voice setting in use (at most MAX_ZYGOTES, the least recently used
// one ends first), the pipes and replies between it and the worker, and its life of serving
// requests. A synthesis goes to the zygote of its voice.
//
// A zygote forks a child per request (children.c), except for an engine that is `in_place`
// (engine.h): that zygote does the work itself, its session warm, with no fork and no page
// faults. The worker then watches it as a zygote watches a child: it kills the zygote at the
// request's deadline, reports a crash in one line, and starts a new zygote for the next request.
// The zygote replies twice: WORK_OVER when the work is done (the deadline clock stops; its
// answer is written next, as the client reads it), then DONE.
//
// A bottom floor: it knows no engine. What a zygote loads and how it speaks come from above as
// a table of functions (zygote_work, given by main.c's process model), and so does the hub
// (hub_template.c, which sits above this file: its templates serve zygotes with zygote_serve).
// A zygote the hub forked is not this worker's child: it is signalled through its pidfd.
// Below: children.c, engine_clock.c, error_tail.c, frames.c, hub_sockets.c, voices.c,
// worker_log.c, zygote_serve.c.

#define _GNU_SOURCE  // pipe2

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "children.h"
#include "engine_clock.h"
#include "error_tail.h"
#include "frames.h"
#include "hub_sockets.h"
#include "voices.h"
#include "worker_log.h"
#include "zygote.h"

#define MAX_ZYGOTES 4


typedef struct {
    int used;
    voice_settings settings;
    pid_t pid;
    int requests;  // write end: requests for it to serve
    int replies;   // read end: a reply (status, detail) when it has served one
    int in_place;  // its engine's work is done in the zygote (no child per request)
    int from_hub;  // forked by the hub's template of its voice (hub_template.c), not by this worker
    int pidfd;     // from the hub: its pidfd (it is not this worker's child: a pid alone could be reused); else -1
    int ended;     // from the hub: its end was read from its replies, with this wait status
    int end_status;
    uint64_t last_used;
} zygote;

static zygote zygotes[MAX_ZYGOTES];
static uint64_t use_counter;

static int read_reply(int fd, int32_t reply[2]) {
    return read_exactly(fd, reply, 2 * sizeof *reply);
}

// A reply of `server`. -1 when it has ended: a zygote from the hub then has its wait status
// noted (its template's last reply, or a kill when the template died too).
static int zygote_reply(zygote *server, int32_t reply[2]) {
    if (server->ended) return -1;
    if (read_reply(server->replies, reply) == 0 && !(server->from_hub && reply[0] == ZYGOTE_ENDED)) return 0;
    if (server->from_hub) {
        server->ended = 1;
        server->end_status = reply[0] == ZYGOTE_ENDED ? reply[1] : SIGKILL;
    }
    return -1;
}

// Closes its pipes and waits for it; its wait status.
static int zygote_end(zygote *ended) {
    close(ended->requests);
    int status = 0;
    if (ended->from_hub) {
        // Its end comes as its last reply (what it said before that is no longer asked for).
        int32_t reply[2];
        while (zygote_reply(ended, reply) == 0) {}
        status = ended->end_status;
    } else {
        while (waitpid(ended->pid, &status, 0) < 0 && errno == EINTR) {}
    }
    close(ended->replies);
    if (ended->pidfd >= 0) close(ended->pidfd);
    ended->used = 0;
    return status;
}

// Closes this worker's ends of its zygotes' pipes (in a process forked from the worker).
static void close_zygote_pipes(void) {
    for (int index = 0; index < MAX_ZYGOTES; index++) {
        if (zygotes[index].used) {
            close(zygotes[index].requests);
            close(zygotes[index].replies);
            if (zygotes[index].pidfd >= 0) close(zygotes[index].pidfd);
        }
    }
}

// Whether the zygote's load reply came within `deadline_ms` on the engine clock.
static int load_in_time(zygote *server, uint32_t deadline_ms) {
    engine_clock clock;
    engine_clock_start(&clock, server->pid, deadline_ms);
    for (;;) {
        int64_t left = engine_clock_left(&clock);
        if (left <= 0) return 0;
        struct pollfd watch = {.fd = server->replies, .events = POLLIN};
        int ready = poll(&watch, 1, (int)(left > 60000 ? 60000 : left));
        if (ready > 0) return 1;
        if (ready < 0 && errno != EINTR) return 1;  // the read that follows says what is wrong
    }
}

static void report_load_timeout(zygote *server, uint32_t deadline_ms, uint32_t *failure, int32_t *detail) {
    signal_process(server->pidfd, server->pid, SIGKILL);
    zygote_end(server);
    *failure = NARRATE_WORKER_TIMED_OUT;
    *detail = (int32_t)deadline_ms;
}

// Whether an idle zygote has ended: between texts it writes nothing, so a reply waiting (the
// template's notice of its end) or the end of its replies (it, and whoever held them, died) is
// its end.
static int ended_while_idle(const zygote *candidate) {
    struct pollfd watch = {.fd = candidate->replies, .events = POLLIN};
    int ready;
    do {
        ready = poll(&watch, 1, 0);
    } while (ready < 0 && errno == EINTR);
    return ready > 0;
}

// The zygote for `settings`, started if need be (the least recently used one ends when all
// places are taken). NULL when the voice cannot be set: `failure` and `detail` say why.
static zygote *zygote_for(const zygote_work *work, const voice_settings *settings, int sample_rate, uint32_t deadline_ms, uint32_t *failure, int32_t *detail, char *note, size_t note_size) {
    zygote *free_place = NULL, *oldest = NULL;
    for (int index = 0; index < MAX_ZYGOTES; index++) {
        zygote *candidate = &zygotes[index];
        if (!candidate->used) {
            if (!free_place) free_place = candidate;
            continue;
        }
        if (memcmp(&candidate->settings, settings, sizeof *settings) == 0) {
            if (!ended_while_idle(candidate)) return candidate;
            // It ended between texts (killed, or its hub gone with it): this text gets a new
            // one instead of the error the dead one would give.
            zygote_end(candidate);
            if (!free_place) free_place = candidate;
            continue;
        }
        if (!oldest || candidate->last_used < oldest->last_used) oldest = candidate;
    }
    zygote *place = free_place;
    if (!place) {
        zygote_end(oldest);
        place = oldest;
    }
    int requests[2], replies[2];
    if (pipe(requests) != 0) {
        *failure = NARRATE_WORKER_EXITED;
        *detail = 126;
        return NULL;
    }
    if (pipe(replies) != 0) {
        close(requests[0]);
        close(requests[1]);
        *failure = NARRATE_WORKER_EXITED;
        *detail = 126;
        return NULL;
    }
    // A neural voice's zygote comes from the pool's hub, sharing the model loaded once.
    int pidfd = -1;
    pid_t shared = work->shared ? work->shared(settings, sample_rate, deadline_ms, requests[0], replies[1], &pidfd) : 0;
    fflush(stderr);
    pid_t worker_pid = getpid();
    pid_t pid = shared ? shared : fork();
    if (pid < 0) {
        close(requests[0]);
        close(requests[1]);
        close(replies[0]);
        close(replies[1]);
        *failure = NARRATE_WORKER_EXITED;
        *detail = 127;
        return NULL;
    }
    if (pid == 0) {
        // Killed with the worker (SIGKILL, OOM): its children then die with it, and the
        // client sees the end of the worker's output at once instead of waiting on orphans.
        die_with_parent(worker_pid);
        // The zygote holds no end of another zygote's pipes (they must see their end of
        // input when the worker closes it) and does not read the worker's input.
        close(STDIN_FILENO);
        close_zygote_pipes();
        close(requests[1]);
        close(replies[0]);
        zygote_main(work, requests[0], replies[1], settings, sample_rate);
        _exit(0);
    }
    close(requests[0]);
    close(replies[1]);
    *place = (zygote){.used = 1, .settings = *settings, .pid = pid, .requests = requests[1], .replies = replies[0], .from_hub = shared != 0,
                        .pidfd = shared ? pidfd : open_pidfd(pid)};
    // Its load has a limit kept by the engine clock (load_limit_ms): a voice that never loads (a
    // model that is a FIFO, a hung engine) costs that text, not the worker.
    if (!load_in_time(place, load_limit_ms(deadline_ms))) {
        report_load_timeout(place, deadline_ms, failure, detail);
        return NULL;
    }
    int32_t reply[3];
    if (read_exactly(place->replies, reply, sizeof reply) != 0 || reply[2] < 0 || (size_t)reply[2] >= note_size ||
        read_exactly(place->replies, note, (size_t)reply[2]) != 0) {
        zygote_end(place);
        *failure = NARRATE_WORKER_EXITED;
        *detail = 1;
        return NULL;
    }
    note[reply[2]] = 0;
    if ((uint32_t)reply[0] != NARRATE_WORKER_DONE) {
        zygote_end(place);
        *failure = (uint32_t)reply[0];
        *detail = reply[1];
        return NULL;
    }
    place->in_place = reply[1] != 0;
    return place;
}

// The zygote's end reported as a child's would be: killed at the deadline, crashed, or exited.
static void report_end(zygote *server, const narrate_worker_request *request, int timed_out) {
    if (timed_out) signal_process(server->pidfd, server->pid, SIGKILL);
    int status = zygote_end(server);
    if (timed_out) {
        final_frame(request->id, NARRATE_WORKER_TIMED_OUT, (int32_t)request->deadline_ms, NULL);
    } else if (WIFSIGNALED(status)) {
        final_frame(request->id, NARRATE_WORKER_CRASHED, WTERMSIG(status), NULL);
    } else {
        final_frame(request->id, NARRATE_WORKER_EXITED, WIFEXITED(status) && WEXITSTATUS(status) ? WEXITSTATUS(status) : 2,
                    "the voice process ended unexpectedly");
    }
}

// An in-place zygote's request: sent, its work watched against the deadline, then its answer
// waited for. A zygote that dies or runs late is ended; the next request starts another.
static void watch_in_place(zygote *server, const narrate_worker_request *request, struct iovec parts[3]) {
    if (write_all(server->requests, parts, 3) != 0) {
        report_end(server, request, 0);
        return;
    }
    engine_clock clock;
    engine_clock_start(&clock, server->pid, request->deadline_ms);
    for (;;) {
        int64_t left = engine_clock_left(&clock);
        if (left <= 0) {
            report_end(server, request, 1);
            return;
        }
        struct pollfd watch = {.fd = server->replies, .events = POLLIN};
        int ready = poll(&watch, 1, (int)(left > 60000 ? 60000 : left));
        if (ready < 0 && errno != EINTR) {
            report_end(server, request, 1);
            return;
        }
        if (ready > 0) break;
    }
    int32_t reply[2];
    if (zygote_reply(server, reply) != 0 || reply[0] != WORK_OVER) {
        report_end(server, request, 0);
        return;
    }
    // The answer is being written (as fast as the client reads it); then the final frame.
    if (zygote_reply(server, reply) != 0) report_end(server, request, 0);
}

// Hands a synthesis to the zygote of its voice and waits until it has answered.
void zygote_synthesize(const zygote_work *work, const narrate_worker_request *request, const char *voice, const char *text, const char *entry_path, int sample_rate) {
    static voice_settings settings_storage;
    voice_settings *settings = &settings_storage;
    *settings = settings_of(request, voice);
    uint32_t failure = 0;
    int32_t detail = 0;
    char note[1024] = "";
    zygote *server = zygote_for(work, settings, sample_rate, request->deadline_ms, &failure, &detail, note, sizeof note);
    if (!server) {
        final_frame(request->id, failure, detail, note[0] ? note : NULL);
        return;
    }
    server->last_used = ++use_counter;
    struct iovec parts[3] = {
        {(void *)request, sizeof *request},
        {(void *)text, request->text_length},
        {(void *)entry_path, request->entry_path_length},
    };
    if (server->in_place) {
        watch_in_place(server, request, parts);
        return;
    }
    int32_t reply[2];
    if (write_all(server->requests, parts, 3) != 0 || zygote_reply(server, reply) != 0) {
        // The zygote died (it never should: it only forks and waits).
        zygote_end(server);
        final_frame(request->id, NARRATE_WORKER_EXITED, 2, "the voice process ended unexpectedly");
    }
}

// At the end of the worker's input: the zygotes end at the end of theirs.
void end_zygotes(void) {
    for (int index = 0; index < MAX_ZYGOTES; index++) {
        if (zygotes[index].used) zygote_end(&zygotes[index]);
    }
}
