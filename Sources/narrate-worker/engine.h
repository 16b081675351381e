// The engines a worker speaks with, behind one interface: eSpeak NG (espeak.c), Piper voices
// (piper.c) and Kokoro voices (kokoro.c). A request's voice names its engine (a description
// that starts with the engine's prefix, or else an eSpeak NG voice); the zygote of that voice
// loads it once, and each child synthesizes one text with it into the child's audio (audio.h),
// or, for an engine that is `in_place`, the zygote synthesizes every text itself.

#ifndef NARRATE_WORKER_ENGINE_H
#define NARRATE_WORKER_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "narrate_worker_protocol.h"
#include "voices.h"

typedef struct {
    // How the engine is named in a failure ("eSpeak NG", "Piper", "Kokoro").
    const char *name;
    // Whether a request's voice is for this engine.
    int (*speaks)(const char *voice);
    // In the zygote: loads the voice once. DONE, or a failure status with `detail` and, where it
    // helps, a line in `note` that says why.
    uint32_t (*load)(const voice_settings *settings, int32_t *detail, char *note, size_t note_size);
    // In the child: synthesizes `text` into the child's audio. 0 on success, else a status
    // (SYNTH_FAILED with `*detail`, TOO_LONG), with the reason on standard error.
    uint32_t (*synthesize)(const narrate_worker_request *request, const char *text, int32_t *detail);
    // In the child: the text's phonemes as lines of NARRATE_WORKER_PHONEMIZE's answer (malloc'd).
    void (*phonemes)(const narrate_worker_request *request, const char *text, char **lines, size_t *length);
    // After `load`: non-zero when what a synthesis leaves behind never changes the next one's
    // samples (no random state, nothing carried over): the zygote then synthesizes every text
    // itself, with its session warm, and forks no child (zygote.c). NULL: never. eSpeak NG
    // carries state from one synthesis to the next; a Piper voice's noise is stateless once its
    // RandomNormalLike nodes are replaced (onnx_noise.h), and Kokoro's graph has none.
    int (*in_place)(void);
    // In a zygote that speaks in place, idle a while after work: gives back the memory its
    // syntheses took and no longer use (onnx_rest). NULL: nothing to give.
    void (*rest)(void);
} narrate_engine;

extern const narrate_engine espeak_engine;
extern const narrate_engine piper_engine;
extern const narrate_engine kokoro_engine;

// The engine of a request's voice (eSpeak NG when no other claims it).
const narrate_engine *engine_for(const char *voice);

// The engine this process (a zygote and its children) loaded its voice with; eSpeak NG's until then.
const narrate_engine *loaded_engine(void);
// In the zygote: loads the voice with its engine, which is then this process's.
uint32_t engine_load(const voice_settings *settings, int32_t *detail, char *note, size_t note_size);

#endif
