// Loading ONNX Runtime: dlopen, OrtGetApiBase, and the functions this worker calls picked
// from the OrtApi table by their (append-only) places.
//
// The bottom of the ONNX files: it calls no other file (onnx_session.c and onnx_noise.c sit on it).

#define _GNU_SOURCE

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ort.h"

// Places in the OrtApi table (onnxruntime_c_api.h, struct OrtApi, counted from 0).
enum {
    ORT_CREATE_ENV = 3,
    ORT_GET_ERROR_MESSAGE = 2,
    ORT_CREATE_SESSION_FROM_ARRAY = 8,
    ORT_RUN = 9,
    ORT_CREATE_SESSION_OPTIONS = 10,
    ORT_SET_OPTIMIZED_MODEL_FILE_PATH = 11,
    ORT_SET_SESSION_EXECUTION_MODE = 13,
    ORT_SET_SESSION_GRAPH_OPTIMIZATION_LEVEL = 23,
    ORT_SET_INTRA_OP_NUM_THREADS = 24,
    ORT_SET_INTER_OP_NUM_THREADS = 25,
    ORT_SESSION_GET_INPUT_COUNT = 30,
    ORT_SESSION_GET_INPUT_NAME = 36,
    ORT_SESSION_GET_OUTPUT_NAME = 37,
    ORT_CREATE_TENSOR_WITH_DATA_AS_ORT_VALUE = 49,
    ORT_GET_TENSOR_MUTABLE_DATA = 51,
    ORT_GET_TENSOR_SHAPE_ELEMENT_COUNT = 64,
    ORT_GET_TENSOR_TYPE_AND_SHAPE = 65,
    ORT_CREATE_CPU_MEMORY_INFO = 69,
    ORT_ALLOCATOR_FREE = 76,
    ORT_GET_ALLOCATOR_WITH_DEFAULT_OPTIONS = 78,
    ORT_RELEASE_STATUS = 93,
    ORT_RELEASE_SESSION = 95,
    ORT_RELEASE_VALUE = 96,
    ORT_RELEASE_TENSOR_TYPE_AND_SHAPE_INFO = 99,
    ORT_RELEASE_SESSION_OPTIONS = 100,
    ORT_ADD_SESSION_CONFIG_ENTRY = 130,
    ORT_CREATE_CUSTOM_OP_DOMAIN = 26,
    ORT_CUSTOM_OP_DOMAIN_ADD = 27,
    ORT_ADD_CUSTOM_OP_DOMAIN = 28,
    ORT_GET_DIMENSIONS_COUNT = 61,
    ORT_GET_DIMENSIONS = 62,
    ORT_KERNEL_INFO_GET_ATTRIBUTE_FLOAT = 85,
    ORT_KERNEL_INFO_GET_ATTRIBUTE_INT64 = 86,
    ORT_KERNEL_CONTEXT_GET_INPUT = 90,
    ORT_KERNEL_CONTEXT_GET_OUTPUT = 91,
    ORT_CREATE_RUN_OPTIONS = 39,
    ORT_RELEASE_RUN_OPTIONS = 97,
    ORT_ADD_RUN_CONFIG_ENTRY = 165,
};

static void *try_open(const char *path) {
    return dlopen(path, RTLD_NOW | RTLD_LOCAL);
}

// libonnxruntime.so* in `folder` (the newest name first, by plain order of names).
static void *open_in(const char *folder) {
    static const char *const names[] = {"libonnxruntime.so", "libonnxruntime.so.1"};
    char path[PATH_MAX];
    for (size_t index = 0; index < sizeof names / sizeof *names; index++) {
        snprintf(path, sizeof path, "%s/%s", folder, names[index]);
        void *library = try_open(path);
        if (library) return library;
    }
    return NULL;
}

const ort_api *ort_load(char *reason, size_t reason_size) {
    static ort_api api;
    static int loaded;
    if (loaded) return &api;
    void *library = NULL;
    const char *explicit = getenv("NARRATE_ONNXRUNTIME");
    if (explicit && *explicit) {
        library = try_open(explicit);
        if (!library) {
            snprintf(reason, reason_size, "ONNX Runtime could not be loaded from NARRATE_ONNXRUNTIME=%s (%s)", explicit, dlerror());
            return NULL;
        }
    }
    if (!library) {
        char self[PATH_MAX];
        ssize_t length = readlink("/proc/self/exe", self, sizeof self - 1);
        if (length > 0) {
            self[length] = 0;
            char *slash = strrchr(self, '/');
            if (slash) {
                *slash = 0;
                library = open_in(self);
                if (!library) {
                    char beside[PATH_MAX];
                    snprintf(beside, sizeof beside, "%s/../lib/narrate", self);
                    library = open_in(beside);
                }
            }
        }
    }
    if (!library) library = try_open("libonnxruntime.so.1");
    if (!library) library = try_open("libonnxruntime.so");
    if (!library) {
        snprintf(reason, reason_size,
                 "ONNX Runtime is not installed (libonnxruntime.so was not found beside narrate-worker, in NARRATE_ONNXRUNTIME or on the "
                 "loader's path); install it with scripts/install-deps.sh, or set NARRATE_ONNXRUNTIME to the library's path");
        return NULL;
    }
    const OrtApiBase *(*get_base)(void) = (const OrtApiBase *(*)(void))dlsym(library, "OrtGetApiBase");
    const OrtApiBase *base = get_base ? get_base() : NULL;
    void *const *table = base ? (void *const *)base->GetApi(ORT_REQUESTED_API_VERSION) : NULL;
    if (!table) {
        snprintf(reason, reason_size, "the ONNX Runtime library found is not usable (no OrtGetApiBase, or older than 1.%d); install ONNX Runtime 1.%d or later",
                 ORT_REQUESTED_API_VERSION, ORT_REQUESTED_API_VERSION);
        return NULL;
    }
#define PICK(field, place) api.field = (__typeof__(api.field))table[place]
    PICK(CreateEnv, ORT_CREATE_ENV);
    PICK(GetErrorMessage, ORT_GET_ERROR_MESSAGE);
    PICK(ReleaseStatus, ORT_RELEASE_STATUS);
    PICK(CreateSessionOptions, ORT_CREATE_SESSION_OPTIONS);
    PICK(SetIntraOpNumThreads, ORT_SET_INTRA_OP_NUM_THREADS);
    PICK(SetInterOpNumThreads, ORT_SET_INTER_OP_NUM_THREADS);
    PICK(SetSessionGraphOptimizationLevel, ORT_SET_SESSION_GRAPH_OPTIMIZATION_LEVEL);
    PICK(SetSessionExecutionMode, ORT_SET_SESSION_EXECUTION_MODE);
    PICK(SetOptimizedModelFilePath, ORT_SET_OPTIMIZED_MODEL_FILE_PATH);
    PICK(AddSessionConfigEntry, ORT_ADD_SESSION_CONFIG_ENTRY);
    PICK(ReleaseSession, ORT_RELEASE_SESSION);
    PICK(ReleaseSessionOptions, ORT_RELEASE_SESSION_OPTIONS);
    PICK(CreateSessionFromArray, ORT_CREATE_SESSION_FROM_ARRAY);
    PICK(SessionGetInputCount, ORT_SESSION_GET_INPUT_COUNT);
    PICK(SessionGetInputName, ORT_SESSION_GET_INPUT_NAME);
    PICK(SessionGetOutputName, ORT_SESSION_GET_OUTPUT_NAME);
    PICK(GetAllocatorWithDefaultOptions, ORT_GET_ALLOCATOR_WITH_DEFAULT_OPTIONS);
    PICK(AllocatorFree, ORT_ALLOCATOR_FREE);
    PICK(CreateCpuMemoryInfo, ORT_CREATE_CPU_MEMORY_INFO);
    PICK(CreateTensorWithDataAsOrtValue, ORT_CREATE_TENSOR_WITH_DATA_AS_ORT_VALUE);
    PICK(Run, ORT_RUN);
    PICK(GetTensorMutableData, ORT_GET_TENSOR_MUTABLE_DATA);
    PICK(GetTensorTypeAndShape, ORT_GET_TENSOR_TYPE_AND_SHAPE);
    PICK(GetTensorShapeElementCount, ORT_GET_TENSOR_SHAPE_ELEMENT_COUNT);
    PICK(ReleaseValue, ORT_RELEASE_VALUE);
    PICK(ReleaseTensorTypeAndShapeInfo, ORT_RELEASE_TENSOR_TYPE_AND_SHAPE_INFO);
    PICK(CreateCustomOpDomain, ORT_CREATE_CUSTOM_OP_DOMAIN);
    PICK(CustomOpDomain_Add, ORT_CUSTOM_OP_DOMAIN_ADD);
    PICK(AddCustomOpDomain, ORT_ADD_CUSTOM_OP_DOMAIN);
    PICK(GetDimensionsCount, ORT_GET_DIMENSIONS_COUNT);
    PICK(GetDimensions, ORT_GET_DIMENSIONS);
    PICK(KernelInfoGetAttribute_float, ORT_KERNEL_INFO_GET_ATTRIBUTE_FLOAT);
    PICK(KernelInfoGetAttribute_int64, ORT_KERNEL_INFO_GET_ATTRIBUTE_INT64);
    PICK(KernelContext_GetInput, ORT_KERNEL_CONTEXT_GET_INPUT);
    PICK(KernelContext_GetOutput, ORT_KERNEL_CONTEXT_GET_OUTPUT);
    PICK(CreateRunOptions, ORT_CREATE_RUN_OPTIONS);
    PICK(ReleaseRunOptions, ORT_RELEASE_RUN_OPTIONS);
    PICK(AddRunConfigEntry, ORT_ADD_RUN_CONFIG_ENTRY);
#undef PICK
    api.version = base->GetVersionString ? base->GetVersionString() : "unknown";
    loaded = 1;
    return &api;
}

const char *ort_failure(const ort_api *api, OrtStatus *status, char *buffer, size_t size) {
    if (!status) return NULL;
    const char *message = api->GetErrorMessage(status);
    snprintf(buffer, size, "%s", message ? message : "unknown error");
    api->ReleaseStatus(status);
    return buffer;
}
