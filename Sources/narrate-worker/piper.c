// A Piper voice in the worker. The description a client sends (fields separated by 0x1F):
//   piper, model path, eSpeak voice, sample rate, noise_scale, length_scale, noise_w,
//   speaker id (-1: none), silence after each sentence (samples), seed, name,
//   phoneme_id_map ("hex=id+id,…"), NFD decompositions ("hex=hex+hex,…"), and where the
//   model may be kept in ONNX Runtime's own format (a path prefix; empty: nowhere).
// The model in ONNX Runtime's format (written once, beside the audio cache) is mapped from its
// file and its weights used in place: every worker's zygote shares the same pages, so a worker
// beyond the first costs little memory.
// The zygote sets the eSpeak voice, loads ONNX Runtime and the model with one inference thread,
// its RandomNormalLike nodes replaced in memory by the stateless operator (onnx_noise.h: same
// text, same samples, whatever ran before), so the zygote speaks every text itself. For each
// text it phonemizes, runs the model sentence by sentence as piper does (each sentence's audio
// peak-normalized, then scaled to 16 bits), and adds a mark per sentence. A model with other
// random nodes (seeded, but their generators advance run after run) gets a child per text.
//
// An engine (engine.h), below engines.c; below it: audio.c, espeak.c, phonemes.c, voices.c,
// worker_log.c and the ONNX files.

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "audio.h"
#include "engine.h"
#include "espeak.h"
#include "onnx_noise.h"
#include "onnx_seed.h"
#include "onnx_session.h"
#include "ort.h"
#include "phonemes.h"
#include "worker_log.h"

typedef struct {
    char name[256];
    int sample_rate;
    float scales[3];  // noise_scale, length_scale, noise_w
    int64_t speaker;  // -1: the model takes no speaker
    uint64_t silence_samples;
    phoneme_map map;
    onnx_runtime ort;
    char *output_name;
    int *warned;  // shared with the children: an unknown phoneme is reported once per voice
    int stateless;  // no random node is left to ONNX Runtime's own generators
} piper_voice;

static piper_voice voice;

static int speaks(const char *name) {
    return strncmp(name, NARRATE_WORKER_PIPER_PREFIX, strlen(NARRATE_WORKER_PIPER_PREFIX)) == 0;
}

// Checks that the model takes Piper's inputs; 0 when it does.
static int check_inputs(char *note, size_t note_size) {
    char failure[256];
    char **names = NULL;
    size_t count = 0;
    if (onnx_input_names(&voice.ort, &names, &count, failure, sizeof failure) != 0) {
        snprintf(note, note_size, "ONNX Runtime: %s", failure);
        return -1;
    }
    int has_input = 0, has_lengths = 0, has_scales = 0, has_speaker = 0;
    for (size_t index = 0; index < count; index++) {
        has_input |= strcmp(names[index], "input") == 0;
        has_lengths |= strcmp(names[index], "input_lengths") == 0;
        has_scales |= strcmp(names[index], "scales") == 0;
        has_speaker |= strcmp(names[index], "sid") == 0;
        free(names[index]);
    }
    free(names);
    if (!has_input || !has_lengths || !has_scales) {
        snprintf(note, note_size, "the model %s does not take a Piper voice's inputs (input, input_lengths, scales)", voice.name);
        return -1;
    }
    if (voice.speaker >= 0 && !has_speaker) voice.speaker = -1;  // a single-speaker model
    if (voice.speaker < 0 && has_speaker) voice.speaker = 0;
    voice.output_name = onnx_first_output(&voice.ort, failure, sizeof failure);
    if (!voice.output_name) snprintf(note, note_size, "ONNX Runtime: %s", failure);
    return voice.output_name ? 0 : -1;
}

static uint32_t load(const voice_settings *settings, int32_t *detail, char *note, size_t note_size) {
    (void)detail;
    const char *description = settings->voice;
    size_t length = strlen(description);
    char *copy = malloc(length + 1);
    if (!copy) {
        snprintf(note, note_size, "out of memory");
        return NARRATE_WORKER_MODEL_FAILED;
    }
    memcpy(copy, description, length + 1);
    char *fields[16];
    if (split_fields(copy, fields, 16) != 14) {
        snprintf(note, note_size, "malformed Piper voice description");
        return NARRATE_WORKER_MODEL_FAILED;
    }
    const char *model_path = fields[1], *espeak_voice = fields[2];
    voice.sample_rate = atoi(fields[3]);
    voice.scales[0] = strtof(fields[4], NULL);
    voice.scales[1] = strtof(fields[5], NULL);
    voice.scales[2] = strtof(fields[6], NULL);
    voice.speaker = strtoll(fields[7], NULL, 10);
    voice.silence_samples = strtoull(fields[8], NULL, 10);
    float seed = strtof(fields[9], NULL);
    snprintf(voice.name, sizeof voice.name, "%s", fields[10]);
    if (phoneme_map_parse(&voice.map, fields[11], fields[12]) != 0 || voice.sample_rate <= 0) {
        snprintf(note, note_size, "malformed Piper voice description (phoneme map)");
        return NARRATE_WORKER_MODEL_FAILED;
    }
    // The voice's language in eSpeak NG, as the espeak-ng program finds it.
    if (set_espeak_voice(espeak_voice) != 0) {
        snprintf(note, note_size, "the voice %s speaks eSpeak NG's language '%s', which this eSpeak NG does not have", voice.name, espeak_voice);
        return NARRATE_WORKER_MODEL_FAILED;
    }
    if (onnx_runtime_start(&voice.ort, note, note_size) != 0) return NARRATE_WORKER_MODEL_FAILED;
    size_t model_length = 0;
    uint8_t *model = onnx_read_model(model_path, &model_length, note, note_size);
    if (!model) return NARRATE_WORKER_MODEL_FAILED;
    // The noise made stateless (onnx_noise.h): then the zygote's session speaks every text.
    voice.ort.custom_ops = onnx_noise_domain(voice.ort.api, note, note_size);
    if (!voice.ort.custom_ops) {
        munmap(model, model_length);
        return NARRATE_WORKER_MODEL_FAILED;
    }
    size_t seeded_length = 0;
    onnx_random_nodes nodes = {.stateless_wanted = 1};
    uint8_t *seeded_model = onnx_seed_random_nodes(model, model_length, seed, &seeded_length, &nodes);
    munmap(model, model_length);
    voice.stateless = nodes.stateful == 0;
    if (!seeded_model) {
        snprintf(note, note_size, "the model %s is not a valid ONNX file (truncated or corrupt); install the voice again", model_path);
        return NARRATE_WORKER_MODEL_FAILED;
    }
    // The model in ONNX Runtime's format: made from the seeded model once, then always used.
    char failure[512];
    int opened = onnx_open_session(&voice.ort, seeded_model, seeded_length, fields[13], failure, sizeof failure);
    free(seeded_model);
    if (opened != 0) {
        snprintf(note, note_size, "ONNX Runtime cannot load the model %s: %s", model_path, failure);
        return NARRATE_WORKER_MODEL_FAILED;
    }
    if (check_inputs(note, note_size) != 0) return NARRATE_WORKER_MODEL_FAILED;
    void *shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    voice.warned = shared == MAP_FAILED ? NULL : shared;
    return NARRATE_WORKER_DONE;
}

// One sentence's ids through the model; its samples appended to the child's audio.
static uint32_t run_sentence(const phoneme_sentence *sentence, int32_t *detail) {
    const ort_api *api = voice.ort.api;
    int64_t shape[2] = {1, (int64_t)sentence->id_count};
    int64_t lengths[1] = {(int64_t)sentence->id_count};
    int64_t one[1] = {1};
    int64_t three[1] = {3};
    int64_t speaker[1] = {voice.speaker};
    float scales[3] = {voice.scales[0], voice.scales[1], voice.scales[2]};
    const onnx_input inputs[4] = {
        {"input", sentence->ids, sentence->id_count * sizeof(int64_t), shape, 2, ORT_TENSOR_INT64},
        {"input_lengths", lengths, sizeof lengths, one, 1, ORT_TENSOR_INT64},
        {"scales", scales, sizeof scales, three, 1, ORT_TENSOR_FLOAT},
        {"sid", speaker, sizeof speaker, one, 1, ORT_TENSOR_INT64},
    };
    OrtValue *output = NULL;
    float *data = NULL;
    size_t samples = 0;
    char failure[512];
    if (onnx_run(&voice.ort, inputs, voice.speaker >= 0 ? 4 : 3, voice.output_name, &output, &data, &samples, failure, sizeof failure) != 0) {
        fprintf(stderr, "ONNX Runtime failed on a sentence of %zu phoneme ids: %s\n", sentence->id_count, failure);
        *detail = -1;
        return NARRATE_WORKER_SYNTH_FAILED;
    }
    // As piper's default (normalize_audio): each sentence peak-normalized, clipped, then
    // scaled to 16 bits with numpy's truncation, all in float32.
    float peak = 0;
    for (size_t index = 0; index < samples; index++) {
        float magnitude = data[index] < 0 ? -data[index] : data[index];
        if (magnitude > peak) peak = magnitude;
    }
    int16_t block[4096];
    uint32_t status = 0;
    for (size_t done = 0; done < samples && !status;) {
        size_t part = samples - done < 4096 ? samples - done : 4096;
        for (size_t index = 0; index < part; index++) {
            float value = peak < 1e-8f ? 0.0f : data[done + index] / peak;
            if (value > 1.0f) value = 1.0f;
            if (value < -1.0f) value = -1.0f;
            float scaled = value * 32767.0f;
            if (scaled > 32767.0f) scaled = 32767.0f;
            if (scaled < -32767.0f) scaled = -32767.0f;
            block[index] = (int16_t)scaled;
        }
        if (audio_append(block, part) != 0) status = NARRATE_WORKER_TOO_LONG;
        done += part;
    }
    api->ReleaseValue(output);
    return status;
}

static void phonemes(const narrate_worker_request *request, const char *text, char **lines, size_t *length) {
    read_markup_as_asked(request);
    phoneme_sentences sentences = {.keep_ipa = 1};
    if (phonemize(&voice.map, text, &sentences) != 0) _exit(3);
    size_t capacity = 4096, used = 0;
    char *out = malloc(capacity);
    for (size_t index = 0; out && index < sentences.count; index++) {
        const phoneme_sentence *sentence = &sentences.sentences[index];
        size_t needed = 64 + sentence->ipa_length + sentence->id_count * 21;
        if (used + needed > capacity) {
            while (used + needed > capacity) capacity *= 2;
            char *grown = realloc(out, capacity);
            if (!grown) _exit(3);
            out = grown;
        }
        used += (size_t)sprintf(out + used, "%d\x1f%d\x1f%s\x1f", sentence->text_offset, sentence->text_length, sentence->ipa ? sentence->ipa : "");
        for (size_t id = 0; id < sentence->id_count; id++) used += (size_t)sprintf(out + used, id ? " %lld" : "%lld", (long long)sentence->ids[id]);
        out[used++] = '\n';
    }
    phoneme_sentences_free(&sentences);
    if (!out) _exit(3);
    *lines = out;
    *length = used;
}

static uint32_t synthesize(const narrate_worker_request *request, const char *text, int32_t *detail) {
    audio_set_rate(voice.sample_rate);
    read_markup_as_asked(request);
    phoneme_sentences sentences = {0};
    if (phonemize(&voice.map, text, &sentences) != 0) {
        fprintf(stderr, "narrate-worker: out of memory while phonemizing\n");
        _exit(3);
    }
    if (sentences.unknown && voice.warned && !__atomic_exchange_n(voice.warned, 1, __ATOMIC_SEQ_CST)) {
        dprintf(warning_fd(), "narrate-worker: the voice %s has no phoneme id for U+%04X; such phonemes are skipped\n", voice.name, sentences.unknown);
    }
    uint32_t status = 0;
    for (size_t index = 0; index < sentences.count && !status; index++) {
        const phoneme_sentence *sentence = &sentences.sentences[index];
        audio_mark(sentence->text_offset, sentence->text_length);
        status = run_sentence(sentence, detail);
        if (!status && voice.silence_samples && audio_append_silence(voice.silence_samples) != 0) status = NARRATE_WORKER_TOO_LONG;
    }
    phoneme_sentences_free(&sentences);
    return status;
}

// Spoken in place when its noise is stateless; a model with other random nodes (whose
// generators advance run after run) keeps a child per text.
static int in_place(void) {
    return voice.stateless;
}

static void rest(void) {
    onnx_rest(&voice.ort);
}

const narrate_engine piper_engine = {
    .name = "Piper",
    .speaks = speaks,
    .load = load,
    .synthesize = synthesize,
    .phonemes = phonemes,
    .in_place = in_place,
    .rest = rest,
};
