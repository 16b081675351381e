// Kokoro's text side, as kokoro-onnx 0.6.1 does it: the text phonemized by eSpeak NG the way
// phonemizer 3.4 does (punctuation kept, stress marks on), only the vocabulary's symbols kept,
// whitespace made single spaces, then cut into batches of at most KOKORO_MAX_TOKENS symbols
// (at sentence ends first, then clause marks, then spaces; balanced, see split_phonemes in
// kokoro-onnx's chunker.py).

#ifndef NARRATE_WORKER_KOKORO_TEXT_H
#define NARRATE_WORKER_KOKORO_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "phonemes.h"

#define KOKORO_MAX_TOKENS 510

// A run of code points (malloc'd); a batch's `origin` is where it starts in the phonemes it was
// cut from (its symbols are theirs from there, whitespace runs being single spaces).
typedef struct {
    uint32_t *points;
    size_t count;
    size_t origin;
} kokoro_symbols;

// What eSpeak is to read as markup, which phonemizer's punctuation marks must not cut.
enum {
    KOKORO_PHONEME_SPANS = 1,  // [[…]] phoneme spans (Narrate's lexicons)
    KOKORO_MARKUP_TAGS = 2,    // SSML tags
};

// The text's phonemes with eSpeak NG's current voice, as phonemizer gives them, then kept to
// `vocabulary`'s symbols and with single spaces; `markup` says which markup the text holds.
// 0 on success (-1: out of memory).
int kokoro_phonemize(const char *text, const phoneme_map *vocabulary, int markup, kokoro_symbols *out);

// The phonemes cut into batches (each malloc'd, as is the array); 0 on success.
int kokoro_split(const kokoro_symbols *phonemes, size_t limit, kokoro_symbols **batches, size_t *count);

// Seconds of silence after a batch that ends with this symbol: `sentence` after . ! ? …,
// `clause` after , ; :, else none.
double kokoro_pause_after(const kokoro_symbols *batch, double sentence, double clause);

// The punctuation phonemizer keeps (its default marks): no sound of its own in the phonemes.
int kokoro_is_mark_symbol(uint32_t point);

// Whitespace as Python's str.isspace() has it (what phonemizer's and kokoro-onnx's \s, strip and
// split read).
int kokoro_is_space(uint32_t point);

// UTF-8 of the symbols appended to `bytes` (grown with realloc); 0 on success.
int kokoro_utf8(const kokoro_symbols *symbols, char **bytes, size_t *length, size_t *capacity);

#endif
