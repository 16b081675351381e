// Sessions of ONNX Runtime for the neural engines: see onnx_session.h.
//
// Below piper.c and kokoro.c; below it: ort.c.

#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "onnx_session.h"

int onnx_runtime_start(onnx_runtime *runtime, char *note, size_t note_size) {
    runtime->api = ort_load(note, note_size);
    if (!runtime->api) return -1;
    const ort_api *api = runtime->api;
    char failure[512];
    const char *problem = ort_failure(api, api->CreateEnv(ORT_LOGGING_LEVEL_ERROR, "narrate", &runtime->env), failure, sizeof failure);
    if (!problem) problem = ort_failure(api, api->CreateCpuMemoryInfo(ORT_ARENA_ALLOCATOR, ORT_MEM_TYPE_DEFAULT, &runtime->memory), failure, sizeof failure);
    if (problem) {
        snprintf(note, note_size, "ONNX Runtime cannot start: %s", problem);
        return -1;
    }
    return 0;
}

uint8_t *onnx_read_model(const char *path, size_t *length, char *note, size_t note_size) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(note, note_size, "cannot open the model %s: %s", path, strerror(errno));
        return NULL;
    }
    struct stat status;
    if (fstat(fd, &status) != 0 || !S_ISREG(status.st_mode) || status.st_size <= 0 || status.st_size > ONNX_MAX_MODEL_BYTES) {
        snprintf(note, note_size, "the model %s is not a regular file of 1 byte to %lld MiB", path, ONNX_MAX_MODEL_BYTES >> 20);
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

// A session for `model` (ONNX or ONNX Runtime's format) with one inference thread; with
// `save_as`, the optimized model is also written there in ONNX Runtime's format; with
// `in_place`, the model's bytes are used as they are, weights included (they must outlive the
// session). 0 on success, else the reason in `failure`.
static int create_session(onnx_runtime *runtime, const void *model, size_t length, const char *save_as, int in_place, char *failure, size_t size) {
    const ort_api *api = runtime->api;
    OrtSessionOptions *options = NULL;
    const char *problem = ort_failure(api, api->CreateSessionOptions(&options), failure, size);
    // One inference thread: a worker is one of --jobs, each on a core of its own.
    if (!problem) problem = ort_failure(api, api->SetIntraOpNumThreads(options, 1), failure, size);
    if (!problem) problem = ort_failure(api, api->SetInterOpNumThreads(options, 1), failure, size);
    if (!problem) problem = ort_failure(api, api->SetSessionExecutionMode(options, ORT_SEQUENTIAL), failure, size);
    if (!problem) problem = ort_failure(api, api->SetSessionGraphOptimizationLevel(options, ORT_ENABLE_ALL), failure, size);
    if (!problem && runtime->custom_ops) problem = ort_failure(api, api->AddCustomOpDomain(options, runtime->custom_ops), failure, size);
    if (!problem && save_as) problem = ort_failure(api, api->SetOptimizedModelFilePath(options, save_as), failure, size);
    if (!problem && save_as) problem = ort_failure(api, api->AddSessionConfigEntry(options, "session.save_model_format", "ORT"), failure, size);
    if (!problem && in_place) problem = ort_failure(api, api->AddSessionConfigEntry(options, "session.use_ort_model_bytes_directly", "1"), failure, size);
    if (!problem && in_place) problem = ort_failure(api, api->AddSessionConfigEntry(options, "session.use_ort_model_bytes_for_initializers", "1"), failure, size);
    if (!problem) problem = ort_failure(api, api->CreateSessionFromArray(runtime->env, model, length, options, &runtime->session), failure, size);
    if (options) api->ReleaseSessionOptions(options);
    if (problem) runtime->session = NULL;
    return problem ? -1 : 0;
}

// Loads the model in ONNX Runtime's format from `path`, mapped and used in place (the pages
// shared with every process that maps it); 1 on success.
static int load_shared(onnx_runtime *runtime, const char *path) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    struct stat status;
    if (fstat(fd, &status) != 0 || status.st_size <= 0 || status.st_size > ONNX_MAX_MODEL_BYTES) {
        close(fd);
        return 0;
    }
    void *bytes = mmap(NULL, (size_t)status.st_size, PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (bytes == MAP_FAILED) return 0;
    char failure[512];
    if (create_session(runtime, bytes, (size_t)status.st_size, NULL, 1, failure, sizeof failure) != 0) {
        munmap(bytes, (size_t)status.st_size);
        return 0;
    }
    return 1;  // the mapping lives as long as the zygote and its children
}

int onnx_open_session(onnx_runtime *runtime, const uint8_t *model, size_t length, const char *ort_prefix, char *failure, size_t size) {
    char ort_path[4200] = "";
    if (ort_prefix && *ort_prefix) snprintf(ort_path, sizeof ort_path, "%s-ort%s.ort", ort_prefix, runtime->api->version);
    if (ort_path[0] && !load_shared(runtime, ort_path)) {
        // Converted in a process of its own, whose memory goes when it exits (a session made
        // here would leave the zygote's heap holding a copy of the weights).
        char temporary[4300];
        snprintf(temporary, sizeof temporary, "%s.%d.tmp", ort_path, (int)getpid());
        fflush(stderr);
        pid_t converter = fork();
        if (converter == 0) {
            _exit(create_session(runtime, model, length, temporary, 0, failure, size) == 0 ? 0 : 1);
        }
        int status = 0;
        if (converter > 0) {
            while (waitpid(converter, &status, 0) < 0 && errno == EINTR) {}
            // link, not rename: when two workers convert at once, the first file stays and both
            // map that one (a rename would give each its own inode, and nothing shared).
            if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && (link(temporary, ort_path) == 0 || errno == EEXIST) && !load_shared(runtime, ort_path)) {
                unlink(ort_path);
            }
        }
        unlink(temporary);
    }
    if (runtime->session) return 0;
    return create_session(runtime, model, length, NULL, 0, failure, size);
}

int onnx_input_names(const onnx_runtime *runtime, char ***names, size_t *count, char *failure, size_t size) {
    const ort_api *api = runtime->api;
    OrtAllocator *allocator = NULL;
    *names = NULL;
    *count = 0;
    size_t total = 0;
    if (ort_failure(api, api->GetAllocatorWithDefaultOptions(&allocator), failure, size) ||
        ort_failure(api, api->SessionGetInputCount(runtime->session, &total), failure, size)) return -1;
    char **list = calloc(total ? total : 1, sizeof *list);
    if (!list) return -1;
    for (size_t index = 0; index < total; index++) {
        char *name = NULL;
        if (ort_failure(api, api->SessionGetInputName(runtime->session, index, allocator, &name), failure, size)) return -1;
        list[index] = strdup(name);
        api->AllocatorFree(allocator, name);
        if (!list[index]) return -1;
    }
    *names = list;
    *count = total;
    return 0;
}

char *onnx_first_output(const onnx_runtime *runtime, char *failure, size_t size) {
    const ort_api *api = runtime->api;
    OrtAllocator *allocator = NULL;
    char *output = NULL;
    if (ort_failure(api, api->GetAllocatorWithDefaultOptions(&allocator), failure, size) ||
        ort_failure(api, api->SessionGetOutputName(runtime->session, 0, allocator, &output), failure, size)) return NULL;
    char *copy = strdup(output);
    api->AllocatorFree(allocator, output);
    return copy;
}

// A run's inputs, copied (data and shapes) to be replayed.
struct onnx_replay {
    onnx_input inputs[8];
    int64_t shapes[8][8];
    size_t count;
    size_t bytes;
    char *output_name;
};

static void replay_free(struct onnx_replay *replay) {
    if (!replay) return;
    for (size_t index = 0; index < replay->count; index++) free(replay->inputs[index].data);
    free(replay->output_name);
    free(replay);
}

// Keeps a copy of these inputs when they are the shortest run's so far.
static void remember_if_shortest(onnx_runtime *runtime, const onnx_input *inputs, size_t count, const char *output_name) {
    size_t bytes = 0;
    for (size_t index = 0; index < count; index++) bytes += inputs[index].bytes;
    if (count > 8 || (runtime->shortest && runtime->shortest->bytes <= bytes)) return;
    for (size_t index = 0; index < count; index++) {
        if (inputs[index].rank > 8) return;
    }
    struct onnx_replay *replay = calloc(1, sizeof *replay);
    if (!replay) return;
    replay->count = count;
    replay->bytes = bytes;
    replay->output_name = strdup(output_name);
    int complete = replay->output_name != NULL;
    for (size_t index = 0; index < count; index++) {
        replay->inputs[index] = inputs[index];
        memcpy(replay->shapes[index], inputs[index].shape, inputs[index].rank * sizeof(int64_t));
        replay->inputs[index].shape = replay->shapes[index];
        replay->inputs[index].data = malloc(inputs[index].bytes ? inputs[index].bytes : 1);
        if (!replay->inputs[index].data) complete = 0;
        else memcpy(replay->inputs[index].data, inputs[index].data, inputs[index].bytes);
    }
    if (!complete) {
        replay_free(replay);
        return;
    }
    replay_free(runtime->shortest);
    runtime->shortest = replay;
}

// An output's floats and their count; NULL, or the problem (in `failure`).
static const char *floats_of(const ort_api *api, OrtValue *value, float **data, size_t *elements, char *failure, size_t size) {
    OrtTensorTypeAndShapeInfo *info = NULL;
    const char *problem = ort_failure(api, api->GetTensorMutableData(value, (void **)data), failure, size);
    if (!problem) problem = ort_failure(api, api->GetTensorTypeAndShape(value, &info), failure, size);
    if (!problem) problem = ort_failure(api, api->GetTensorShapeElementCount(info, elements), failure, size);
    if (info) api->ReleaseTensorTypeAndShapeInfo(info);
    return problem;
}

// The run without the bookkeeping: with `options` (NULL: the defaults).
static int run_with(onnx_runtime *runtime, const OrtRunOptions *options, const onnx_input *inputs, size_t count, const char *output_name, OrtValue **output,
                    float **data, size_t *elements, char *failure, size_t size);

int onnx_run(onnx_runtime *runtime, const onnx_input *inputs, size_t count, const char *output_name, OrtValue **output, float **data,
             size_t *elements, char *failure, size_t size) {
    remember_if_shortest(runtime, inputs, count, output_name);
    runtime->used = 1;
    return run_with(runtime, NULL, inputs, count, output_name, output, data, elements, failure, size);
}

void onnx_rest(onnx_runtime *runtime) {
    if (!runtime->used) return;
    runtime->used = 0;
    const ort_api *api = runtime->api;
    struct onnx_replay *replay = runtime->shortest;
    OrtRunOptions *options = NULL;
    char failure[256];
    if (replay && !ort_failure(api, api->CreateRunOptions(&options), failure, sizeof failure) &&
        !ort_failure(api, api->AddRunConfigEntry(options, "memory.enable_memory_arena_shrinkage", "cpu:0"), failure, sizeof failure)) {
        OrtValue *output = NULL;
        float *data = NULL;
        size_t elements = 0;
        if (run_with(runtime, options, replay->inputs, replay->count, replay->output_name, &output, &data, &elements, failure, sizeof failure) == 0) {
            api->ReleaseValue(output);
            if (runtime->second) api->ReleaseValue(runtime->second);
            runtime->second = NULL;
        }
    }
    if (options) api->ReleaseRunOptions(options);
    malloc_trim(0);
}

static int run_with(onnx_runtime *runtime, const OrtRunOptions *options, const onnx_input *inputs, size_t count, const char *output_name, OrtValue **output,
                    float **data, size_t *elements, char *failure, size_t size) {
    const ort_api *api = runtime->api;
    OrtValue *values[8] = {NULL};
    const char *names[8];
    const char *problem = count > 8 ? "too many inputs" : NULL;
    for (size_t index = 0; !problem && index < count; index++) {
        names[index] = inputs[index].name;
        problem = ort_failure(api, api->CreateTensorWithDataAsOrtValue(runtime->memory, inputs[index].data, inputs[index].bytes, inputs[index].shape, inputs[index].rank,
                                                                       inputs[index].type, &values[index]), failure, size);
    }
    *output = NULL;
    runtime->second = NULL;
    const char *output_names[2] = {output_name, runtime->second_output};
    OrtValue *outputs[2] = {NULL, NULL};
    size_t wanted = runtime->second_output ? 2 : 1;
    if (!problem) problem = ort_failure(api, api->Run(runtime->session, options, names, (const OrtValue *const *)values, count, output_names, wanted, outputs), failure, size);
    *output = outputs[0];
    runtime->second = outputs[1];
    if (!problem) problem = floats_of(api, *output, data, elements, failure, size);
    if (!problem && runtime->second) problem = floats_of(api, runtime->second, &runtime->second_data, &runtime->second_elements, failure, size);
    for (size_t index = 0; index < count && index < 8; index++) {
        if (values[index]) api->ReleaseValue(values[index]);
    }
    if (problem) {
        if (problem != failure) snprintf(failure, size, "%s", problem);
        if (*output) api->ReleaseValue(*output);
        if (runtime->second) api->ReleaseValue(runtime->second);
        *output = NULL;
        runtime->second = NULL;
        return -1;
    }
    return 0;
}
