// The engine table and its dispatch: the first engine that speaks a voice gets it; eSpeak NG,
// last, speaks every voice no other engine claims.
//
// Above the engines (espeak.c, piper.c, kokoro.c), below synthesis.c and main.c: no engine calls it.

#include "engine.h"

static const narrate_engine *const engines[] = {&piper_engine, &kokoro_engine, &espeak_engine};

static const narrate_engine *loaded = &espeak_engine;

const narrate_engine *engine_for(const char *voice) {
    for (size_t index = 0; index < sizeof engines / sizeof *engines; index++) {
        if (engines[index]->speaks(voice)) return engines[index];
    }
    return &espeak_engine;
}

const narrate_engine *loaded_engine(void) {
    return loaded;
}

uint32_t engine_load(const voice_settings *settings, int32_t *detail, char *note, size_t note_size) {
    const narrate_engine *engine = engine_for(settings->voice);
    uint32_t status = engine->load(settings, detail, note, note_size);
    if (status == NARRATE_WORKER_DONE) loaded = engine;
    return status;
}
