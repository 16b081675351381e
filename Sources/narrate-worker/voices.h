// A voice setting (voice name and parameters): what a zygote loads once.

#ifndef NARRATE_WORKER_VOICES_H
#define NARRATE_WORKER_VOICES_H

#include <stdint.h>

#include "narrate_worker_protocol.h"

typedef struct {
    char voice[NARRATE_WORKER_MAX_VOICE_BYTES + 1];
    int32_t rate, volume, pitch, word_gap;
} voice_settings;

voice_settings settings_of(const narrate_worker_request *request, const char *voice);
uint32_t apply_voice(const voice_settings *settings, int32_t *detail);

// Splits a description in place at 0x1F; the number of fields (at most `capacity`).
int split_fields(char *text, char **fields, int capacity);

#endif
