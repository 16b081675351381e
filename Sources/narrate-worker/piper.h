// Piper voices: VITS models run by ONNX Runtime over ids from Piper's phonemizer. The zygote of
// a Piper voice loads the model once (its random nodes seeded); each child synthesizes one text.

#ifndef NARRATE_WORKER_PIPER_H
#define NARRATE_WORKER_PIPER_H

#include <stddef.h>
#include <stdint.h>

#include "narrate_worker_protocol.h"

// Whether a request's voice names a Piper voice (its description, made by the client:
// NARRATE_WORKER_PIPER_PREFIX, then fields separated by 0x1F; see piper.c).
int is_piper_voice(const char *voice);

// In the zygote: loads the voice the description names. DONE, or VOICE_NOT_FOUND (its eSpeak
// voice) or MODEL_FAILED with `note` saying why.
uint32_t piper_load(const char *description, char *note, size_t note_size);

// Whether this process (a zygote and its children) speaks a Piper voice.
int piper_loaded(void);

// In the child: synthesizes `text` into the child's audio; 0 on success, else a status
// (SYNTH_FAILED with `*detail`, TOO_LONG) and the reason on standard error.
uint32_t piper_synthesize(const narrate_worker_request *request, const char *text, int32_t *detail);

// In the child: the text's sentences as lines of NARRATE_WORKER_PHONEMIZE's answer (malloc'd).
void piper_phonemes(const narrate_worker_request *request, const char *text, char **lines, size_t *length);

#endif
