// ONNX Runtime's C API: the part of it this worker calls, declared here (the library is loaded
// with dlopen at run time, so Narrate builds and runs without it). The functions are reached
// through the OrtApi table, whose order ONNX Runtime only ever appends to: the indices below
// hold for every release from ORT_REQUESTED_API_VERSION on.

#ifndef NARRATE_WORKER_ORT_H
#define NARRATE_WORKER_ORT_H

#include <stddef.h>
#include <stdint.h>

// ONNX Runtime 1.16, the oldest release whose API this worker asks for.
#define ORT_REQUESTED_API_VERSION 16

typedef struct OrtStatus OrtStatus;
typedef struct OrtEnv OrtEnv;
typedef struct OrtSession OrtSession;
typedef struct OrtSessionOptions OrtSessionOptions;
typedef struct OrtMemoryInfo OrtMemoryInfo;
typedef struct OrtValue OrtValue;
typedef struct OrtRunOptions OrtRunOptions;
typedef struct OrtAllocator OrtAllocator;
typedef struct OrtTensorTypeAndShapeInfo OrtTensorTypeAndShapeInfo;
typedef struct OrtCustomOpDomain OrtCustomOpDomain;
typedef struct OrtCustomOp OrtCustomOp;
typedef struct OrtKernelInfo OrtKernelInfo;
typedef struct OrtKernelContext OrtKernelContext;

enum {
    ORT_LOGGING_LEVEL_ERROR = 3,
    ORT_ENABLE_ALL = 99,
    ORT_SEQUENTIAL = 0,
    ORT_ARENA_ALLOCATOR = 1,
    ORT_MEM_TYPE_DEFAULT = 0,
    ORT_TENSOR_FLOAT = 1,
    ORT_TENSOR_INT64 = 7,
};

typedef struct {
    const void *(*GetApi)(uint32_t version);
    const char *(*GetVersionString)(void);
} OrtApiBase;

// The functions used, with their places in the OrtApi table.
typedef struct {
    OrtStatus *(*CreateEnv)(int level, const char *id, OrtEnv **out);
    const char *(*GetErrorMessage)(const OrtStatus *status);
    void (*ReleaseStatus)(OrtStatus *status);
    OrtStatus *(*CreateSessionOptions)(OrtSessionOptions **out);
    OrtStatus *(*SetIntraOpNumThreads)(OrtSessionOptions *options, int threads);
    OrtStatus *(*SetInterOpNumThreads)(OrtSessionOptions *options, int threads);
    OrtStatus *(*SetSessionGraphOptimizationLevel)(OrtSessionOptions *options, int level);
    OrtStatus *(*SetSessionExecutionMode)(OrtSessionOptions *options, int mode);
    OrtStatus *(*SetOptimizedModelFilePath)(OrtSessionOptions *options, const char *path);
    OrtStatus *(*AddSessionConfigEntry)(OrtSessionOptions *options, const char *key, const char *value);
    OrtStatus *(*CreateSessionFromArray)(const OrtEnv *env, const void *model, size_t length, const OrtSessionOptions *options, OrtSession **out);
    OrtStatus *(*SessionGetInputCount)(const OrtSession *session, size_t *out);
    OrtStatus *(*SessionGetInputName)(const OrtSession *session, size_t index, OrtAllocator *allocator, char **out);
    OrtStatus *(*SessionGetOutputName)(const OrtSession *session, size_t index, OrtAllocator *allocator, char **out);
    OrtStatus *(*GetAllocatorWithDefaultOptions)(OrtAllocator **out);
    OrtStatus *(*AllocatorFree)(OrtAllocator *allocator, void *pointer);
    OrtStatus *(*CreateCpuMemoryInfo)(int allocator_type, int memory_type, OrtMemoryInfo **out);
    OrtStatus *(*CreateTensorWithDataAsOrtValue)(const OrtMemoryInfo *info, void *data, size_t length, const int64_t *shape, size_t rank, int type, OrtValue **out);
    OrtStatus *(*Run)(OrtSession *session, const OrtRunOptions *options, const char *const *input_names, const OrtValue *const *inputs, size_t input_count,
                      const char *const *output_names, size_t output_count, OrtValue **outputs);
    OrtStatus *(*GetTensorMutableData)(OrtValue *value, void **out);
    OrtStatus *(*GetTensorTypeAndShape)(const OrtValue *value, OrtTensorTypeAndShapeInfo **out);
    OrtStatus *(*GetTensorShapeElementCount)(const OrtTensorTypeAndShapeInfo *info, size_t *out);
    void (*ReleaseValue)(OrtValue *value);
    void (*ReleaseSession)(OrtSession *session);
    void (*ReleaseSessionOptions)(OrtSessionOptions *options);
    void (*ReleaseTensorTypeAndShapeInfo)(OrtTensorTypeAndShapeInfo *info);
    // Custom operators (onnx_noise.c).
    OrtStatus *(*CreateCustomOpDomain)(const char *domain, OrtCustomOpDomain **out);
    OrtStatus *(*CustomOpDomain_Add)(OrtCustomOpDomain *domain, const OrtCustomOp *op);
    OrtStatus *(*AddCustomOpDomain)(OrtSessionOptions *options, OrtCustomOpDomain *domain);
    OrtStatus *(*GetDimensionsCount)(const OrtTensorTypeAndShapeInfo *info, size_t *out);
    OrtStatus *(*GetDimensions)(const OrtTensorTypeAndShapeInfo *info, int64_t *dimensions, size_t count);
    OrtStatus *(*KernelInfoGetAttribute_float)(const OrtKernelInfo *info, const char *name, float *out);
    OrtStatus *(*KernelInfoGetAttribute_int64)(const OrtKernelInfo *info, const char *name, int64_t *out);
    OrtStatus *(*KernelContext_GetInput)(const OrtKernelContext *context, size_t index, const OrtValue **out);
    OrtStatus *(*KernelContext_GetOutput)(OrtKernelContext *context, size_t index, const int64_t *dimensions, size_t count, OrtValue **out);
    // Options of a run (onnx_session.c: the arena given back when idle).
    OrtStatus *(*CreateRunOptions)(OrtRunOptions **out);
    void (*ReleaseRunOptions)(OrtRunOptions *options);
    OrtStatus *(*AddRunConfigEntry)(OrtRunOptions *options, const char *key, const char *value);
    const char *version;
} ort_api;

// Loads the library: $NARRATE_ONNXRUNTIME, else libonnxruntime.so* beside this program (or in
// ../lib/narrate), else the loader's search path. NULL with `reason` filled when it cannot.
const ort_api *ort_load(char *reason, size_t reason_size);

// The message of a failed call (and releases the status); NULL for success.
const char *ort_failure(const ort_api *api, OrtStatus *status, char *buffer, size_t size);

#endif
