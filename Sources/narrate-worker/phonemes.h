// Piper's phonemizer, as piper-tts does it: text -> clauses of IPA from eSpeak NG (with each
// clause's punctuation kept) -> sentences of code points (NFD) -> phoneme ids.

#ifndef NARRATE_WORKER_PHONEMES_H
#define NARRATE_WORKER_PHONEMES_H

#include <stddef.h>
#include <stdint.h>

// A voice's phoneme_id_map and the NFD decompositions, both sorted by code point.
typedef struct {
    uint32_t codepoint;
    uint32_t first;  // index into `ids` / `parts`
    uint32_t count;
} phoneme_entry;

typedef struct {
    phoneme_entry *entries;
    size_t count;
    int64_t *ids;
    size_t id_count;
    phoneme_entry *decompositions;
    size_t decomposition_count;
    uint32_t *parts;
    size_t part_count;
} phoneme_map;

// Parses the map ("hex=id+id,…") and the decompositions ("hex=hex+hex,…"); 0 on success.
int phoneme_map_parse(phoneme_map *map, const char *ids, const char *decompositions);
// The ids of one code point, or NULL (`*count` 0) when the voice has none.
const int64_t *phoneme_ids_of(const phoneme_map *map, uint32_t codepoint, size_t *count);

// One sentence: its phoneme ids (BOS, PAD after each phoneme, EOS) and where it lies in the
// text (0-based Unicode scalars).
typedef struct {
    int64_t *ids;
    size_t id_count;
    int32_t text_offset;
    int32_t text_length;
    char *ipa;  // the phonemes as piper hands them to the id map (UTF-8, NFD), when asked for
    size_t ipa_length, ipa_capacity;
} phoneme_sentence;

typedef struct {
    phoneme_sentence *sentences;
    size_t count;
    uint32_t unknown;  // the first code point the map had no id for (0: none)
    int keep_ipa;      // set before phonemize: also collect each sentence's `ipa`
} phoneme_sentences;

// Phonemizes `text` (UTF-8) with eSpeak NG's current voice; 0 on success (-1: out of memory).
// `out->keep_ipa` is read: set it (and nothing else) first to collect the IPA.
int phonemize(const phoneme_map *map, const char *text, phoneme_sentences *out);
// Frees the sentences' ids and IPA and the list (a zygote that synthesizes in place).
void phoneme_sentences_free(phoneme_sentences *sentences);

#endif
