// Piper's phonemizer (piper-tts 1.8, phonemize_espeak.py and phoneme_ids.py) over the eSpeak NG
// this worker links. piper calls espeak_TextToPhonemesWithTerminator, which libespeak-ng 1.51
// (Debian 12) lacks: here the clause's punctuation is read back from the text instead, from
// where eSpeak leaves the text pointer (one character past the clause's end, at the next
// clause's first letter).
//
// Below piper.c and Kokoro's text side; it calls no other file of the worker.

#include <espeak-ng/speak_lib.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "phonemes.h"

// ---- The map --------------------------------------------------------------------------------

static int compare_entries(const void *left, const void *right) {
    uint32_t a = ((const phoneme_entry *)left)->codepoint, b = ((const phoneme_entry *)right)->codepoint;
    return a < b ? -1 : a > b;
}

// "hex=v+v,hex=v,…" into entries and values (`hex_values`: the values are hex code points).
static int parse_table(const char *text, int hex_values, phoneme_entry **entries, size_t *count, void **values, size_t *value_count) {
    size_t entry_capacity = 64, value_capacity = 256;
    *entries = malloc(entry_capacity * sizeof **entries);
    size_t element = hex_values ? sizeof(uint32_t) : sizeof(int64_t);
    *values = malloc(value_capacity * element);
    *count = *value_count = 0;
    if (!*entries || !*values) return -1;
    const char *at = text;
    while (*at) {
        char *next;
        unsigned long codepoint = strtoul(at, &next, 16);
        if (next == at || *next != '=' || codepoint > 0x10FFFF) return -1;
        at = next + 1;
        if (*count == entry_capacity) {
            entry_capacity *= 2;
            phoneme_entry *grown = realloc(*entries, entry_capacity * sizeof **entries);
            if (!grown) return -1;
            *entries = grown;
        }
        phoneme_entry *entry = &(*entries)[(*count)++];
        entry->codepoint = (uint32_t)codepoint;
        entry->first = (uint32_t)*value_count;
        entry->count = 0;
        for (;;) {
            long long value = hex_values ? (long long)strtoul(at, &next, 16) : strtoll(at, &next, 10);
            if (next == at || value < 0) return -1;
            if (*value_count == value_capacity) {
                value_capacity *= 2;
                void *grown = realloc(*values, value_capacity * element);
                if (!grown) return -1;
                *values = grown;
            }
            if (hex_values) ((uint32_t *)*values)[*value_count] = (uint32_t)value;
            else ((int64_t *)*values)[*value_count] = value;
            (*value_count)++;
            entry->count++;
            at = next;
            if (*at != '+') break;
            at++;
        }
        if (*at == ',') at++;
        else if (*at) return -1;
    }
    qsort(*entries, *count, sizeof **entries, compare_entries);
    return 0;
}

int phoneme_map_parse(phoneme_map *map, const char *ids, const char *decompositions) {
    memset(map, 0, sizeof *map);
    void *id_values, *part_values;
    if (parse_table(ids, 0, &map->entries, &map->count, &id_values, &map->id_count) != 0) return -1;
    map->ids = id_values;
    if (parse_table(decompositions, 1, &map->decompositions, &map->decomposition_count, &part_values, &map->part_count) != 0) return -1;
    map->parts = part_values;
    return 0;
}

static const phoneme_entry *find(const phoneme_entry *entries, size_t count, uint32_t codepoint) {
    phoneme_entry key = {.codepoint = codepoint};
    return bsearch(&key, entries, count, sizeof key, compare_entries);
}

const int64_t *phoneme_ids_of(const phoneme_map *map, uint32_t codepoint, size_t *count) {
    const phoneme_entry *entry = find(map->entries, map->count, codepoint);
    *count = entry ? entry->count : 0;
    return entry ? map->ids + entry->first : NULL;
}

// ---- Growing arrays -------------------------------------------------------------------------

static int push_id(phoneme_sentence *sentence, size_t *capacity, int64_t id) {
    if (sentence->id_count == *capacity) {
        size_t next = *capacity ? *capacity * 2 : 256;
        int64_t *grown = realloc(sentence->ids, next * sizeof *grown);
        if (!grown) return -1;
        sentence->ids = grown;
        *capacity = next;
    }
    sentence->ids[sentence->id_count++] = id;
    return 0;
}

static int push_ids(phoneme_sentence *sentence, size_t *capacity, const phoneme_map *map, uint32_t codepoint) {
    size_t count;
    const int64_t *ids = phoneme_ids_of(map, codepoint, &count);
    for (size_t index = 0; index < count; index++) {
        if (push_id(sentence, capacity, ids[index]) != 0) return -1;
    }
    return 0;
}

// ---- UTF-8 ----------------------------------------------------------------------------------

// Decodes one code point at `*at`; a malformed byte decodes as itself (U+FFFD would do too:
// eSpeak's IPA is well-formed).
static uint32_t decode(const unsigned char **at) {
    const unsigned char *bytes = *at;
    uint32_t value = bytes[0];
    int extra = value >= 0xF0 ? 3 : value >= 0xE0 ? 2 : value >= 0xC0 ? 1 : 0;
    if (extra) value &= 0x3F >> extra;
    for (int index = 1; index <= extra; index++) {
        if ((bytes[index] & 0xC0) != 0x80) {
            *at = bytes + 1;
            return bytes[0];
        }
        value = value << 6 | (bytes[index] & 0x3F);
    }
    *at = bytes + 1 + extra;
    return value;
}

static int32_t scalars_in(const char *start, const char *end) {
    int32_t count = 0;
    for (const char *at = start; at < end; at++) {
        if (((unsigned char)*at & 0xC0) != 0x80) count++;
    }
    return count;
}

static int is_space(unsigned char byte) {
    return byte == ' ' || byte == '\t' || byte == '\n' || byte == '\r' || byte == '\f' || byte == '\v';
}

// The start of the UTF-8 character that ends just before `end`.
static const char *previous_character(const char *start, const char *end) {
    const char *at = end;
    while (at > start) {
        at--;
        if (((unsigned char)*at & 0xC0) != 0x80) break;
    }
    return at;
}

// Closing quotes and brackets that may follow a clause's punctuation ("Stop." she said).
static int is_closer(const char *at, const char *end) {
    static const char *const closers[] = {"\"", "'", ")", "]", "}", "\xE2\x80\x9D", "\xE2\x80\x99", "\xC2\xBB", "\xE2\x80\xBA"};
    for (size_t index = 0; index < sizeof closers / sizeof *closers; index++) {
        size_t length = strlen(closers[index]);
        if ((size_t)(end - at) == length && memcmp(at, closers[index], length) == 0) return 1;
    }
    return 0;
}

// ---- Clauses --------------------------------------------------------------------------------

// The punctuation that ended the clause eSpeak read from `start` to `end`, as piper keeps it
// ('.', '?', '!', ',', ':', ';', or 0 for none), and where the clause's text ends.
// `lookahead`: eSpeak went one character past the clause (it has not reached the text's end).
static char clause_terminator(const char *start, const char *end, int lookahead, const char **clause_end) {
    const char *at = end;
    if (lookahead && at > start) at = previous_character(start, at);
    for (int pass = 0; pass < 2; pass++) {
        while (at > start && is_space((unsigned char)at[-1])) at--;
        const char *last = previous_character(start, at);
        while (at > start && is_closer(last, at)) {
            at = last;
            last = previous_character(start, at);
        }
        if (at > start) {
            char punctuation = at[-1];
            if (punctuation == '.' && at - 1 > start && at[-2] == '.') {
                // An ellipsis ends a clause that piper gives no punctuation (and no sentence end).
                *clause_end = at;
                return 0;
            }
            if (strchr(".?!,:;", punctuation)) {
                *clause_end = at;
                return punctuation;
            }
        }
        // The character eSpeak looked ahead at may have been the clause's own closing quote.
        if (!lookahead) break;
        at = end;
        lookahead = 0;
    }
    *clause_end = end;
    while (*clause_end > start && is_space((unsigned char)(*clause_end)[-1])) (*clause_end)--;
    return 0;
}

// Appends a phoneme string's code points, NFD-decomposed, with `(lang)` switches removed.
// Appends a code point's UTF-8 to the sentence's IPA.
static int append_ipa(phoneme_sentence *sentence, uint32_t codepoint) {
    char bytes[4];
    size_t length;
    if (codepoint < 0x80) {
        bytes[0] = (char)codepoint;
        length = 1;
    } else if (codepoint < 0x800) {
        bytes[0] = (char)(0xC0 | codepoint >> 6);
        bytes[1] = (char)(0x80 | (codepoint & 0x3F));
        length = 2;
    } else if (codepoint < 0x10000) {
        bytes[0] = (char)(0xE0 | codepoint >> 12);
        bytes[1] = (char)(0x80 | (codepoint >> 6 & 0x3F));
        bytes[2] = (char)(0x80 | (codepoint & 0x3F));
        length = 3;
    } else {
        bytes[0] = (char)(0xF0 | codepoint >> 18);
        bytes[1] = (char)(0x80 | (codepoint >> 12 & 0x3F));
        bytes[2] = (char)(0x80 | (codepoint >> 6 & 0x3F));
        bytes[3] = (char)(0x80 | (codepoint & 0x3F));
        length = 4;
    }
    if (sentence->ipa_length + length + 1 > sentence->ipa_capacity) {
        size_t next = sentence->ipa_capacity ? sentence->ipa_capacity * 2 : 256;
        char *grown = realloc(sentence->ipa, next);
        if (!grown) return -1;
        sentence->ipa = grown;
        sentence->ipa_capacity = next;
    }
    memcpy(sentence->ipa + sentence->ipa_length, bytes, length);
    sentence->ipa_length += length;
    sentence->ipa[sentence->ipa_length] = 0;
    return 0;
}

static int append_phonemes(const phoneme_map *map, const char *phonemes, phoneme_sentence *sentence, size_t *capacity,
                           uint32_t *unknown, int64_t pad, int keep_ipa) {
    const unsigned char *at = (const unsigned char *)phonemes;
    int in_switch = 0;
    while (*at) {
        const unsigned char *here = at;
        uint32_t codepoint = decode(&at);
        if (codepoint == '(' && !in_switch) {
            // piper removes "\([^)]+\)": a '(' only starts a switch if a ')' follows with
            // something in between.
            const char *close = strchr((const char *)here + 1, ')');
            if (close && close > (const char *)here + 1) {
                at = (const unsigned char *)close + 1;
                continue;
            }
        }
        uint32_t single[1] = {codepoint};
        const uint32_t *parts = single;
        size_t part_count = 1;
        const phoneme_entry *decomposition = find(map->decompositions, map->decomposition_count, codepoint);
        if (decomposition) {
            parts = map->parts + decomposition->first;
            part_count = decomposition->count;
        }
        for (size_t index = 0; index < part_count; index++) {
            if (keep_ipa && append_ipa(sentence, parts[index]) != 0) return -1;
            size_t count;
            const int64_t *ids = phoneme_ids_of(map, parts[index], &count);
            if (!ids) {
                if (!*unknown) *unknown = parts[index];
                continue;
            }
            for (size_t id = 0; id < count; id++) {
                if (push_id(sentence, capacity, ids[id]) != 0) return -1;
            }
            if (push_id(sentence, capacity, pad) != 0) return -1;
        }
    }
    return 0;
}

static int begin_sentence(const phoneme_map *map, phoneme_sentences *out, size_t *sentence_capacity, size_t *id_capacity) {
    if (out->count == *sentence_capacity) {
        size_t next = *sentence_capacity ? *sentence_capacity * 2 : 16;
        phoneme_sentence *grown = realloc(out->sentences, next * sizeof *grown);
        if (!grown) return -1;
        out->sentences = grown;
        *sentence_capacity = next;
    }
    phoneme_sentence *sentence = &out->sentences[out->count++];
    memset(sentence, 0, sizeof *sentence);
    *id_capacity = 0;
    size_t pad_count;
    const int64_t *pad = phoneme_ids_of(map, '_', &pad_count);
    if (push_ids(sentence, id_capacity, map, '^') != 0) return -1;
    for (size_t index = 0; index < pad_count; index++) {
        if (push_id(sentence, id_capacity, pad[index]) != 0) return -1;
    }
    return 0;
}

int phonemize(const phoneme_map *map, const char *text, phoneme_sentences *out) {
    int keep_ipa = out->keep_ipa;
    memset(out, 0, sizeof *out);
    out->keep_ipa = keep_ipa;
    size_t pad_count;
    const int64_t *pads = phoneme_ids_of(map, '_', &pad_count);
    int64_t pad = pad_count ? pads[0] : 0;
    size_t sentence_capacity = 0, id_capacity = 0;
    phoneme_sentence *sentence = NULL;
    size_t sentence_phonemes = 0;  // ids past BOS and its pad
    const char *cursor = text;     // where the next clause's text starts
    const char *sentence_start = NULL;
    const void *position = text;
    while (position) {
        const char *before = position;
        const char *phonemes = espeak_TextToPhonemes(&position, espeakCHARS_UTF8, espeakPHONEMES_IPA);
        const char *end = position ? (const char *)position : before + strlen(before);
        const char *clause_end;
        char terminator = clause_terminator(cursor < end ? cursor : before, end, position != NULL, &clause_end);
        if (!sentence) {
            if (begin_sentence(map, out, &sentence_capacity, &id_capacity) != 0) return -1;
            sentence = &out->sentences[out->count - 1];
            sentence_phonemes = sentence->id_count;
            sentence_start = cursor;
            while (*sentence_start && is_space((unsigned char)*sentence_start)) sentence_start++;
        }
        if (phonemes && append_phonemes(map, phonemes, sentence, &id_capacity, &out->unknown, pad, keep_ipa) != 0) return -1;
        if (terminator) {
            char mark[2] = {terminator, 0};
            if (append_phonemes(map, mark, sentence, &id_capacity, &out->unknown, pad, keep_ipa) != 0) return -1;
            if (strchr(",:;", terminator) && append_phonemes(map, " ", sentence, &id_capacity, &out->unknown, pad, keep_ipa) != 0) return -1;
        }
        cursor = clause_end > cursor ? clause_end : cursor;
        int end_of_sentence = terminator == '.' || terminator == '?' || terminator == '!' || !position;
        if (end_of_sentence) {
            const char *finish = clause_end > sentence_start ? clause_end : sentence_start;
            sentence->text_offset = scalars_in(text, sentence_start);
            sentence->text_length = scalars_in(sentence_start, finish);
            if (sentence->id_count == sentence_phonemes) {
                // No phonemes at all (punctuation alone): piper drops the empty sentence.
                free(sentence->ids);
                out->count--;
            } else if (push_ids(sentence, &id_capacity, map, '$') != 0) {
                return -1;
            }
            sentence = NULL;
        }
    }
    return 0;
}

void phoneme_sentences_free(phoneme_sentences *sentences) {
    for (size_t index = 0; index < sentences->count; index++) {
        free(sentences->sentences[index].ids);
        free(sentences->sentences[index].ipa);
    }
    free(sentences->sentences);
    sentences->sentences = NULL;
    sentences->count = 0;
}
