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

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "audio.h"
#include "engine.h"
#include "espeak.h"
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

// librosa.effects.trim(audio, top_db=60, frame_length=2048, hop_length=512), as kokoro-onnx
// calls it: the frames' RMS (centred, zero-padded), and the span from the first frame to one
// past the last whose RMS is within 60 dB of the loudest.
static void trim_silence(const float *samples, size_t count, size_t *start, size_t *end) {
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

static int16_t to_pcm(float value) {
    if (value > 1.0f) value = 1.0f;
    if (value < -1.0f) value = -1.0f;
    return (int16_t)lrintf(value * 32767.0f);
}

// A sentence of a text: where it lies in it (Unicode scalars) and its phonemes' span in the
// text's.
typedef struct {
    int32_t offset, length;
    size_t symbol, symbols;
} kokoro_sentence;

typedef struct {
    kokoro_sentence *items;
    size_t count;
} kokoro_sentences;

// Marks the sentences that start in `batch` in its trimmed audio, which starts at sample `base`:
// the first at the audio's start; a later one where the sentence before it stops sounding (at
// its closing punctuation: the model puts a sentence's trailing silence on its last sound, and
// the next one's onset on the space before it). The model's per-token durations say where each
// token's audio lies, in proportion to the samples it gave (600 per unit); token 0 is the
// padding before the batch.
static void mark_sentences(const kokoro_symbols *batch, const kokoro_sentences *sentences, size_t samples, size_t start, size_t end, uint64_t base) {
    const float *durations = voice.ort.second_data;
    size_t tokens = voice.ort.second_elements;
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
                phoneme_ids_of(&voice.vocabulary, batch->points[symbol], &ids);
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
    trim_silence(data, samples, &start, &end);
    mark_sentences(batch, sentences, samples, start, end, audio_sample_count());
    if (voice.ort.second) voice.ort.api->ReleaseValue(voice.ort.second);
    voice.ort.second = NULL;
    voice.ort.second_data = NULL;
    int16_t block[4096];
    uint32_t status = 0;
    for (size_t done = start; done < end && !status;) {
        size_t part = end - done < 4096 ? end - done : 4096;
        for (size_t index = 0; index < part; index++) block[index] = to_pcm(data[done + index]);
        if (audio_append(block, part) != 0) status = NARRATE_WORKER_TOO_LONG;
        done += part;
    }
    api->ReleaseValue(output);
    if (!status && pause > 0 && audio_append_silence((uint64_t)(pause * KOKORO_SAMPLE_RATE)) != 0) status = NARRATE_WORKER_TOO_LONG;
    return status;
}

static int32_t scalars_of(const char *text) {
    int32_t count = 0;
    for (const unsigned char *at = (const unsigned char *)text; *at; at++) count += (*at & 0xC0) != 0x80;
    return count;
}

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
static kokoro_symbols phonemes_of(const char *text, size_t bytes, int markup) {
    char *piece = malloc(bytes + 1);
    if (!piece) out_of_memory();
    memcpy(piece, text, bytes);
    piece[bytes] = 0;
    kokoro_symbols phonemes = {0};
    if (kokoro_phonemize(piece, &voice.vocabulary, markup, &phonemes) != 0) out_of_memory();
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
static void sentences_of(const narrate_worker_request *request, const char *text, kokoro_symbols *all, kokoro_sentences *sentences) {
    read_markup_as_asked(request);
    int markup = ((request->flags & NARRATE_WORKER_FLAG_PHONEMES) ? KOKORO_PHONEME_SPANS : 0) | ((request->flags & NARRATE_WORKER_FLAG_SSML) ? KOKORO_MARKUP_TAGS : 0);
    size_t length = strlen(text);
    *all = phonemes_of(text, length, markup);
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
        kokoro_symbols before = phonemes_of(text, (size_t)(at - (const unsigned char *)text), markup);
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
static void batches_of(const narrate_worker_request *request, const char *text, kokoro_symbols **batches, size_t *count, kokoro_sentences *sentences) {
    kokoro_symbols all;
    sentences_of(request, text, &all, sentences);
    *batches = NULL;
    *count = 0;
    if (voice.ort.second_output || sentences->count < 2) {
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

static void free_batches(kokoro_symbols *batches, size_t count) {
    for (size_t index = 0; index < count; index++) free(batches[index].points);
    free(batches);
}

static uint32_t synthesize(const narrate_worker_request *request, const char *text, int32_t *detail) {
    audio_set_rate(KOKORO_SAMPLE_RATE);
    kokoro_symbols *batches = NULL;
    size_t count = 0;
    kokoro_sentences sentences;
    batches_of(request, text, &batches, &count, &sentences);
    // The pause a batch's last mark asks for follows every batch, the last one too: a chunk's
    // audio then joins the next chunk's as kokoro-onnx joins batches.
    uint32_t status = 0;
    for (size_t index = 0; index < count && !status; index++) {
        double pause = kokoro_pause_after(&batches[index], voice.sentence_pause, voice.clause_pause);
        status = run_batch(&batches[index], &sentences, pause, detail);
    }
    free_batches(batches, count);
    free(sentences.items);
    return status;
}

// A line per batch: text offset 0, the text's length, the batch's IPA, its token ids.
static void phonemes(const narrate_worker_request *request, const char *text, char **lines, size_t *length) {
    kokoro_symbols *batches = NULL;
    size_t count = 0;
    kokoro_sentences sentences;
    batches_of(request, text, &batches, &count, &sentences);
    free(sentences.items);
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
            const int64_t *id = phoneme_ids_of(&voice.vocabulary, batches[index].points[symbol], &ids);
            if (!ids) continue;
            used += (size_t)sprintf(out + used, first ? "%lld" : " %lld", (long long)id[0]);
            first = 0;
        }
        out[used++] = '\n';
    }
    free_batches(batches, count);
    *lines = out;
    *length = used;
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
