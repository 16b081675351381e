// Kokoro's output (kokoro_output.c): a batch's samples trimmed, timed and scaled into the
// child's audio, and a phonemes request's lines.

#ifndef NARRATE_WORKER_KOKORO_OUTPUT_H
#define NARRATE_WORKER_KOKORO_OUTPUT_H

#include <stddef.h>
#include <stdint.h>

#include "kokoro_batches.h"
#include "kokoro_text.h"
#include "phonemes.h"

// The span of `samples` that sounds, as librosa's trim finds it (see kokoro_output.c).
void kokoro_trim_silence(const float *samples, size_t count, size_t *start, size_t *end);

// Marks the sentences that start in `batch` in its trimmed audio [start, end) of `samples`,
// which starts at the child's sample `base`; `durations` (`tokens` of them, NULL: none) are the
// model's per-token durations.
void kokoro_mark_sentences(const kokoro_symbols *batch, const kokoro_sentences *sentences, const phoneme_map *vocabulary, const float *durations,
                           size_t tokens, size_t samples, size_t start, size_t end, uint64_t base);

// Appends data[start, end) to the child's audio as 16-bit samples (clipped to ±1, times 32767,
// rounded to nearest); 0, or TOO_LONG.
uint32_t kokoro_append_pcm(const float *data, size_t start, size_t end);

// A phonemes request's answer: a line per batch (see kokoro_output.c), malloc'd.
void kokoro_phoneme_lines(const char *text, const kokoro_symbols *batches, size_t count, const phoneme_map *vocabulary, char **lines,
                          size_t *length);

#endif
