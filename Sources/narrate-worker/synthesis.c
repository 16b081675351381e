// The child's work: one synthesis of one text with its voice's engine (or one listing of the
// voices, or the text's phonemes), answered in one frame, then the child exits, so the state an
// engine leaves behind is thrown away with the process. An engine that leaves none behind
// (`in_place`) has the same work done by its zygote, request after request.
//
// Above the engine interface (engines.c, audio.c); called by no file but main.c, which hands
// these functions to the process model (children.c, zygote.c) as their work.

#include <espeak-ng/speak_lib.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "audio.h"
#include "engine.h"
#include "frames.h"
#include "synthesis.h"

// Test hooks: a child whose text contains $NARRATE_WORKER_CRASH_ON aborts, as eSpeak does on
// some input; one whose text contains $NARRATE_WORKER_HANG_ON never finishes (it sleeps), nor
// one whose text contains $NARRATE_WORKER_SPIN_ON (it spins on a core). With
// $NARRATE_WORKER_HOOKS_ONCE (a file's path), a hook fires only for the process that creates
// that file: a crash or hang once, as a process killed from outside would be.
const char *crash_marker;
const char *hang_marker;
const char *spin_marker;
const char *hooks_once_path;

static int hook_fires(const char *marker, const char *text) {
    if (!marker || !strstr(text, marker)) return 0;
    if (!hooks_once_path) return 1;
    int fd = open(hooks_once_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) return 0;
    close(fd);
    return 1;
}

int synthesis_answer(const narrate_worker_request *request, const char *text, const char *entry_path, int sample_rate, void (*over)(int), int fd) {
    if (hook_fires(crash_marker, text)) abort();
    if (hook_fires(hang_marker, text)) {
        for (;;) pause();
    }
    if (hook_fires(spin_marker, text)) {
        for (volatile unsigned long turns = 0;; turns++) {}
    }
    audio_begin(request->max_samples, sample_rate);
    int32_t failure = 0;
    uint32_t status = loaded_engine()->synthesize(request, text, &failure);
    if (status == NARRATE_WORKER_TOO_LONG) audio_set_too_long();
    over(fd);  // synthesis is over: the worker stops the deadline clock
    // An engine other than eSpeak gives its reason on standard error: the worker reports its
    // last line with the status.
    if (status == NARRATE_WORKER_SYNTH_FAILED && loaded_engine() != &espeak_engine) return 4;
    if (status == NARRATE_WORKER_SYNTH_FAILED && failure == 0) failure = -1;
    return audio_answer(request, failure, entry_path, text) ? 1 : 0;
}

static void close_fd(int fd) {
    close(fd);
}

void run_synthesis(const narrate_worker_request *request, const char *text, const char *entry_path, int sample_rate, int done_fd) {
    _exit(synthesis_answer(request, text, entry_path, sample_rate, close_fd, done_fd));
}

// One voice a line: name, identifier, gender (0 unknown, 1 male, 2 female), languages
// separated by commas; fields separated by 0x1F.
void run_listing(const narrate_worker_request *request, int done_fd) {
    espeak_VOICE spec;
    memset(&spec, 0, sizeof spec);
    spec.languages = "variant";
    const espeak_VOICE **voices = espeak_ListVoices(request->kind == NARRATE_WORKER_LIST_VARIANTS ? &spec : NULL);
    size_t capacity = 4096, length = 0;
    char *text = malloc(capacity);
    for (const espeak_VOICE **cursor = voices; text && cursor && *cursor; cursor++) {
        const espeak_VOICE *voice = *cursor;
        char line[1024];
        int used = snprintf(line, sizeof line, "%s\x1f%s\x1f%d\x1f", voice->name ? voice->name : "",
                            voice->identifier ? voice->identifier : "", voice->gender);
        // languages: (priority byte, NUL-terminated name) pairs, ended by an empty name.
        const char *language = voice->languages;
        int first = 1;
        while (language && *language && used > 0 && (size_t)used < sizeof line - 64) {
            language++;
            if (!*language) break;
            used += snprintf(line + used, sizeof line - (size_t)used, "%s%s", first ? "" : ",", language);
            first = 0;
            language += strlen(language) + 1;
        }
        if (used <= 0 || (size_t)used >= sizeof line - 1) continue;
        line[used++] = '\n';
        if (length + (size_t)used > capacity) {
            while (length + (size_t)used > capacity) capacity *= 2;
            text = realloc(text, capacity);
            if (!text) break;
        }
        memcpy(text + length, line, (size_t)used);
        length += (size_t)used;
    }
    close(done_fd);
    if (!text) _exit(3);
    _exit(write_frame(NARRATE_WORKER_LIST, request->id, 0, 0, text, length, 0, NULL, 0, 0) ? 1 : 0);
}

// The text's phonemes (see NARRATE_WORKER_PHONEMIZE), as its voice's engine gives them.
int phonemes_answer(const narrate_worker_request *request, const char *text, void (*over)(int), int fd) {
    char *lines = NULL;
    size_t length = 0;
    loaded_engine()->phonemes(request, text, &lines, &length);
    over(fd);
    int failed = write_frame(NARRATE_WORKER_LIST, request->id, 0, 0, lines, length, 0, NULL, 0, 0);
    free(lines);
    return failed ? 1 : 0;
}

void run_phonemes(const narrate_worker_request *request, const char *text, int done_fd) {
    _exit(phonemes_answer(request, text, close_fd, done_fd));
}
