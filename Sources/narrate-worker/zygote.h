// The zygotes: one process per voice setting in use, which loads that voice once and forks
// a child per text (or speaks every text itself). A bottom floor: it knows no engine; what a
// zygote does with its voice is handed to it as a table of functions (zygote_work).

#ifndef NARRATE_WORKER_ZYGOTE_H
#define NARRATE_WORKER_ZYGOTE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "children.h"
#include "engine_clock.h"
#include "narrate_worker_protocol.h"
#include "voices.h"

// A zygote's reply that only its template (hub_template.c) writes, after the zygote ended: the detail is
// its wait status. It comes last; the template then closes its end of the replies pipe.
#define ZYGOTE_ENDED 0x7FFFFFFE
// An in-place zygote's first reply to a request: its work is over, its answer comes next.
#define WORK_OVER 0x7FFFFFFF

// A voice's load is bounded, on the engine clock, by its text's deadline but never less than
// engine_clock_least_load_ms (a minute; see engine_clock.h).
static inline uint32_t load_limit_ms(uint32_t deadline_ms) {
    return deadline_ms > engine_clock_least_load_ms ? deadline_ms : engine_clock_least_load_ms;
}

// What a zygote does with its voice, given by the process model above (main.c).
typedef struct {
    // In a hub's template, before it loads: starts what the engines need (the worker itself has
    // done so at its start). NULL: nothing.
    void (*start)(void);
    // In a new zygote: loads the voice once. DONE, or a failure status with `detail` and, where
    // it helps, a line in `note`; on DONE `*in_place` says whether the zygote does its requests'
    // work itself (no child per text).
    uint32_t (*load)(const voice_settings *settings, int32_t *detail, char *note, size_t note_size, int *in_place);
    // Once loaded, before its first request (its children's shared sample buffer).
    void (*prepare)(void);
    // In a zygote that speaks in place: one request's work, `over(fd)` called when the work is
    // over and only the answer is left to write. The status a child would exit with.
    int (*answer)(const narrate_worker_request *request, const char *text, const char *entry_path, int sample_rate,
                  void (*over)(int), int fd);
    // In any other zygote: a child's work on a request (children.c forks the child).
    child_work child;
    // In a zygote that speaks in place, idle a while after work: whether its voice has memory to
    // give back, and giving it back.
    int (*rests)(void);
    void (*rest)(void);
    // In the worker: a zygote for `settings` that speaks in place, forked by someone else (the
    // hub) and handed this worker's `requests` (read end) and `replies` (write end), asked for a
    // text with `deadline_ms`; its pid (and its pidfd, or -1), or 0 when the worker forks the
    // zygote itself. NULL: always itself.
    pid_t (*shared)(const voice_settings *settings, int sample_rate, uint32_t deadline_ms, int requests, int replies, int *pidfd);
} zygote_work;

// A zygote's first reply: how loading its voice went, with a line that says why it failed (or a
// warning); on success the detail says whether it speaks in place.
void zygote_load_reply(int fd, int32_t status, int32_t detail, const char *note);
// A new zygote's life (zygote_serve.c), in the process just forked: loads the voice, replies how
// that went, and serves until the worker closes `requests`.
void zygote_main(const zygote_work *work, int requests, int replies, const voice_settings *settings, int sample_rate);
// A loaded zygote's life: serves requests one at a time until the worker closes its input.
void zygote_serve(const zygote_work *work, int requests, int replies, int in_place, int sample_rate);

// In the worker: hands a synthesis (or phonemes) request to the zygote of its voice, started if
// need be, and waits until it has answered.
void zygote_synthesize(const zygote_work *work, const narrate_worker_request *request, const char *voice, const char *text,
                       const char *entry_path, int sample_rate);
// At the end of the worker's input: the zygotes end at the end of theirs.
void end_zygotes(void);

#endif
