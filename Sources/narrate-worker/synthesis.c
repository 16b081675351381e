// The child's work: one synthesis of one text (or one listing of the voices), collected in
// memory and written as one frame, then the child exits. It runs in a forked child only, so
// the state eSpeak leaves behind is thrown away with the process.

#include <espeak-ng/speak_lib.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "frames.h"
#include "synthesis.h"

typedef struct {
    int16_t *samples;
    uint64_t count;
    uint64_t capacity;
    uint64_t limit;
    narrate_worker_mark *marks;
    uint32_t mark_count;
    uint32_t mark_capacity;
    int32_t sample_rate;
    int too_long;
} child_audio;

static child_audio audio;

static void *grow(void *buffer, uint64_t *capacity, uint64_t needed, size_t element) {
    if (needed <= *capacity) return buffer;
    uint64_t next = *capacity ? *capacity : 4096;
    while (next < needed) next *= 2;
    void *grown = realloc(buffer, next * element);
    if (!grown) {
        fprintf(stderr, "narrate-worker: out of memory for %llu samples\n", (unsigned long long)needed);
        _exit(3);
    }
    *capacity = next;
    return grown;
}

int synth_callback(short *wave, int count, espeak_EVENT *events) {
    for (espeak_EVENT *event = events; event && event->type != espeakEVENT_LIST_TERMINATED; event++) {
        if (event->type == espeakEVENT_WORD && event->length > 0) {
            uint64_t capacity = audio.mark_capacity;
            audio.marks = grow(audio.marks, &capacity, (uint64_t)audio.mark_count + 1, sizeof *audio.marks);
            audio.mark_capacity = (uint32_t)capacity;
            // text_position is 1-based, in Unicode scalars; `sample` counts from the start.
            audio.marks[audio.mark_count++] = (narrate_worker_mark){
                .text_offset = event->text_position - 1,
                .text_length = event->length,
                .sample_offset = event->sample,
            };
        } else if (event->type == espeakEVENT_SAMPLERATE) {
            audio.sample_rate = event->id.number;
        }
    }
    if (wave && count > 0) {
        if (audio.count + (uint64_t)count > audio.limit) {
            audio.too_long = 1;
            return 1;  // stop synthesis
        }
        audio.samples = grow(audio.samples, &audio.capacity, audio.count + (uint64_t)count, sizeof *audio.samples);
        memcpy(audio.samples + audio.count, wave, (size_t)count * sizeof *wave);
        audio.count += (uint64_t)count;
    }
    return 0;
}

// Test hooks: a child whose text contains $NARRATE_WORKER_CRASH_ON aborts, as eSpeak does on
// some input; one whose text contains $NARRATE_WORKER_HANG_ON never finishes.
const char *crash_marker;
const char *hang_marker;

void run_synthesis(const narrate_worker_request *request, const char *text, int sample_rate, int done_fd) {
    if (crash_marker && strstr(text, crash_marker)) abort();
    if (hang_marker && strstr(text, hang_marker)) {
        for (;;) pause();
    }
    audio.limit = request->max_samples;
    audio.sample_rate = sample_rate;
    unsigned int flags = espeakCHARS_UTF8 | espeakENDPAUSE;
    if (request->flags & NARRATE_WORKER_FLAG_SSML) flags |= espeakSSML;
    if (request->flags & NARRATE_WORKER_FLAG_PHONEMES) flags |= espeakPHONEMES;
    espeak_ERROR status = espeak_Synth(text, request->text_length + 1, 0, POS_CHARACTER, 0, flags, NULL, NULL);
    close(done_fd);  // synthesis is over: the worker stops the deadline clock
    int failed;
    if (audio.too_long) {
        failed = write_frame(NARRATE_WORKER_TOO_LONG, request->id, audio.sample_rate, 0, NULL, 0, 0, NULL, 0, 0);
    } else if (status != EE_OK) {
        failed = write_frame(NARRATE_WORKER_SYNTH_FAILED, request->id, audio.sample_rate, (int32_t)status, NULL, 0, 0, NULL, 0, 0);
    } else {
        failed = write_frame(NARRATE_WORKER_AUDIO, request->id, audio.sample_rate, 0,
                             audio.samples, audio.count * sizeof *audio.samples, audio.count,
                             audio.marks, (size_t)audio.mark_count * sizeof *audio.marks, audio.mark_count);
    }
    _exit(failed ? 1 : 0);
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
