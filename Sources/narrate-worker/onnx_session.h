// An ONNX model in a session of ONNX Runtime, as the neural engines (piper.c, kokoro.c) load
// theirs: the model read from its file, converted once to ONNX Runtime's own format beside the
// audio cache, and that file mapped and used in place, so that every worker's zygote shares
// the same pages and a worker beyond the first costs little memory. One inference thread.

#ifndef NARRATE_WORKER_ONNX_SESSION_H
#define NARRATE_WORKER_ONNX_SESSION_H

#include <stddef.h>
#include <stdint.h>

#include "ort.h"

// The largest model file loaded (Kokoro's fp32 export is about 330 MB).
#define ONNX_MAX_MODEL_BYTES (1024LL << 20)

typedef struct {
    const ort_api *api;
    OrtEnv *env;
    OrtSession *session;
    OrtMemoryInfo *memory;
    // Custom operators the model may use (onnx_noise.h), or NULL.
    OrtCustomOpDomain *custom_ops;
    // The shortest run so far, its inputs copied (onnx_rest replays it); NULL before the first.
    struct onnx_replay *shortest;
    // Whether a run took memory since the last onnx_rest.
    int used;
    // A second output every run also asks for (Kokoro's per-token durations), or NULL; after
    // onnx_run, its value (to release with api->ReleaseValue) and floats.
    const char *second_output;
    OrtValue *second;
    float *second_data;
    size_t second_elements;
} onnx_runtime;

// Loads ONNX Runtime and makes its environment; 0, or -1 with `note` saying why.
int onnx_runtime_start(onnx_runtime *runtime, char *note, size_t note_size);

// The model file mapped (private, read-only); NULL with `note` saying why.
uint8_t *onnx_read_model(const char *path, size_t *length, char *note, size_t note_size);

// A session for `model` (`length` bytes). With `ort_prefix` (non-empty), the model in ONNX
// Runtime's format is kept at "<prefix>-ort<version>.ort": made from `model` once (in a
// process of its own), then mapped from there by every process. 0, or -1 with the reason in
// `failure`.
int onnx_open_session(onnx_runtime *runtime, const uint8_t *model, size_t length, const char *ort_prefix, char *failure, size_t size);

// One input of a run: its name and its tensor (data used in place, not copied).
typedef struct {
    const char *name;
    void *data;
    size_t bytes;
    const int64_t *shape;
    size_t rank;
    int type;  // ORT_TENSOR_FLOAT, ORT_TENSOR_INT64
} onnx_input;

// Runs the session on the inputs; the first output's floats and their count (the element count:
// exports differ in rank). 0, with `*output` to release (api->ReleaseValue) once the floats are
// used; or -1 with the reason in `failure`.
int onnx_run(onnx_runtime *runtime, const onnx_input *inputs, size_t count, const char *output_name, OrtValue **output, float **data,
             size_t *elements, char *failure, size_t size);

// Gives back the memory the runs since the last call took: ONNX Runtime's arena keeps the
// largest run's tensors for good (hundreds of MiB after a long Kokoro batch), and lets go of
// them only at the end of a run asked to shrink it, so the shortest run so far is replayed so
// (its output dropped: a session whose runs change nothing gives every later run the same
// samples), then malloc gives its free memory to the system. For a zygote that speaks in
// place, when it is idle; a few milliseconds.
void onnx_rest(onnx_runtime *runtime);

// The session's input names (malloc'd, each and the array); 0 on success.
int onnx_input_names(const onnx_runtime *runtime, char ***names, size_t *count, char *failure, size_t size);
// The session's first output's name (malloc'd); NULL with `failure` filled.
char *onnx_first_output(const onnx_runtime *runtime, char *failure, size_t size);

#endif
