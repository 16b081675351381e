// A Kokoro voice in the worker: Kokoro-82M (StyleTTS 2 / iSTFTNet) run by ONNX Runtime over
// token ids from eSpeak NG's IPA, as kokoro-onnx 0.6.1 runs it. The description a client sends
// (fields separated by 0x1F):
//   kokoro, model path, eSpeak NG language, name, vocabulary ("hex=id,…"),
//   style packs (weight 0x1D path, separated by 0x1E; weights sum to 1), speed,
//   pause after a sentence and after a clause (seconds), and where the model may be kept in
//   ONNX Runtime's own format (a path prefix; empty: nowhere).
// A style pack is raw little-endian float32, rows of 256 (kokoro-onnx's packs have 510): a
// batch of n tokens takes row min(n, rows) - 1 of the weighted sum of the packs. The graph has
// no random nodes: the same tokens, style and speed give the same samples.
// The zygote sets the eSpeak language, loads the model (its per-token durations made a graph
// output) and the packs; each text is phonemized whole and cut into batches of at most 510
// tokens as kokoro-onnx does (several sentences to a batch), its sentences found in the
// phonemes and marked where the durations say, each batch run ([0, tokens…, 0]), trimmed
// of its silence as kokoro-onnx does (librosa's trim: 60 dB below the loudest 2048-sample frame,
// hop 512), followed by the pause its last mark asks for (after the last batch too, where kokoro-onnx
// adds none: a chunk's audio then joins the next chunk's as batches join), and scaled to
// 16 bits (clipped to ±1, times 32767, rounded to nearest).
//
// This file is the engine (engine.h): the voice's description, its styles and its session,
// and each batch run through the session. Below it, a job each: kokoro_batches.c (the text's
// phonemes, sentences and batches), kokoro_output.c (the samples trimmed, timed and scaled; the
// phonemes lines), the text side (kokoro_text.h), and ONNX Runtime (onnx_session.c, onnx_seed.c).

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "audio.h"
#include "engine.h"
#include "espeak.h"
#include "kokoro_batches.h"
#include "kokoro_output.h"
#include "kokoro_text.h"
#include "onnx_seed.h"
#include "onnx_session.h"
#include "phonemes.h"

#define KOKORO_STYLE_WIDTH 256
#define KOKORO_MAX_STYLE_ROWS 1024
#define KOKORO_MAX_PACKS 16
#define KOKORO_SAMPLE_RATE 24000

typedef struct {
    char name[256];
    phoneme_map vocabulary;
    float *style;  // rows × KOKORO_STYLE_WIDTH
    size_t rows;
    float speed;
    double sentence_pause, clause_pause;
    onnx_runtime ort;
    const char *tokens_input;  // "tokens" or "input_ids"
    char *output_name;
} kokoro_voice;

static kokoro_voice voice;

static int speaks(const char *name) {
    return strncmp(name, NARRATE_WORKER_KOKORO_PREFIX, strlen(NARRATE_WORKER_KOKORO_PREFIX)) == 0;
}

// Reads one pack into `rows` × 256 floats (malloc'd); 0, or -1 with `note` saying why.
static int read_pack(const char *path, float **out, size_t *rows, char *note, size_t note_size) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(note, note_size, "cannot open the style pack %s: %s", path, strerror(errno));
        return -1;
    }
    struct stat status;
    size_t row_bytes = KOKORO_STYLE_WIDTH * sizeof(float);
    if (fstat(fd, &status) != 0 || !S_ISREG(status.st_mode) || status.st_size <= 0 || (size_t)status.st_size % row_bytes != 0 ||
        (size_t)status.st_size / row_bytes > KOKORO_MAX_STYLE_ROWS) {
        snprintf(note, note_size, "the style pack %s is not rows of 256 float32 values (1 to %d rows); install the voice again", path, KOKORO_MAX_STYLE_ROWS);
        close(fd);
        return -1;
    }
    size_t length = (size_t)status.st_size;
    float *values = malloc(length);
    size_t done = 0;
    while (values && done < length) {
        ssize_t count = read(fd, (char *)values + done, length - done);
        if (count < 0 && errno == EINTR) continue;
        if (count <= 0) break;
        done += (size_t)count;
    }
    close(fd);
    if (!values || done != length) {
        free(values);
        snprintf(note, note_size, "cannot read the style pack %s", path);
        return -1;
    }
    *out = values;
    *rows = length / row_bytes;
    return 0;
}

// The weighted sum of the packs (weight 0x1D path, separated by 0x1E) into voice.style.
static int load_styles(char *packs, char *note, size_t note_size) {
    int count = 0;
    for (char *pack = packs; pack && *pack; count++) {
        char *next = strchr(pack, 0x1E);
        if (next) *next++ = 0;
        char *path = strchr(pack, 0x1D);
        if (!path || count >= KOKORO_MAX_PACKS) {
            snprintf(note, note_size, "malformed Kokoro voice description (style packs)");
            return -1;
        }
        *path++ = 0;
        float weight = strtof(pack, NULL);
        float *values = NULL;
        size_t rows = 0;
        if (read_pack(path, &values, &rows, note, note_size) != 0) return -1;
        if (!voice.style) {
            voice.style = calloc(rows * KOKORO_STYLE_WIDTH, sizeof(float));
            voice.rows = rows;
            if (!voice.style) {
                free(values);
                snprintf(note, note_size, "out of memory");
                return -1;
            }
        } else if (rows != voice.rows) {
            free(values);
            snprintf(note, note_size, "the style packs of the blend %s differ in size (%zu and %zu rows): they are for different models", voice.name, voice.rows, rows);
            return -1;
        }
        for (size_t index = 0; index < rows * KOKORO_STYLE_WIDTH; index++) voice.style[index] += weight * values[index];
        free(values);
        pack = next;
    }
    if (!voice.style) {
        snprintf(note, note_size, "malformed Kokoro voice description (no style pack)");
        return -1;
    }
    return 0;
}

// Checks that the model takes Kokoro's inputs; 0 when it does.
static int check_inputs(const char *model_path, char *note, size_t note_size) {
    char failure[256];
    char **names = NULL;
    size_t count = 0;
    if (onnx_input_names(&voice.ort, &names, &count, failure, sizeof failure) != 0) {
        snprintf(note, note_size, "ONNX Runtime: %s", failure);
        return -1;
    }
    int has_style = 0, has_speed = 0;
    char taken[256] = "";
    for (size_t index = 0; index < count; index++) {
        if (strcmp(names[index], "tokens") == 0) voice.tokens_input = "tokens";
        if (strcmp(names[index], "input_ids") == 0) voice.tokens_input = "input_ids";
        has_style |= strcmp(names[index], "style") == 0;
        has_speed |= strcmp(names[index], "speed") == 0;
        size_t used = strlen(taken);
        snprintf(taken + used, sizeof taken - used, "%s%s", used ? ", " : "", names[index]);
        free(names[index]);
    }
    free(names);
    if (!voice.tokens_input || !has_style || !has_speed) {
        snprintf(note, note_size, "the model %s is not a Kokoro model: it takes %s, where Kokoro takes tokens (or input_ids), style and speed", model_path,
                 taken[0] ? taken : "no input");
        return -1;
    }
    voice.output_name = onnx_first_output(&voice.ort, failure, sizeof failure);
    if (!voice.output_name) snprintf(note, note_size, "ONNX Runtime: %s", failure);
    return voice.output_name ? 0 : -1;
}

static uint32_t load(const voice_settings *settings, int32_t *detail, char *note, size_t note_size) {
    (void)detail;
    char *copy = strdup(settings->voice);
    char *fields[12];
    if (!copy || split_fields(copy, fields, 12) != 10) {
        snprintf(note, note_size, "malformed Kokoro voice description");
        return NARRATE_WORKER_MODEL_FAILED;
    }
    const char *model_path = fields[1], *language = fields[2];
    snprintf(voice.name, sizeof voice.name, "%s", fields[3]);
    voice.speed = strtof(fields[6], NULL);
    voice.sentence_pause = strtod(fields[7], NULL);
    voice.clause_pause = strtod(fields[8], NULL);
    if (phoneme_map_parse(&voice.vocabulary, fields[4], "") != 0 || voice.vocabulary.count == 0) {
        snprintf(note, note_size, "malformed Kokoro voice description (vocabulary)");
        return NARRATE_WORKER_MODEL_FAILED;
    }
    if (!(voice.speed >= 0.5f && voice.speed <= 2.0f)) {
        snprintf(note, note_size, "a Kokoro voice's speed runs from 0.5 to 2.0, not %s", fields[6]);
        return NARRATE_WORKER_BAD_PARAMETER;
    }
    if (set_espeak_voice(language) != 0) {
        snprintf(note, note_size, "the voice %s speaks eSpeak NG's language '%s', which this eSpeak NG does not have", voice.name, language);
        return NARRATE_WORKER_MODEL_FAILED;
    }
    if (load_styles(fields[5], note, note_size) != 0) return NARRATE_WORKER_MODEL_FAILED;
    if (onnx_runtime_start(&voice.ort, note, note_size) != 0) return NARRATE_WORKER_MODEL_FAILED;
    size_t model_length = 0;
    uint8_t *model = onnx_read_model(model_path, &model_length, note, note_size);
    if (!model) return NARRATE_WORKER_MODEL_FAILED;
    // The per-token durations made an output of the graph (its samples unchanged): they time
    // each sentence inside a batch of several. A graph without them is run a sentence at a time.
    size_t timed_length = 0;
    onnx_random_nodes nodes = {.durations_wanted = 1};
    uint8_t *timed = onnx_seed_random_nodes(model, model_length, 0.0f, &timed_length, &nodes);
    munmap(model, model_length);
    if (!timed) {
        snprintf(note, note_size, "the model %s cannot be loaded (truncated, corrupt or not ONNX; install the voice again)", model_path);
        return NARRATE_WORKER_MODEL_FAILED;
    }
    char ort_prefix[4200] = "";
    if (fields[9][0]) snprintf(ort_prefix, sizeof ort_prefix, "%s-timed", fields[9]);
    char failure[512];
    int opened = onnx_open_session(&voice.ort, timed, timed_length, ort_prefix, failure, sizeof failure);
    free(timed);
    if (nodes.durations[0] && !(voice.ort.second_output = strdup(nodes.durations))) {
        snprintf(note, note_size, "out of memory");
        return NARRATE_WORKER_MODEL_FAILED;
    }
    if (opened != 0) {
        snprintf(note, note_size, "the model %s cannot be loaded (truncated, corrupt or not ONNX; install the voice again): %s", model_path, failure);
        return NARRATE_WORKER_MODEL_FAILED;
    }
    if (check_inputs(model_path, note, note_size) != 0) return NARRATE_WORKER_MODEL_FAILED;
    free(copy);
    return NARRATE_WORKER_DONE;
}

// One batch through the model; its trimmed samples and the pause after it appended, and a mark
// for each sentence that starts in it.
static uint32_t run_batch(const kokoro_symbols *batch, const kokoro_sentences *sentences, double pause, int32_t *detail) {
    const ort_api *api = voice.ort.api;
    size_t token_count = 0;
    int64_t *tokens = malloc((batch->count + 2) * sizeof *tokens);
    if (!tokens) _exit(3);
    tokens[token_count++] = 0;
    for (size_t index = 0; index < batch->count; index++) {
        size_t ids = 0;
        const int64_t *id = phoneme_ids_of(&voice.vocabulary, batch->points[index], &ids);
        if (ids) tokens[token_count++] = id[0];
    }
    size_t known = token_count - 1;
    tokens[token_count++] = 0;
    if (known == 0) {
        free(tokens);
        return 0;  // nothing the model can say (kokoro-onnx refuses such a batch; it has no sound)
    }
    size_t row = (known < voice.rows ? known : voice.rows) - 1;
    float speed[1] = {voice.speed};
    int64_t token_shape[2] = {1, (int64_t)token_count};
    int64_t style_shape[2] = {1, KOKORO_STYLE_WIDTH};
    int64_t one[1] = {1};
    const onnx_input inputs[3] = {
        {voice.tokens_input, tokens, token_count * sizeof *tokens, token_shape, 2, ORT_TENSOR_INT64},
        {"style", voice.style + row * KOKORO_STYLE_WIDTH, KOKORO_STYLE_WIDTH * sizeof(float), style_shape, 2, ORT_TENSOR_FLOAT},
        {"speed", speed, sizeof speed, one, 1, ORT_TENSOR_FLOAT},
    };
    OrtValue *output = NULL;
    float *data = NULL;
    size_t samples = 0;
    char failure[512];
    int failed = onnx_run(&voice.ort, inputs, 3, voice.output_name, &output, &data, &samples, failure, sizeof failure);
    free(tokens);
    if (failed) {
        fprintf(stderr, "ONNX Runtime failed on a batch of %zu tokens: %s\n", known, failure);
        *detail = -1;
        return NARRATE_WORKER_SYNTH_FAILED;
    }
    size_t start = 0, end = 0;
    kokoro_trim_silence(data, samples, &start, &end);
    kokoro_mark_sentences(batch, sentences, &voice.vocabulary, voice.ort.second_data, voice.ort.second_elements, samples, start, end,
                          audio_sample_count());
    if (voice.ort.second) voice.ort.api->ReleaseValue(voice.ort.second);
    voice.ort.second = NULL;
    voice.ort.second_data = NULL;
    uint32_t status = kokoro_append_pcm(data, start, end);
    api->ReleaseValue(output);
    if (!status && pause > 0 && audio_append_silence((uint64_t)(pause * KOKORO_SAMPLE_RATE)) != 0) status = NARRATE_WORKER_TOO_LONG;
    return status;
}

static uint32_t synthesize(const narrate_worker_request *request, const char *text, int32_t *detail) {
    audio_set_rate(KOKORO_SAMPLE_RATE);
    kokoro_symbols *batches = NULL;
    size_t count = 0;
    kokoro_sentences sentences;
    kokoro_batches_of(request, text, &voice.vocabulary, voice.ort.second_output != NULL, &batches, &count, &sentences);
    // The pause a batch's last mark asks for follows every batch, the last one too: a chunk's
    // audio then joins the next chunk's as kokoro-onnx joins batches.
    uint32_t status = 0;
    for (size_t index = 0; index < count && !status; index++) {
        double pause = kokoro_pause_after(&batches[index], voice.sentence_pause, voice.clause_pause);
        status = run_batch(&batches[index], &sentences, pause, detail);
    }
    kokoro_free_batches(batches, count);
    free(sentences.items);
    return status;
}

// A line per batch: text offset 0, the text's length, the batch's IPA, its token ids.
static void phonemes(const narrate_worker_request *request, const char *text, char **lines, size_t *length) {
    kokoro_symbols *batches = NULL;
    size_t count = 0;
    kokoro_sentences sentences;
    kokoro_batches_of(request, text, &voice.vocabulary, voice.ort.second_output != NULL, &batches, &count, &sentences);
    free(sentences.items);
    kokoro_phoneme_lines(text, batches, count, &voice.vocabulary, lines, length);
    kokoro_free_batches(batches, count);
}

// No random nodes, and nothing kept from one text to the next: the same text gives the same
// samples after any other, so the zygote's warm session speaks every text.
static int always(void) {
    return 1;
}

static void rest(void) {
    onnx_rest(&voice.ort);
}

const narrate_engine kokoro_engine = {
    .name = "Kokoro",
    .speaks = speaks,
    .load = load,
    .synthesize = synthesize,
    .phonemes = phonemes,
    .in_place = always,
    .rest = rest,
};
