// Kokoro's output: a batch's samples trimmed of their silence as kokoro-onnx trims them, its
// sentences marked where the model's durations time them, scaled to 16 bits into the child's
// audio; and the lines a phonemes request answers with. Below the Kokoro engine (kokoro.c);
// below it: audio.c, phonemes.c, kokoro_phonemes.c and kokoro_split.c.

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "audio.h"
#include "kokoro_output.h"

// librosa.effects.trim(audio, top_db=60, frame_length=2048, hop_length=512), as kokoro-onnx
// calls it: the frames' RMS (centred, zero-padded), and the span from the first frame to one
// past the last whose RMS is within 60 dB of the loudest.
void kokoro_trim_silence(const float *samples, size_t count, size_t *start, size_t *end) {
    const size_t frame = 2048, hop = 512, half = frame / 2;
    size_t frames = 1 + count / hop;
    double *power = malloc(frames * sizeof *power);
    if (!power) {
        *start = 0;
        *end = count;
        return;
    }
    double loudest = 0;
    for (size_t index = 0; index < frames; index++) {
        // Frame `index` covers padded samples [index·hop, index·hop + frame): the signal's
        // [index·hop − half, index·hop + half).
        double sum = 0;
        long long first = (long long)(index * hop) - (long long)half;
        for (long long at = first; at < first + (long long)frame; at++) {
            if (at < 0 || at >= (long long)count) continue;
            double value = samples[at];
            sum += value * value;
        }
        power[index] = sum / (double)frame;
        if (power[index] > loudest) loudest = power[index];
    }
    const double amin = 1e-10;
    double reference = 10.0 * log10(loudest > amin ? loudest : amin);
    long long first_loud = -1, last_loud = -1;
    for (size_t index = 0; index < frames; index++) {
        double level = 10.0 * log10(power[index] > amin ? power[index] : amin) - reference;
        if (level > -60.0) {
            if (first_loud < 0) first_loud = (long long)index;
            last_loud = (long long)index;
        }
    }
    free(power);
    if (first_loud < 0) {
        *start = *end = 0;
        return;
    }
    *start = (size_t)first_loud * hop;
    size_t stop = (size_t)(last_loud + 1) * hop;
    *end = stop < count ? stop : count;
}

// Marks the sentences that start in `batch` in its trimmed audio, which starts at sample `base`:
// the first at the audio's start; a later one where the sentence before it stops sounding (at
// its closing punctuation: the model puts a sentence's trailing silence on its last sound, and
// the next one's onset on the space before it). The model's per-token durations say where each
// token's audio lies, in proportion to the samples it gave (600 per unit); token 0 is the
// padding before the batch.
void kokoro_mark_sentences(const kokoro_symbols *batch, const kokoro_sentences *sentences, const phoneme_map *vocabulary, const float *durations,
                           size_t tokens, size_t samples, size_t start, size_t end, uint64_t base) {
    double total = 0;
    for (size_t index = 0; durations && index < tokens; index++) total += durations[index];
    for (size_t index = 0; index < sentences->count; index++) {
        const kokoro_sentence *sentence = &sentences->items[index];
        if (!sentence->symbols || sentence->symbol < batch->origin || sentence->symbol >= batch->origin + batch->count) continue;
        double sample = 0;
        if (durations && total > 0 && sentence->symbol > batch->origin) {
            // The tokens up to the last sound of the sentence before.
            size_t token = 1, sounded = 1;
            for (size_t symbol = 0; symbol < sentence->symbol - batch->origin; symbol++) {
                size_t ids = 0;
                phoneme_ids_of(vocabulary, batch->points[symbol], &ids);
                if (!ids) continue;
                token++;
                if (!kokoro_is_space(batch->points[symbol]) && !kokoro_is_mark_symbol(batch->points[symbol])) sounded = token;
            }
            double before = 0;
            for (size_t at = 0; at < sounded && at < tokens; at++) before += durations[at];
            sample = (double)samples * before / total;
        }
        double trimmed = sample > (double)start ? sample - (double)start : 0;
        if (trimmed > (double)(end - start)) trimmed = (double)(end - start);
        audio_mark_at(sentence->offset, sentence->length, (int64_t)(base + (uint64_t)llround(trimmed)));
    }
}

static int16_t to_pcm(float value) {
    if (value > 1.0f) value = 1.0f;
    if (value < -1.0f) value = -1.0f;
    return (int16_t)lrintf(value * 32767.0f);
}

uint32_t kokoro_append_pcm(const float *data, size_t start, size_t end) {
    int16_t block[4096];
    uint32_t status = 0;
    for (size_t done = start; done < end && !status;) {
        size_t part = end - done < 4096 ? end - done : 4096;
        for (size_t index = 0; index < part; index++) block[index] = to_pcm(data[done + index]);
        if (audio_append(block, part) != 0) status = NARRATE_WORKER_TOO_LONG;
        done += part;
    }
    return status;
}

static int32_t scalars_of(const char *text) {
    int32_t count = 0;
    for (const unsigned char *at = (const unsigned char *)text; *at; at++) count += (*at & 0xC0) != 0x80;
    return count;
}

// A line per batch: text offset 0, the text's length, the batch's IPA, its token ids.
void kokoro_phoneme_lines(const char *text, const kokoro_symbols *batches, size_t count, const phoneme_map *vocabulary, char **lines,
                          size_t *length) {
    char *out = NULL;
    size_t used = 0, capacity = 0;
    int32_t scalars = scalars_of(text);
    for (size_t index = 0; index < count; index++) {
        char field[64];
        int prefix = snprintf(field, sizeof field, "0\x1f%d\x1f", scalars);
        size_t needed = used + (size_t)prefix + batches[index].count * 26 + 8;
        if (needed > capacity) {
            capacity = needed * 2;
            char *grown = realloc(out, capacity);
            if (!grown) _exit(3);
            out = grown;
        }
        memcpy(out + used, field, (size_t)prefix);
        used += (size_t)prefix;
        if (kokoro_utf8(&batches[index], &out, &used, &capacity) != 0) _exit(3);
        if (used + 1 + batches[index].count * 21 + 2 > capacity) {
            capacity = (used + 1 + batches[index].count * 21 + 2) * 2;
            char *grown = realloc(out, capacity);
            if (!grown) _exit(3);
            out = grown;
        }
        out[used++] = 0x1F;
        int first = 1;
        for (size_t symbol = 0; symbol < batches[index].count; symbol++) {
            size_t ids = 0;
            const int64_t *id = phoneme_ids_of(vocabulary, batches[index].points[symbol], &ids);
            if (!ids) continue;
            used += (size_t)sprintf(out + used, first ? "%lld" : " %lld", (long long)id[0]);
            first = 0;
        }
        out[used++] = '\n';
    }
    *lines = out;
    *length = used;
}
