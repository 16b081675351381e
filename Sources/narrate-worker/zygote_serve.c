// A zygote's own life (zygote.c holds the worker's side): it loads its voice once, says how that
// went, then serves the worker's requests one at a time, forking a child per text (children.c)
// or, for an engine that speaks in place, doing the work itself and replying twice: WORK_OVER
// when the work is over (the worker's deadline clock stops), then DONE once its answer is
// written. An in-place zygote reads its standard error back after each request, for the last
// line an engine wrote there (the reason it failed).
//
// A bottom floor: it knows no engine (the zygote_work table comes from main.c), and the hub's
// templates (hub_template.c) serve their zygotes with it too. Below: children.c, error_tail.c,
// frames.c, worker_log.c.

#define _GNU_SOURCE  // pipe2

#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "children.h"
#include "error_tail.h"
#include "frames.h"
#include "worker_log.h"
#include "zygote.h"

// How long a zygote that speaks in place waits for its next text before it gives back memory.
#define ZYGOTE_REST_AFTER_MS 1000

static void write_reply(int fd, int32_t status, int32_t detail) {
    int32_t reply[2] = {status, detail};
    struct iovec part = {reply, sizeof reply};
    if (write_all(fd, &part, 1) != 0) _exit(0);  // the worker is gone
}

void zygote_load_reply(int fd, int32_t status, int32_t detail, const char *note) {
    int32_t reply[3] = {status, detail, (int32_t)strlen(note)};
    struct iovec parts[2] = {{reply, sizeof reply}, {(void *)note, strlen(note)}};
    if (write_all(fd, parts, 2) != 0) _exit(0);
}

// In an in-place zygote: its standard error, read back after each request for the last line
// an engine wrote there (the reason it failed). Warnings go to the worker's (warning_fd).
static int error_pipe = -1;

static void redirect_errors(void) {
    int errors[2];
    // Both ends non-blocking: a line that does not fit is lost, never a zygote stuck on it.
    if (pipe2(errors, O_NONBLOCK | O_CLOEXEC) != 0) return;
    worker_log_fd = dup(STDERR_FILENO);
    if (worker_log_fd < 0 || dup2(errors[1], STDERR_FILENO) < 0) {
        worker_log_fd = STDERR_FILENO;
        close(errors[0]);
        close(errors[1]);
        return;
    }
    close(errors[1]);
    error_pipe = errors[0];
}

static void read_errors(error_tail *tail) {
    if (error_pipe < 0) return;
    fflush(stderr);
    while (error_tail_drain(error_pipe, tail) > 0) {}
}

static void tell_work_over(int fd) {
    write_reply(fd, WORK_OVER, 0);
}

// One request's work, done by the zygote itself: the answer, the final frame, then DONE.
static void serve_in_place(const zygote_work *work, const narrate_worker_request *request, const char *text, const char *entry_path, int sample_rate, int replies) {
    error_tail ignored = {0}, tail = {0};
    read_errors(&ignored);  // what an earlier request left
    int code = work->answer(request, text, entry_path, sample_rate, tell_work_over, replies);
    read_errors(&tail);
    const char *note = error_tail_finish(&tail);
    final_frame(request->id, code ? NARRATE_WORKER_EXITED : NARRATE_WORKER_DONE, code, code ? note : NULL);
}

// The zygote's life: load the voice once, say how that went, then serve requests.
void zygote_main(const zygote_work *work, int requests, int replies, const voice_settings *settings, int sample_rate) {
    int32_t detail = 0;
    char note[1024] = "";
    int in_place = 0;
    uint32_t applied = work->load(settings, &detail, note, sizeof note, &in_place);
    // Loaded: the detail says whether this zygote does its requests' work itself.
    zygote_load_reply(replies, (int32_t)applied, applied == NARRATE_WORKER_DONE ? in_place : detail, note);
    if (applied != NARRATE_WORKER_DONE) _exit(0);
    zygote_serve(work, requests, replies, in_place, sample_rate);
}

void zygote_serve(const zygote_work *work, int requests, int replies, int in_place, int sample_rate) {
    if (in_place) redirect_errors();
    work->prepare();
    char *text = NULL;
    size_t capacity = 0;
    char entry_path[NARRATE_WORKER_MAX_PATH_BYTES + 1];
    int rests = in_place && work->rests();
    for (;;) {
        // Idle for a second after work: the memory it took goes back (a long text's tensors
        // can hold hundreds of MiB), and the next text takes it again.
        struct pollfd next = {.fd = requests, .events = POLLIN};
        if (rests && poll(&next, 1, ZYGOTE_REST_AFTER_MS) == 0) work->rest();
        narrate_worker_request request;
        if (read_exactly(requests, &request, sizeof request) != 0) _exit(0);
        if (request.entry_path_length > NARRATE_WORKER_MAX_PATH_BYTES) _exit(2);
        size_t needed = (size_t)request.text_length + 1;
        if (needed > capacity) {
            free(text);
            capacity = needed < 65536 ? 65536 : needed;
            text = malloc(capacity);
            if (!text) _exit(3);
        }
        if (read_exactly(requests, text, request.text_length) != 0 ||
            read_exactly(requests, entry_path, request.entry_path_length) != 0) _exit(0);
        text[request.text_length] = 0;
        entry_path[request.entry_path_length] = 0;
        const char *entry = (request.flags & NARRATE_WORKER_FLAG_ENTRY) ? entry_path : NULL;
        if (in_place) serve_in_place(work, &request, text, entry, sample_rate, replies);
        else serve(&request, text, entry, sample_rate, work->child);
        write_reply(replies, NARRATE_WORKER_DONE, 0);
    }
}

