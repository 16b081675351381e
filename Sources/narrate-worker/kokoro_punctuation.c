// Kokoro's punctuation, as phonemizer 3.4's Punctuation class (punctuation.py) handles it
// with preserve_punctuation=True: a line's marks taken out (preserve) before its pieces are
// phonemized, and put back among the phonemized pieces (restore); the runs of code points
// both work on. Below kokoro_phonemes.c (see there for the whole); below it: kokoro_split.c.

#include <stdlib.h>
#include <string.h>

#include "kokoro_punctuation.h"
#include "kokoro_text.h"

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

int kokoro_text_push(text *into, uint32_t point) {
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
        if (kokoro_text_push(into, points[index]) != 0) return -1;
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
    return kokoro_text_push(out, 0) == 0 ? (out->count--, 0) : -1;  // room for a terminator, not counted
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
int kokoro_preserve_line(const uint32_t *line, size_t length, size_t number, int markup, text_list *pieces, mark_list *marks) {
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

static int ends_with_space(const text *item) {
    return item->count && item->points[item->count - 1] == ' ';
}

// Punctuation.restore: the phonemized pieces and the marks back into lines.
int kokoro_restore(text_list *pieces, mark_list *marks, text_list *lines) {
    size_t next_piece = 0, next_mark = 0, line = 0;
    while (next_piece < pieces->count || next_mark < marks->count) {
        if (next_mark == marks->count) {
            for (; next_piece < pieces->count; next_piece++) {
                text *item = &pieces->items[next_piece];
                if (!ends_with_space(item) && kokoro_text_push(item, ' ') != 0) return -1;
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
                if (!ends_with_space(&current->marks) && kokoro_text_push(head, ' ') != 0) return -1;
                if (texts_push(lines, *head) != 0) return -1;
                next_piece++;
                line++;
            } else if (current->kind == 'A') {
                text alone = {0};
                if (text_append(&alone, current->marks.points, current->marks.count) != 0) return -1;
                if (!ends_with_space(&alone) && kokoro_text_push(&alone, ' ') != 0) return -1;
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
