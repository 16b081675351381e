// Kokoro's phonemes and batches (kokoro_batches.c): a text's sentences and the batches the
// model runs, cut as kokoro-onnx cuts them.

#ifndef NARRATE_WORKER_KOKORO_BATCHES_H
#define NARRATE_WORKER_KOKORO_BATCHES_H

#include <stddef.h>
#include <stdint.h>

#include "kokoro_text.h"
#include "narrate_worker_protocol.h"
#include "phonemes.h"

// A sentence of a text: where it lies in it (Unicode scalars) and its phonemes' span in the
// text's.
typedef struct {
    int32_t offset, length;
    size_t symbol, symbols;
} kokoro_sentence;

typedef struct {
    kokoro_sentence *items;
    size_t count;
} kokoro_sentences;

// The text's batches and sentences (the phonemes kept to `vocabulary`'s symbols): with the
// model's durations (`timed`), its sentences' phonemes cut into batches as kokoro-onnx cuts a
// text's (several sentences to a batch, each timed by the durations); without them, each
// sentence's cut alone. Exits the child when memory runs out.
void kokoro_batches_of(const narrate_worker_request *request, const char *text, const phoneme_map *vocabulary, int timed,
                       kokoro_symbols **batches, size_t *count, kokoro_sentences *sentences);
void kokoro_free_batches(kokoro_symbols *batches, size_t count);

#endif
