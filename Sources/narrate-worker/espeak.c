// eSpeak NG's own voices: the zygote sets the voice and its parameters once; each child
// synthesizes its text through the callback, word marks included, or lists its IPA clause by
// clause.
//
// An engine (engine.h), below engines.c, piper.c and kokoro*.c (which phonemize with eSpeak);
// below it: audio.c, voices.c.

#include <espeak-ng/speak_lib.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "audio.h"
#include "engine.h"
#include "espeak.h"

int synth_callback(short *wave, int count, espeak_EVENT *events) {
    for (espeak_EVENT *event = events; event && event->type != espeakEVENT_LIST_TERMINATED; event++) {
        if (event->type == espeakEVENT_WORD && event->length > 0) {
            // text_position is 1-based, in Unicode scalars; `sample` counts from the start.
            audio_mark_at(event->text_position - 1, event->length, event->sample);
        } else if (event->type == espeakEVENT_SAMPLERATE) {
            audio_set_rate(event->id.number);
        }
    }
    if (wave && count > 0 && audio_append(wave, (uint64_t)count) != 0) return 1;  // too long: stop
    return 0;
}

void read_markup_as_asked(const narrate_worker_request *request) {
    // The reading eSpeak was last set to: none in a fresh process. A process that serves many
    // requests (an in-place zygote) sets it back when a request asks for less than the last.
    static unsigned int applied = 0;
    unsigned int wanted = request->flags & (NARRATE_WORKER_FLAG_SSML | NARRATE_WORKER_FLAG_PHONEMES);
    if (wanted == applied) return;
    unsigned int flags = espeakCHARS_UTF8;
    if (wanted & NARRATE_WORKER_FLAG_SSML) flags |= espeakSSML;
    if (wanted & NARRATE_WORKER_FLAG_PHONEMES) flags |= espeakPHONEMES;
    espeak_Synth("", 1, 0, POS_CHARACTER, 0, flags, NULL, NULL);
    audio_reset();
    applied = wanted;
}

int set_espeak_voice(const char *name) {
    if (espeak_SetVoiceByName(name) == EE_OK) return 0;
    espeak_VOICE properties;
    memset(&properties, 0, sizeof properties);
    properties.languages = name;
    return espeak_SetVoiceByProperties(&properties) == EE_OK ? 0 : -1;
}

static int speaks(const char *voice) {
    (void)voice;
    return 1;
}

static uint32_t load(const voice_settings *settings, int32_t *detail, char *note, size_t note_size) {
    (void)note;
    (void)note_size;
    return apply_voice(settings, detail);
}

static uint32_t synthesize(const narrate_worker_request *request, const char *text, int32_t *detail) {
    unsigned int flags = espeakCHARS_UTF8 | espeakENDPAUSE;
    if (request->flags & NARRATE_WORKER_FLAG_SSML) flags |= espeakSSML;
    if (request->flags & NARRATE_WORKER_FLAG_PHONEMES) flags |= espeakPHONEMES;
    espeak_ERROR status = espeak_Synth(text, request->text_length + 1, 0, POS_CHARACTER, 0, flags, NULL, NULL);
    if (audio_is_too_long()) return NARRATE_WORKER_TOO_LONG;
    if (status != EE_OK) {
        *detail = (int32_t)status;
        return NARRATE_WORKER_SYNTH_FAILED;
    }
    return 0;
}

static void append(char **bytes, size_t *length, size_t *capacity, const char *more, size_t count) {
    if (*length + count + 1 > *capacity) {
        size_t grown = *capacity ? *capacity : 4096;
        while (grown < *length + count + 1) grown *= 2;
        char *moved = realloc(*bytes, grown);
        if (!moved) _exit(3);
        *bytes = moved;
        *capacity = grown;
    }
    memcpy(*bytes + *length, more, count);
    *length += count;
}

// eSpeak's IPA clause by clause: text offset, 0, IPA.
static void phonemes(const narrate_worker_request *request, const char *text, char **lines, size_t *length) {
    read_markup_as_asked(request);
    char *out = NULL;
    size_t used = 0, capacity = 0;
    char field[64];
    const void *position = text;
    const char *counted = text;  // the scalars before `counted` are in `offset`
    int32_t offset = 0;
    while (position) {
        const char *before = position;
        const char *ipa = espeak_TextToPhonemes(&position, espeakCHARS_UTF8, espeakPHONEMES_IPA);
        for (; counted < before; counted++) offset += ((unsigned char)*counted & 0xC0) != 0x80;
        int count = snprintf(field, sizeof field, "%d\x1f" "0\x1f", offset);
        append(&out, &used, &capacity, field, (size_t)count);
        if (ipa) append(&out, &used, &capacity, ipa, strlen(ipa));
        append(&out, &used, &capacity, "\x1f\n", 2);
    }
    *lines = out;
    *length = used;
}

const narrate_engine espeak_engine = {
    .name = "eSpeak NG",
    .speaks = speaks,
    .load = load,
    .synthesize = synthesize,
    .phonemes = phonemes,
};
