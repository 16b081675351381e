// Kokoro's punctuation (kokoro_punctuation.c): phonemizer's Punctuation.preserve and restore,
// for kokoro_phonemes.c, over growable runs of code points.

#ifndef NARRATE_WORKER_KOKORO_PUNCTUATION_H
#define NARRATE_WORKER_KOKORO_PUNCTUATION_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint32_t *points;
    size_t count, capacity;
} text;

typedef struct {
    size_t line;
    text marks;  // the mark's text
    char kind;   // 'B', 'E', 'I' or 'A'
} mark;

typedef struct {
    text *items;
    size_t count, capacity;
} text_list;

typedef struct {
    mark *items;
    size_t count, capacity;
} mark_list;

// Appends a code point; 0, or -1 when memory runs out.
int kokoro_text_push(text *into, uint32_t point);

// Punctuation.preserve for one line (numbered `number`): its pieces and marks appended; 0, or -1.
int kokoro_preserve_line(const uint32_t *line, size_t length, size_t number, int markup, text_list *pieces, mark_list *marks);

// Punctuation.restore: the phonemized pieces and the marks back into lines; 0, or -1.
int kokoro_restore(text_list *pieces, mark_list *marks, text_list *lines);

#endif
