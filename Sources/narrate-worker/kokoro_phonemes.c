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

#include <espeak-ng/speak_lib.h>

#include <stdlib.h>
#include <string.h>

#include "kokoro_text.h"

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

int kokoro_is_mark_symbol(uint32_t point) {
    static const uint32_t marks[] = {';', ':', ',', '.', '!', '?', 0xA1, 0xBF, 0x2014, 0x2026, '"', 0xAB, 0xBB, 0x201C, 0x201D, '(', ')', '{', '}', '[', ']'};
    for (size_t index = 0; index < sizeof marks / sizeof *marks; index++) {
        if (marks[index] == point) return 1;
    }
    return 0;
}

static int is_digit(uint32_t point) {
    return point >= '0' && point <= '9';
}

// A mark at `at` of the line: a mark symbol, a , or . between two ASCII digits excepted.
static int is_mark_at(const uint32_t *line, size_t length, size_t at) {
    uint32_t point = line[at];
    if (!kokoro_is_mark_symbol(point)) return 0;
    if (point != ',' && point != '.') return 1;
    return !(at > 0 && is_digit(line[at - 1]) && at + 1 < length && is_digit(line[at + 1]));
}

static int text_push(text *into, uint32_t point) {
    if (into->count == into->capacity) {
        size_t capacity = into->capacity ? into->capacity * 2 : 32;
        uint32_t *grown = realloc(into->points, capacity * sizeof *grown);
        if (!grown) return -1;
        into->points = grown;
        into->capacity = capacity;
    }
    into->points[into->count++] = point;
    return 0;
}

static int text_append(text *into, const uint32_t *points, size_t count) {
    for (size_t index = 0; index < count; index++) {
        if (text_push(into, points[index]) != 0) return -1;
    }
    return 0;
}

static int texts_push(text_list *list, text item) {
    if (list->count == list->capacity) {
        size_t capacity = list->capacity ? list->capacity * 2 : 16;
        text *grown = realloc(list->items, capacity * sizeof *grown);
        if (!grown) return -1;
        list->items = grown;
        list->capacity = capacity;
    }
    list->items[list->count++] = item;
    return 0;
}

static int marks_push(mark_list *list, mark item) {
    if (list->count == list->capacity) {
        size_t capacity = list->capacity ? list->capacity * 2 : 16;
        mark *grown = realloc(list->items, capacity * sizeof *grown);
        if (!grown) return -1;
        list->items = grown;
        list->capacity = capacity;
    }
    list->items[list->count++] = item;
    return 0;
}

static int text_from(text *out, const uint32_t *points, size_t count) {
    *out = (text){0};
    if (text_append(out, points, count) != 0) return -1;
    return text_push(out, 0) == 0 ? (out->count--, 0) : -1;  // room for a terminator, not counted
}

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
        if (text_push(out, extra < 0 ? 0xFFFD : point) != 0) return -1;
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

// Markup eSpeak reads and phonemizer must not cut: with KOKORO_PHONEME_SPANS a [[…]] span (a
// pronunciation of Narrate's lexicons), with KOKORO_MARKUP_TAGS an SSML tag <…>. The end of the
// one starting at `at`, or `at` when none does.
static size_t opaque_end(const uint32_t *line, size_t length, size_t at, int markup) {
    if ((markup & KOKORO_PHONEME_SPANS) && at + 1 < length && line[at] == '[' && line[at + 1] == '[') {
        for (size_t end = at + 2; end + 1 < length; end++) {
            if (line[end] == ']' && line[end + 1] == ']') return end + 2;
        }
    }
    if ((markup & KOKORO_MARKUP_TAGS) && line[at] == '<') {
        for (size_t end = at + 1; end < length; end++) {
            if (line[end] == '>') return end + 1;
        }
    }
    return at;
}

// Where `needle` first occurs in `haystack` (str.find), or -1.
static long find(const uint32_t *haystack, size_t length, const text *needle) {
    if (needle->count == 0) return 0;
    for (size_t at = 0; at + needle->count <= length; at++) {
        if (memcmp(haystack + at, needle->points, needle->count * sizeof *haystack) == 0) return (long)at;
    }
    return -1;
}

// Punctuation.preserve for one line (numbered `number`): its pieces and marks appended.
static int preserve_line(const uint32_t *line, size_t length, size_t number, int markup, text_list *pieces, mark_list *marks) {
    size_t first_mark = marks->count;
    // The matches: maximal runs of whitespace and marks holding at least one mark.
    for (size_t at = 0; at < length;) {
        size_t opaque = opaque_end(line, length, at, markup);
        if (opaque > at) {
            at = opaque;
            continue;
        }
        if (!kokoro_is_space(line[at]) && !is_mark_at(line, length, at)) {
            at++;
            continue;
        }
        size_t end = at;
        int holds_mark = 0;
        while (end < length && opaque_end(line, length, end, markup) == end && (kokoro_is_space(line[end]) || is_mark_at(line, length, end))) {
            holds_mark |= !kokoro_is_space(line[end]);
            end++;
        }
        if (holds_mark) {
            mark found = {.line = number, .kind = 'I'};
            if (text_from(&found.marks, line + at, end - at) != 0) return -1;
            found.kind = at == 0 ? 'B' : 'I';
            if (marks_push(marks, found) != 0) return -1;
            // B when it is the first and starts the line, else E when it is the last and ends it.
            if (end == length && !(marks->count - first_mark == 1 && at == 0)) marks->items[marks->count - 1].kind = 'E';
        }
        at = end;
    }
    size_t found = marks->count - first_mark;
    if (found == 0) {
        text piece;
        if (text_from(&piece, line, length) != 0) return -1;
        return texts_push(pieces, piece);
    }
    mark *only = &marks->items[first_mark];
    if (found == 1 && only->marks.count == length) {
        only->kind = 'A';
        return 0;
    }
    size_t rest = 0;
    for (size_t index = first_mark; index < marks->count; index++) {
        const text *wanted = &marks->items[index].marks;
        long offset = find(line + rest, length - rest, wanted);
        if (offset < 0) offset = (long)(length - rest);  // never: the mark is in the line
        text piece;
        if (text_from(&piece, line + rest, (size_t)offset) != 0 || texts_push(pieces, piece) != 0) return -1;
        rest += (size_t)offset + wanted->count;
        if (rest > length) rest = length;
    }
    text piece;
    if (text_from(&piece, line + rest, length - rest) != 0) return -1;
    return texts_push(pieces, piece);
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
        if (!first && text_push(&joined, ' ') != 0) return -1;
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
        if (text_push(&line, point) != 0) return -1;
    }
    text single = {0};
    for (size_t at = 0; at < line.count; at++) {
        if (line.points[at] == ' ' && at + 1 < line.count && line.points[at + 1] == ' ') {
            if (text_push(&single, ' ') != 0) return -1;
            at++;
            continue;
        }
        if (text_push(&single, line.points[at]) != 0) return -1;
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
            if (single.points[index] != '_' && text_push(out, single.points[index]) != 0) return -1;
        }
        if (text_push(out, ' ') != 0) return -1;
        at = word_end + 1;
    }
    free(single.points);
    return 0;
}

static int ends_with_space(const text *item) {
    return item->count && item->points[item->count - 1] == ' ';
}

// Punctuation.restore: the phonemized pieces and the marks back into lines.
static int restore(text_list *pieces, mark_list *marks, text_list *lines) {
    size_t next_piece = 0, next_mark = 0, line = 0;
    while (next_piece < pieces->count || next_mark < marks->count) {
        if (next_mark == marks->count) {
            for (; next_piece < pieces->count; next_piece++) {
                text *item = &pieces->items[next_piece];
                if (!ends_with_space(item) && text_push(item, ' ') != 0) return -1;
                if (texts_push(lines, *item) != 0) return -1;
            }
        } else if (next_piece == pieces->count) {
            text rest = {0};
            for (; next_mark < marks->count; next_mark++) {
                if (text_append(&rest, marks->items[next_mark].marks.points, marks->items[next_mark].marks.count) != 0) return -1;
            }
            if (texts_push(lines, rest) != 0) return -1;
        } else if (marks->items[next_mark].line == line) {
            mark *current = &marks->items[next_mark++];
            text *head = &pieces->items[next_piece];
            if (ends_with_space(head)) head->count--;
            if (current->kind == 'B') {
                text joined = {0};
                if (text_append(&joined, current->marks.points, current->marks.count) != 0 || text_append(&joined, head->points, head->count) != 0) return -1;
                free(head->points);
                *head = joined;
            } else if (current->kind == 'E') {
                if (text_append(head, current->marks.points, current->marks.count) != 0) return -1;
                if (!ends_with_space(&current->marks) && text_push(head, ' ') != 0) return -1;
                if (texts_push(lines, *head) != 0) return -1;
                next_piece++;
                line++;
            } else if (current->kind == 'A') {
                text alone = {0};
                if (text_append(&alone, current->marks.points, current->marks.count) != 0) return -1;
                if (!ends_with_space(&alone) && text_push(&alone, ' ') != 0) return -1;
                if (texts_push(lines, alone) != 0) return -1;
                line++;
            } else if (next_piece + 1 == pieces->count) {
                if (text_append(head, current->marks.points, current->marks.count) != 0) return -1;
            } else {
                // The head grows in place (amortized: a line of many marks stays linear) and
                // takes the second piece's place.
                text *second = &pieces->items[next_piece + 1];
                if (text_append(head, current->marks.points, current->marks.count) != 0 || text_append(head, second->points, second->count) != 0) return -1;
                free(second->points);
                *second = *head;
                *head = (text){0};
                next_piece++;
            }
        } else {
            if (texts_push(lines, pieces->items[next_piece++]) != 0) return -1;
            line++;
        }
    }
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
            if (preserve_line(all.points + at, stop - at, number, markup, &pieces, &marks) != 0) return -1;
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
    if (restore(&pieces, &marks, &lines) != 0) return -1;
    // "\n".join(lines), only the vocabulary's symbols kept ("\n" is not one), stripped, and
    // whitespace runs made one space.
    text kept_symbols = {0};
    for (size_t index = 0; index < lines.count; index++) {
        for (size_t at = 0; at < lines.items[index].count; at++) {
            uint32_t point = lines.items[index].points[at];
            size_t ids = 0;
            phoneme_ids_of(vocabulary, point, &ids);
            if (ids && text_push(&kept_symbols, point) != 0) return -1;
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
        if (pending_space && text_push(&result, ' ') != 0) return -1;
        pending_space = 0;
        if (text_push(&result, point) != 0) return -1;
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
