// Kokoro's phonemes as kokoro-onnx 0.6.1 makes them: phonemizer 3.4's espeak backend
// (preserve_punctuation=True, with_stress=True, everything else by default) over the text,
// then only the vocabulary's symbols kept, stripped, and whitespace runs made one space.
//
// phonemizer, for one text: the text stripped and cut into lines at LF (blank lines dropped);
// in each line, the runs of whitespace and punctuation marks (; : , . ! ? ¡ ¿ — … " « » “ ” ( )
// { } [ ], a , or . between two ASCII digits excepted) are taken out as marks: at the line's
// start (B), end (E), inside (I), or the whole line (A). The line is cut at each mark's text's
// first occurrence in what is left of it (phonemizer's str.find, which a decimal "1,5" before
// a mark "," can fool). Each piece is phonemized alone (espeak_TextToPhonemes clause by clause,
// IPA with '_' between phonemes, the clauses joined by a space), cleaned (underscores gone,
// each word followed by one space), and the marks put back as they were (restore in
// punctuation.py). All lengths and places are in code points, as Python's are.
//
// This file phonemizes the pieces with eSpeak NG and keeps the vocabulary's symbols; taking the
// marks out and putting them back is kokoro_punctuation.c's, below it.

#include <espeak-ng/speak_lib.h>

#include <stdlib.h>
#include <string.h>

#include "kokoro_punctuation.h"
#include "kokoro_text.h"

// Decodes UTF-8 (an invalid byte reads as U+FFFD).
static int decode(const char *bytes, text *out) {
    const unsigned char *at = (const unsigned char *)bytes;
    while (*at) {
        uint32_t point = *at;
        int extra = point >= 0xF0 ? 3 : point >= 0xE0 ? 2 : point >= 0xC0 ? 1 : 0;
        if (point >= 0x80 && point < 0xC0) extra = -1;
        if (extra > 0) point &= 0x3F >> extra;
        at++;
        for (int index = 0; extra > 0 && index < extra; index++) {
            if ((*at & 0xC0) != 0x80) {
                extra = -1;
                break;
            }
            point = (point << 6) | (*at++ & 0x3F);
        }
        if (kokoro_text_push(out, extra < 0 ? 0xFFFD : point) != 0) return -1;
    }
    return 0;
}

static char *encode(const uint32_t *points, size_t count) {
    kokoro_symbols symbols = {(uint32_t *)points, count};
    char *bytes = NULL;
    size_t length = 0, capacity = 0;
    if (kokoro_utf8(&symbols, &bytes, &length, &capacity) != 0) return NULL;
    if (!bytes) bytes = malloc(1);
    if (bytes) bytes[length] = 0;
    return bytes;
}

// One piece through eSpeak NG and _postprocess_line: each word followed by one space.
static int phonemize_piece(const text *piece, text *out) {
    *out = (text){0};
    char *bytes = encode(piece->points, piece->count);
    if (!bytes) return -1;
    text joined = {0};
    const void *position = bytes;
    int first = 1;
    while (position) {
        const char *clause = espeak_TextToPhonemes(&position, espeakCHARS_UTF8, ('_' << 8) | espeakPHONEMES_IPA);
        if (!clause || !*clause) continue;
        if (!first && kokoro_text_push(&joined, ' ') != 0) return -1;
        first = 0;
        if (decode(clause, &joined) != 0) return -1;
    }
    free(bytes);
    // Stripped; "\n" made " "; "  " made " " in one pass; then every word (split at ' ')
    // stripped, its underscores gone, and followed by one space.
    size_t start = 0, end = joined.count;
    while (start < end && kokoro_is_space(joined.points[start])) start++;
    while (end > start && kokoro_is_space(joined.points[end - 1])) end--;
    text line = {0};
    for (size_t at = start; at < end; at++) {
        uint32_t point = joined.points[at] == '\n' ? ' ' : joined.points[at];
        if (kokoro_text_push(&line, point) != 0) return -1;
    }
    text single = {0};
    for (size_t at = 0; at < line.count; at++) {
        if (line.points[at] == ' ' && at + 1 < line.count && line.points[at + 1] == ' ') {
            if (kokoro_text_push(&single, ' ') != 0) return -1;
            at++;
            continue;
        }
        if (kokoro_text_push(&single, line.points[at]) != 0) return -1;
    }
    free(joined.points);
    free(line.points);
    if (single.count == 0) {
        free(single.points);
        return 0;
    }
    for (size_t at = 0; at <= single.count;) {
        size_t word_end = at;
        while (word_end < single.count && single.points[word_end] != ' ') word_end++;
        size_t word_start = at, stop = word_end;
        while (word_start < stop && kokoro_is_space(single.points[word_start])) word_start++;
        while (stop > word_start && kokoro_is_space(single.points[stop - 1])) stop--;
        for (size_t index = word_start; index < stop; index++) {
            if (single.points[index] != '_' && kokoro_text_push(out, single.points[index]) != 0) return -1;
        }
        if (kokoro_text_push(out, ' ') != 0) return -1;
        at = word_end + 1;
    }
    free(single.points);
    return 0;
}

int kokoro_phonemize(const char *utf8, const phoneme_map *vocabulary, int markup, kokoro_symbols *out) {
    *out = (kokoro_symbols){0};
    text all = {0};
    if (decode(utf8, &all) != 0) return -1;
    size_t start = 0, end = all.count;
    while (start < end && kokoro_is_space(all.points[start])) start++;
    while (end > start && kokoro_is_space(all.points[end - 1])) end--;
    text_list pieces = {0};
    mark_list marks = {0};
    size_t number = 0;
    for (size_t at = start; at < end;) {
        size_t stop = at;
        while (stop < end && all.points[stop] != '\n') stop++;
        int blank = 1;
        for (size_t index = at; index < stop && blank; index++) blank = kokoro_is_space(all.points[index]);
        if (!blank) {
            if (kokoro_preserve_line(all.points + at, stop - at, number, markup, &pieces, &marks) != 0) return -1;
            number++;
        }
        at = stop + 1;
    }
    free(all.points);
    // Empty pieces are dropped (B and E marks leave them); whitespace-only ones stay.
    size_t kept = 0;
    for (size_t index = 0; index < pieces.count; index++) {
        if (pieces.items[index].count == 0) {
            free(pieces.items[index].points);
            continue;
        }
        text phonemized;
        if (phonemize_piece(&pieces.items[index], &phonemized) != 0) return -1;
        free(pieces.items[index].points);
        pieces.items[kept++] = phonemized;
    }
    pieces.count = kept;
    text_list lines = {0};
    if (kokoro_restore(&pieces, &marks, &lines) != 0) return -1;
    // "\n".join(lines), only the vocabulary's symbols kept ("\n" is not one), stripped, and
    // whitespace runs made one space.
    text kept_symbols = {0};
    for (size_t index = 0; index < lines.count; index++) {
        for (size_t at = 0; at < lines.items[index].count; at++) {
            uint32_t point = lines.items[index].points[at];
            size_t ids = 0;
            phoneme_ids_of(vocabulary, point, &ids);
            if (ids && kokoro_text_push(&kept_symbols, point) != 0) return -1;
        }
    }
    text result = {0};
    int pending_space = 0;
    for (size_t at = 0; at < kept_symbols.count; at++) {
        uint32_t point = kept_symbols.points[at];
        if (kokoro_is_space(point)) {
            pending_space = result.count > 0;
            continue;
        }
        if (pending_space && kokoro_text_push(&result, ' ') != 0) return -1;
        pending_space = 0;
        if (kokoro_text_push(&result, point) != 0) return -1;
    }
    out->points = result.points;
    out->count = result.count;
    free(kept_symbols.points);
    // The zygote phonemizes every text (and each sentence's start again): nothing is kept. Each
    // piece's text went into one line (restore moves them), the marks' were copied.
    for (size_t index = 0; index < lines.count; index++) free(lines.items[index].points);
    for (size_t index = 0; index < marks.count; index++) free(marks.items[index].marks.points);
    free(lines.items);
    free(marks.items);
    free(pieces.items);
    return 0;
}
