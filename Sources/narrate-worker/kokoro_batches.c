// Kokoro's phonemes and batches: a text's phonemes (kokoro_phonemize, the whole text at once),
// its sentences found in them, and the batches they are cut into, as kokoro-onnx 0.6.1 cuts a
// text's. Below the Kokoro engine (kokoro.c); below it: espeak.c (the request's markup),
// kokoro_phonemes.c and kokoro_split.c.

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "espeak.h"
#include "kokoro_batches.h"

static int is_sentence_end(uint32_t point) {
    return point == '.' || point == '!' || point == '?' || point == 0x2026 || point == 0x3002 || point == 0xFF01 || point == 0xFF1F;
}

static int closes(uint32_t point) {
    return point == '"' || point == '\'' || point == ')' || point == ']' || point == 0x201D || point == 0x2019 || point == 0xBB;
}

// The code point at `*at` (UTF-8, as Narrate sends it), `*at` moved past it.
static uint32_t next_point(const unsigned char **at) {
    uint32_t point = *(*at)++;
    int more = point >= 0xF0 ? 3 : point >= 0xE0 ? 2 : point >= 0xC0 ? 1 : 0;
    if (more) point &= 0x3Fu >> more;
    while (more-- > 0 && (**at & 0xC0) == 0x80) point = point << 6 | (*(*at)++ & 0x3F);
    return point;
}

static void out_of_memory(void) {
    fprintf(stderr, "narrate-worker: out of memory while phonemizing\n");
    _exit(3);
}

// The text's phonemes (kokoro_phonemize: exits the child when memory runs out).
static kokoro_symbols phonemes_of(const phoneme_map *vocabulary, const char *text, size_t bytes, int markup) {
    char *piece = malloc(bytes + 1);
    if (!piece) out_of_memory();
    memcpy(piece, text, bytes);
    piece[bytes] = 0;
    kokoro_symbols phonemes = {0};
    if (kokoro_phonemize(piece, vocabulary, markup, &phonemes) != 0) out_of_memory();
    free(piece);
    return phonemes;
}

// Where the sentence text[from, to) lies (Unicode scalars; `scalar` is `from`'s), without the
// whitespace around it; 0 when it is all whitespace.
static int place(const char *from, const char *to, int32_t scalar, kokoro_sentence *sentence) {
    int32_t lead = 0, scalars = 0, spoken_end = 0;
    for (const unsigned char *at = (const unsigned char *)from; at < (const unsigned char *)to;) {
        uint32_t point = next_point(&at);
        scalars++;
        if (!kokoro_is_space(point)) spoken_end = scalars;
        else if (spoken_end == 0) lead = scalars;
    }
    *sentence = (kokoro_sentence){scalar + lead, spoken_end - lead, 0, 0};
    return spoken_end > 0;
}

// The text's phonemes, as kokoro-onnx makes them (the whole text at once), and its sentences:
// the text cut after . ! ? … (with the closing quotes or brackets after it) where whitespace
// follows, never inside a phoneme span [[…]] (SSML is one sentence). A cut counts where the
// phonemes of the text before it are the start of the whole's, a space after them: there the
// next sentence's phonemes start. Elsewhere (an abbreviation, which reads otherwise alone) the
// sentence goes on.
static void sentences_of(const narrate_worker_request *request, const char *text, const phoneme_map *vocabulary, kokoro_symbols *all, kokoro_sentences *sentences) {
    read_markup_as_asked(request);
    int markup = ((request->flags & NARRATE_WORKER_FLAG_PHONEMES) ? KOKORO_PHONEME_SPANS : 0) | ((request->flags & NARRATE_WORKER_FLAG_SSML) ? KOKORO_MARKUP_TAGS : 0);
    size_t length = strlen(text);
    *all = phonemes_of(vocabulary, text, length, markup);
    *sentences = (kokoro_sentences){calloc(length + 1, sizeof(kokoro_sentence)), 0};
    if (!sentences->items) out_of_memory();
    const unsigned char *at = (const unsigned char *)text, *from = at;
    int32_t scalar = 0, from_scalar = 0;
    size_t from_symbol = 0;
    int in_span = 0;
    while (*at) {
        if (markup & KOKORO_PHONEME_SPANS) {
            if (at[0] == '[' && at[1] == '[') in_span = 1;
            else if (in_span && at[0] == ']' && at[1] == ']') in_span = 0;
        }
        uint32_t point = next_point(&at);
        scalar++;
        if (in_span || (markup & KOKORO_MARKUP_TAGS) || !is_sentence_end(point)) continue;
        uint32_t following = 0;
        while (*at) {
            const unsigned char *peek = at;
            following = next_point(&peek);
            if (!is_sentence_end(following) && !closes(following)) break;
            at = peek;
            scalar++;
            following = 0;
        }
        if (!*at || !kokoro_is_space(following)) continue;
        kokoro_symbols before = phonemes_of(vocabulary, text, (size_t)(at - (const unsigned char *)text), markup);
        int cuts = before.count > from_symbol && before.count < all->count && all->points[before.count] == ' ' &&
                   memcmp(before.points, all->points, before.count * sizeof *before.points) == 0;
        size_t next_symbol = before.count + 1;
        free(before.points);
        if (!cuts) continue;
        kokoro_sentence sentence;
        if (place((const char *)from, (const char *)at, from_scalar, &sentence)) {
            sentence.symbol = from_symbol;
            sentence.symbols = next_symbol - 1 - from_symbol;
            sentences->items[sentences->count++] = sentence;
        }
        from = at;
        from_scalar = scalar;
        from_symbol = next_symbol;
    }
    kokoro_sentence last;
    if (from_symbol < all->count && place((const char *)from, (const char *)at, from_scalar, &last)) {
        last.symbol = from_symbol;
        last.symbols = all->count - from_symbol;
        sentences->items[sentences->count++] = last;
    }
}

// The text's batches and sentences: with the model's durations, its sentences' phonemes cut
// into batches as kokoro-onnx cuts a text's (several sentences to a batch, each timed by the
// durations); without them, each sentence's cut alone. Exits the child when memory runs out.
void kokoro_batches_of(const narrate_worker_request *request, const char *text, const phoneme_map *vocabulary, int timed,
                       kokoro_symbols **batches, size_t *count, kokoro_sentences *sentences) {
    kokoro_symbols all;
    sentences_of(request, text, vocabulary, &all, sentences);
    *batches = NULL;
    *count = 0;
    if (timed || sentences->count < 2) {
        if (kokoro_split(&all, KOKORO_MAX_TOKENS, batches, count) != 0) out_of_memory();
        free(all.points);
        return;
    }
    for (size_t index = 0; index < sentences->count; index++) {
        const kokoro_sentence *sentence = &sentences->items[index];
        kokoro_symbols one = {all.points + sentence->symbol, sentence->symbols, 0}, *parts = NULL;
        size_t part_count = 0;
        if (kokoro_split(&one, KOKORO_MAX_TOKENS, &parts, &part_count) != 0) out_of_memory();
        kokoro_symbols *grown = realloc(*batches, (*count + part_count + 1) * sizeof *grown);
        if (!grown) out_of_memory();
        *batches = grown;
        for (size_t part = 0; part < part_count; part++) {
            parts[part].origin += sentence->symbol;
            (*batches)[(*count)++] = parts[part];
        }
        free(parts);
    }
    free(all.points);
}

void kokoro_free_batches(kokoro_symbols *batches, size_t count) {
    for (size_t index = 0; index < count; index++) free(batches[index].points);
    free(batches);
}
