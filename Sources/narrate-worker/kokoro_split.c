// kokoro-onnx's chunker (chunker.py, 0.6.1) over code points: the phonemes cut into atoms no
// longer than the limit (at sentence ends, then clause marks, then spaces, and only as a last
// resort inside a word), then packed into balanced batches: the smallest limit that still
// needs no more batches than filling each to the limit would.
//
// Below the rest of Kokoro's text side; it calls no other file.

#include <stdlib.h>
#include <string.h>

#include "kokoro_text.h"

typedef struct {
    size_t start, length;  // into the phonemes
} atom;

typedef struct {
    atom *atoms;
    size_t count, capacity;
} atom_list;

static int is_sentence_mark(uint32_t point) {
    return point == '.' || point == '!' || point == '?' || point == 0x2026;
}

static int is_clause_mark(uint32_t point) {
    return point == ',' || point == ';' || point == ':';
}

int kokoro_is_space(uint32_t point) {
    // Only ' ' survives the vocabulary in practice; the others are kept for the same cut.
    return point == ' ' || (point >= 0x09 && point <= 0x0D) || (point >= 0x1C && point <= 0x1F) || point == 0x85 || point == 0xA0 ||
           point == 0x1680 || (point >= 0x2000 && point <= 0x200A) || point == 0x2028 || point == 0x2029 || point == 0x202F ||
           point == 0x205F || point == 0x3000;
}

static int push(atom_list *list, size_t start, size_t length) {
    if (list->count == list->capacity) {
        size_t capacity = list->capacity ? list->capacity * 2 : 64;
        atom *grown = realloc(list->atoms, capacity * sizeof *grown);
        if (!grown) return -1;
        list->atoms = grown;
        list->capacity = capacity;
    }
    list->atoms[list->count++] = (atom){start, length};
    return 0;
}

// Whether a cut of `level` may be made at the whitespace run starting at `at`.
static int cuts_at(const uint32_t *points, size_t start, size_t at, int level) {
    if (level == 2) return 1;
    if (at == start) return 0;
    uint32_t before = points[at - 1];
    return level == 0 ? is_sentence_mark(before) : is_clause_mark(before);
}

// Python's str.strip() on points[start, start+length).
static void strip(const uint32_t *points, size_t *start, size_t *length) {
    while (*length && kokoro_is_space(points[*start])) (*start)++, (*length)--;
    while (*length && kokoro_is_space(points[*start + *length - 1])) (*length)--;
}

static int atoms_of(const uint32_t *points, size_t start, size_t length, size_t limit, int level, atom_list *out) {
    if (length <= limit) return length ? push(out, start, length) : 0;
    for (int index = level; index < 3; index++) {
        // re.split(boundary, text): the pieces between the whitespace runs the boundary matches.
        size_t piece = start, end = start + length;
        int pieces = 0;
        for (size_t at = start; at < end;) {
            if (!kokoro_is_space(points[at]) || !cuts_at(points, start, at, index)) {
                at++;
                continue;
            }
            size_t run = at;
            while (run < end && kokoro_is_space(points[run])) run++;
            pieces++;
            at = run;
        }
        if (pieces == 0) continue;
        for (size_t at = start; at <= end;) {
            if (at < end && (!kokoro_is_space(points[at]) || !cuts_at(points, start, at, index))) {
                at++;
                continue;
            }
            size_t piece_start = piece, piece_length = at - piece;
            strip(points, &piece_start, &piece_length);
            if (atoms_of(points, piece_start, piece_length, limit, index + 1, out) != 0) return -1;
            if (at == end) break;
            while (at < end && kokoro_is_space(points[at])) at++;
            piece = at;
        }
        return 0;
    }
    // One unbroken run longer than the limit: sliced rather than dropped.
    for (size_t at = start; at < start + length; at += limit) {
        size_t part = start + length - at < limit ? start + length - at : limit;
        if (push(out, at, part) != 0) return -1;
    }
    return 0;
}

// _pack: consecutive atoms grouped within `limit` (a space between two); the number of batches,
// and their ends in `ends` when given.
static size_t pack(const atom_list *atoms, size_t limit, size_t *ends) {
    size_t batches = 0, start = 0, size = 0;
    for (size_t index = 0; index < atoms->count; index++) {
        size_t length = atoms->atoms[index].length;
        size_t candidate = index == start ? length : size + 1 + length;
        if (candidate > limit && index > start) {
            if (ends) ends[batches] = index;
            batches++;
            start = index;
            size = length;
        } else {
            size = candidate;
        }
    }
    if (atoms->count) {
        if (ends) ends[batches] = atoms->count;
        batches++;
    }
    return batches;
}

int kokoro_split(const kokoro_symbols *phonemes, size_t limit, kokoro_symbols **batches, size_t *count) {
    *batches = NULL;
    *count = 0;
    size_t start = 0, length = phonemes->count;
    strip(phonemes->points, &start, &length);
    atom_list atoms = {0};
    if (atoms_of(phonemes->points, start, length, limit, 0, &atoms) != 0) return -1;
    if (atoms.count == 0) return 0;
    size_t fewest = pack(&atoms, limit, NULL);
    size_t low = 0, high = limit;
    for (size_t index = 0; index < atoms.count; index++) {
        if (atoms.atoms[index].length > low) low = atoms.atoms[index].length;
    }
    while (low < high) {
        size_t middle = (low + high) / 2;
        if (pack(&atoms, middle, NULL) <= fewest) high = middle;
        else low = middle + 1;
    }
    size_t *ends = malloc(atoms.count * sizeof *ends);
    size_t total = ends ? pack(&atoms, low, ends) : 0;
    kokoro_symbols *out = ends ? calloc(total, sizeof *out) : NULL;
    if (!out) {
        free(ends);
        free(atoms.atoms);
        return -1;
    }
    size_t first = 0;
    for (size_t batch = 0; batch < total; batch++) {
        size_t symbols = 0;
        for (size_t index = first; index < ends[batch]; index++) symbols += atoms.atoms[index].length + (index > first);
        out[batch].origin = atoms.atoms[first].start;
        out[batch].points = malloc((symbols ? symbols : 1) * sizeof(uint32_t));
        if (!out[batch].points) return -1;
        for (size_t index = first; index < ends[batch]; index++) {
            if (index > first) out[batch].points[out[batch].count++] = ' ';
            memcpy(out[batch].points + out[batch].count, phonemes->points + atoms.atoms[index].start, atoms.atoms[index].length * sizeof(uint32_t));
            out[batch].count += atoms.atoms[index].length;
        }
        first = ends[batch];
    }
    free(ends);
    free(atoms.atoms);
    *batches = out;
    *count = total;
    return 0;
}

double kokoro_pause_after(const kokoro_symbols *batch, double sentence, double clause) {
    size_t length = batch->count;
    while (length && kokoro_is_space(batch->points[length - 1])) length--;
    if (!length) return 0;
    uint32_t mark = batch->points[length - 1];
    if (is_sentence_mark(mark)) return sentence;
    if (is_clause_mark(mark)) return clause;
    return 0;
}

int kokoro_utf8(const kokoro_symbols *symbols, char **bytes, size_t *length, size_t *capacity) {
    size_t needed = *length + symbols->count * 4 + 1;
    if (needed > *capacity) {
        size_t grown = *capacity ? *capacity : 256;
        while (grown < needed) grown *= 2;
        char *moved = realloc(*bytes, grown);
        if (!moved) return -1;
        *bytes = moved;
        *capacity = grown;
    }
    unsigned char *at = (unsigned char *)*bytes + *length;
    for (size_t index = 0; index < symbols->count; index++) {
        uint32_t point = symbols->points[index];
        if (point < 0x80) {
            *at++ = (unsigned char)point;
        } else if (point < 0x800) {
            *at++ = (unsigned char)(0xC0 | (point >> 6));
            *at++ = (unsigned char)(0x80 | (point & 0x3F));
        } else if (point < 0x10000) {
            *at++ = (unsigned char)(0xE0 | (point >> 12));
            *at++ = (unsigned char)(0x80 | ((point >> 6) & 0x3F));
            *at++ = (unsigned char)(0x80 | (point & 0x3F));
        } else {
            *at++ = (unsigned char)(0xF0 | (point >> 18));
            *at++ = (unsigned char)(0x80 | ((point >> 12) & 0x3F));
            *at++ = (unsigned char)(0x80 | ((point >> 6) & 0x3F));
            *at++ = (unsigned char)(0x80 | (point & 0x3F));
        }
    }
    *length = (size_t)((char *)at - *bytes);
    return 0;
}
