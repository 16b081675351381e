// A Piper voice in the worker. The description a client sends (fields separated by 0x1F):
//   piper, model path, eSpeak voice, sample rate, noise_scale, length_scale, noise_w,
//   speaker id (-1: none), silence after each sentence (samples), seed, name,
//   phoneme_id_map ("hex=id+id,…"), NFD decompositions ("hex=hex+hex,…"), and where the
//   model may be kept in ONNX Runtime's own format (a path prefix; empty: nowhere).
// The model in ONNX Runtime's format (written once, beside the audio cache) is mapped from its
// file and its weights used in place: every worker's zygote shares the same pages, so a worker
// beyond the first costs little memory.
// The zygote sets the eSpeak voice, loads ONNX Runtime and the model (seeding its random
// nodes in memory: same text, same samples) with one inference thread; each child
// phonemizes its text, runs the model sentence by sentence as piper does (each sentence's
// audio peak-normalized, then scaled to 16 bits), and adds a mark per sentence.

#include <espeak-ng/speak_lib.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "onnx_seed.h"
#include "ort.h"
#include "phonemes.h"
#include "piper.h"
#include "synthesis.h"

// The largest model file loaded (Piper's "high" voices are about 115 MB).
#define PIPER_MAX_MODEL_BYTES (1024LL << 20)

typedef struct {
    int loaded;
    char name[256];
    int sample_rate;
    float scales[3];  // noise_scale, length_scale, noise_w
    int64_t speaker;  // -1: the model takes no speaker
    uint64_t silence_samples;
    phoneme_map map;
    const ort_api *api;
    OrtEnv *env;
    OrtSession *session;
    OrtMemoryInfo *memory;
    char *output_name;
    int *warned;  // shared with the children: an unknown phoneme is reported once per voice
} piper_voice;

static piper_voice voice;

int is_piper_voice(const char *name) {
    return strncmp(name, NARRATE_WORKER_PIPER_PREFIX, strlen(NARRATE_WORKER_PIPER_PREFIX)) == 0;
}

int piper_loaded(void) {
    return voice.loaded;
}

// Splits the description in place; the number of fields.
static int split_fields(char *text, char **fields, int capacity) {
    int count = 0;
    char *at = text;
    while (count < capacity) {
        fields[count++] = at;
        char *separator = strchr(at, 0x1F);
        if (!separator) break;
        *separator = 0;
        at = separator + 1;
    }
    return count;
}

static uint8_t *read_model(const char *path, size_t *length, char *note, size_t note_size) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(note, note_size, "cannot open the model %s: %s", path, strerror(errno));
        return NULL;
    }
    struct stat status;
    if (fstat(fd, &status) != 0 || !S_ISREG(status.st_mode) || status.st_size <= 0 || status.st_size > PIPER_MAX_MODEL_BYTES) {
        snprintf(note, note_size, "the model %s is not a regular file of 1 byte to %lld MiB", path, PIPER_MAX_MODEL_BYTES >> 20);
        close(fd);
        return NULL;
    }
    uint8_t *bytes = mmap(NULL, (size_t)status.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (bytes == MAP_FAILED) {
        snprintf(note, note_size, "cannot read the model %s: %s", path, strerror(errno));
        return NULL;
    }
    *length = (size_t)status.st_size;
    return bytes;
}

// Checks that the model takes Piper's inputs; 0 when it does.
static int check_inputs(char *note, size_t note_size) {
    const ort_api *api = voice.api;
    OrtAllocator *allocator = NULL;
    size_t count = 0;
    char failure[256];
    if (ort_failure(api, api->GetAllocatorWithDefaultOptions(&allocator), failure, sizeof failure) ||
        ort_failure(api, api->SessionGetInputCount(voice.session, &count), failure, sizeof failure)) {
        snprintf(note, note_size, "ONNX Runtime: %s", failure);
        return -1;
    }
    int has_input = 0, has_lengths = 0, has_scales = 0, has_speaker = 0;
    for (size_t index = 0; index < count; index++) {
        char *name = NULL;
        if (ort_failure(api, api->SessionGetInputName(voice.session, index, allocator, &name), failure, sizeof failure)) {
            snprintf(note, note_size, "ONNX Runtime: %s", failure);
            return -1;
        }
        has_input |= strcmp(name, "input") == 0;
        has_lengths |= strcmp(name, "input_lengths") == 0;
        has_scales |= strcmp(name, "scales") == 0;
        has_speaker |= strcmp(name, "sid") == 0;
        api->AllocatorFree(allocator, name);
    }
    if (!has_input || !has_lengths || !has_scales) {
        snprintf(note, note_size, "the model %s does not take a Piper voice's inputs (input, input_lengths, scales)", voice.name);
        return -1;
    }
    if (voice.speaker >= 0 && !has_speaker) voice.speaker = -1;  // a single-speaker model
    if (voice.speaker < 0 && has_speaker) voice.speaker = 0;
    char *output = NULL;
    if (ort_failure(api, api->SessionGetOutputName(voice.session, 0, allocator, &output), failure, sizeof failure)) {
        snprintf(note, note_size, "ONNX Runtime: %s", failure);
        return -1;
    }
    voice.output_name = strdup(output);
    api->AllocatorFree(allocator, output);
    return voice.output_name ? 0 : -1;
}

// A session for `model` (ONNX or ONNX Runtime's format) with one inference thread; with
// `save_as`, the optimized model is also written there in ONNX Runtime's format; with
// `in_place`, the model's bytes are used as they are, weights included (they must outlive the
// session). 0 on success, else the reason in `failure`.
static int create_session_with(const void *model, size_t length, const char *save_as, int in_place, char *failure, size_t size) {
    const ort_api *api = voice.api;
    OrtSessionOptions *options = NULL;
    const char *problem = ort_failure(api, api->CreateSessionOptions(&options), failure, size);
    // One inference thread: a worker is one of --jobs, each on a core of its own.
    if (!problem) problem = ort_failure(api, api->SetIntraOpNumThreads(options, 1), failure, size);
    if (!problem) problem = ort_failure(api, api->SetInterOpNumThreads(options, 1), failure, size);
    if (!problem) problem = ort_failure(api, api->SetSessionExecutionMode(options, ORT_SEQUENTIAL), failure, size);
    if (!problem) problem = ort_failure(api, api->SetSessionGraphOptimizationLevel(options, ORT_ENABLE_ALL), failure, size);
    if (!problem && save_as) problem = ort_failure(api, api->SetOptimizedModelFilePath(options, save_as), failure, size);
    if (!problem && save_as) problem = ort_failure(api, api->AddSessionConfigEntry(options, "session.save_model_format", "ORT"), failure, size);
    if (!problem && in_place) problem = ort_failure(api, api->AddSessionConfigEntry(options, "session.use_ort_model_bytes_directly", "1"), failure, size);
    if (!problem && in_place) problem = ort_failure(api, api->AddSessionConfigEntry(options, "session.use_ort_model_bytes_for_initializers", "1"), failure, size);
    if (!problem) problem = ort_failure(api, api->CreateSessionFromArray(voice.env, model, length, options, &voice.session), failure, size);
    if (options) api->ReleaseSessionOptions(options);
    return problem ? -1 : 0;
}

static int create_session(const void *model, size_t length, const char *save_as, char *failure, size_t size) {
    return create_session_with(model, length, save_as, 0, failure, size);
}

// Loads the model in ONNX Runtime's format from `path`, mapped and used in place (the pages
// shared with every process that maps it); 1 on success.
static int load_shared(const char *path) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    struct stat status;
    if (fstat(fd, &status) != 0 || status.st_size <= 0 || status.st_size > PIPER_MAX_MODEL_BYTES) {
        close(fd);
        return 0;
    }
    void *bytes = mmap(NULL, (size_t)status.st_size, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (bytes == MAP_FAILED) return 0;
    char failure[512];
    if (create_session_with(bytes, (size_t)status.st_size, NULL, 1, failure, sizeof failure) != 0) {
        munmap(bytes, (size_t)status.st_size);
        voice.session = NULL;
        return 0;
    }
    return 1;  // the mapping lives as long as the zygote and its children
}

uint32_t piper_load(const char *description, char *note, size_t note_size) {
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
    if (espeak_SetVoiceByName(espeak_voice) != EE_OK) {
        espeak_VOICE properties;
        memset(&properties, 0, sizeof properties);
        properties.languages = espeak_voice;
        if (espeak_SetVoiceByProperties(&properties) != EE_OK) {
            snprintf(note, note_size, "the voice %s speaks eSpeak NG's language '%s', which this eSpeak NG does not have", voice.name, espeak_voice);
            return NARRATE_WORKER_MODEL_FAILED;
        }
    }
    voice.api = ort_load(note, note_size);
    if (!voice.api) return NARRATE_WORKER_MODEL_FAILED;
    const ort_api *api = voice.api;
    size_t model_length = 0;
    uint8_t *model = read_model(model_path, &model_length, note, note_size);
    if (!model) return NARRATE_WORKER_MODEL_FAILED;
    size_t seeded_length = 0;
    int seeded = 0;
    uint8_t *seeded_model = onnx_seed_random_nodes(model, model_length, seed, &seeded_length, &seeded);
    munmap(model, model_length);
    if (!seeded_model) {
        snprintf(note, note_size, "the model %s is not a valid ONNX file (truncated or corrupt); install the voice again", model_path);
        return NARRATE_WORKER_MODEL_FAILED;
    }
    char failure[512];
    const char *problem = ort_failure(api, api->CreateEnv(ORT_LOGGING_LEVEL_ERROR, "narrate", &voice.env), failure, sizeof failure);
    if (!problem) problem = ort_failure(api, api->CreateCpuMemoryInfo(ORT_ARENA_ALLOCATOR, ORT_MEM_TYPE_DEFAULT, &voice.memory), failure, sizeof failure);
    if (problem) {
        free(seeded_model);
        snprintf(note, note_size, "ONNX Runtime cannot start: %s", problem);
        return NARRATE_WORKER_MODEL_FAILED;
    }
    // The model in ONNX Runtime's format: made from the seeded model once, then always used.
    char ort_path[4200] = "";
    if (fields[13][0]) snprintf(ort_path, sizeof ort_path, "%s-ort%s.ort", fields[13], api->version);
    if (ort_path[0] && !load_shared(ort_path)) {
        // Converted in a process of its own, whose memory goes when it exits (a session made
        // here would leave the zygote's heap holding a copy of the weights).
        char temporary[4300];
        snprintf(temporary, sizeof temporary, "%s.%d.tmp", ort_path, (int)getpid());
        fflush(stderr);
        pid_t converter = fork();
        if (converter == 0) {
            _exit(create_session(seeded_model, seeded_length, temporary, failure, sizeof failure) == 0 ? 0 : 1);
        }
        int status = 0;
        if (converter > 0) {
            while (waitpid(converter, &status, 0) < 0 && errno == EINTR) {}
            // link, not rename: when two workers convert at once, the first file stays and both
            // map that one (a rename would give each its own inode, and nothing shared).
            if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && (link(temporary, ort_path) == 0 || errno == EEXIST) && !load_shared(ort_path)) {
                unlink(ort_path);
            }
        }
        unlink(temporary);
    }
    if (!voice.session) {
        problem = create_session(seeded_model, seeded_length, NULL, failure, sizeof failure) == 0 ? NULL : failure;
    }
    free(seeded_model);
    if (problem) {
        snprintf(note, note_size, "ONNX Runtime cannot load the model %s: %s", model_path, problem);
        return NARRATE_WORKER_MODEL_FAILED;
    }
    if (check_inputs(note, note_size) != 0) return NARRATE_WORKER_MODEL_FAILED;
    void *shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    voice.warned = shared == MAP_FAILED ? NULL : shared;
    voice.loaded = 1;
    return NARRATE_WORKER_DONE;
}

// One sentence's ids through the model; its samples appended to the child's audio.
static uint32_t run_sentence(const phoneme_sentence *sentence, int32_t *detail) {
    const ort_api *api = voice.api;
    int64_t shape[2] = {1, (int64_t)sentence->id_count};
    int64_t lengths[1] = {(int64_t)sentence->id_count};
    int64_t one[1] = {1};
    int64_t three[1] = {3};
    int64_t speaker[1] = {voice.speaker};
    float scales[3] = {voice.scales[0], voice.scales[1], voice.scales[2]};
    OrtValue *inputs[4] = {NULL, NULL, NULL, NULL};
    const char *names[4] = {"input", "input_lengths", "scales", "sid"};
    size_t count = voice.speaker >= 0 ? 4 : 3;
    char failure[512];
    const char *problem =
        ort_failure(api, api->CreateTensorWithDataAsOrtValue(voice.memory, sentence->ids, sentence->id_count * sizeof(int64_t), shape, 2, ORT_TENSOR_INT64, &inputs[0]), failure, sizeof failure);
    if (!problem) problem = ort_failure(api, api->CreateTensorWithDataAsOrtValue(voice.memory, lengths, sizeof lengths, one, 1, ORT_TENSOR_INT64, &inputs[1]), failure, sizeof failure);
    if (!problem) problem = ort_failure(api, api->CreateTensorWithDataAsOrtValue(voice.memory, scales, sizeof scales, three, 1, ORT_TENSOR_FLOAT, &inputs[2]), failure, sizeof failure);
    if (!problem && count == 4) problem = ort_failure(api, api->CreateTensorWithDataAsOrtValue(voice.memory, speaker, sizeof speaker, one, 1, ORT_TENSOR_INT64, &inputs[3]), failure, sizeof failure);
    OrtValue *output = NULL;
    const char *output_names[1] = {voice.output_name};
    if (!problem) problem = ort_failure(api, api->Run(voice.session, NULL, names, (const OrtValue *const *)inputs, count, output_names, 1, &output), failure, sizeof failure);
    float *data = NULL;
    size_t samples = 0;
    OrtTensorTypeAndShapeInfo *info = NULL;
    if (!problem) problem = ort_failure(api, api->GetTensorMutableData(output, (void **)&data), failure, sizeof failure);
    if (!problem) problem = ort_failure(api, api->GetTensorTypeAndShape(output, &info), failure, sizeof failure);
    // The audio's length is the element count: exported voices differ in rank ([1,1,T], [1,T]).
    if (!problem) problem = ort_failure(api, api->GetTensorShapeElementCount(info, &samples), failure, sizeof failure);
    if (info) api->ReleaseTensorTypeAndShapeInfo(info);
    for (size_t index = 0; index < count; index++) {
        if (inputs[index]) api->ReleaseValue(inputs[index]);
    }
    if (problem) {
        fprintf(stderr, "ONNX Runtime failed on a sentence of %zu phoneme ids: %s\n", sentence->id_count, problem);
        if (output) api->ReleaseValue(output);
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

void piper_phonemes(const narrate_worker_request *request, const char *text, char **lines, size_t *length) {
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
    if (!out) _exit(3);
    *lines = out;
    *length = used;
}

uint32_t piper_synthesize(const narrate_worker_request *request, const char *text, int32_t *detail) {
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
    for (size_t index = 0; index < sentences.count; index++) {
        const phoneme_sentence *sentence = &sentences.sentences[index];
        audio_mark(sentence->text_offset, sentence->text_length);
        uint32_t status = run_sentence(sentence, detail);
        if (status) return status;
        if (voice.silence_samples && audio_append_silence(voice.silence_samples) != 0) return NARRATE_WORKER_TOO_LONG;
    }
    return 0;
}
