// The stateless noise operator (onnx_noise.h): its kernel, and the OrtCustomOp that registers it
// (the struct as onnxruntime_c_api.h declares it, up to GetOutputCharacteristic: version 12,
// so ONNX Runtime reads no member past those).
//
// Below piper.c (and onnx_seed.c's rewrite names its operator); below it: ort.c.

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onnx_noise.h"

uint64_t onnx_noise_key(float seed, int64_t stream) {
    uint32_t bits;
    memcpy(&bits, &seed, sizeof bits);
    uint64_t key = (uint64_t)bits << 32 ^ (uint64_t)stream * 0xD1B54A32D192ED03ull;
    // One SplitMix64 step, so that near keys give unrelated streams.
    key += 0x9E3779B97F4A7C15ull;
    key = (key ^ (key >> 30)) * 0xBF58476D1CE4E5B9ull;
    key = (key ^ (key >> 27)) * 0x94D049BB133111EBull;
    return key ^ (key >> 31);
}

// The standard normal quantile at p in (0, 1): Acklam's rational approximation (relative error
// under 1.2e-9). Its central 95% is arithmetic alone, so it is the same on every machine and
// several times cheaper than Box–Muller's logarithm and cosine; only the tails take a logarithm.
static double normal_quantile(double p) {
    static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
                               1.383577518672690e+02,  -3.066479806614716e+01, 2.506628277459239e+00};
    static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                               6.680131188771972e+01,  -1.328068155288572e+01};
    static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                               -2.549732539343734e+00, 4.374664141464968e+00,  2.938163982698783e+00};
    static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00, 3.754408661907416e+00};
    const double tail = 0.02425;
    if (p >= tail && p <= 1 - tail) {
        double q = p - 0.5, r = q * q;
        return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
               (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
    }
    double q = sqrt(-2 * log(p < 0.5 ? p : 1 - p));
    double x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    return p < 0.5 ? x : -x;
}

double onnx_noise_normal(uint64_t key, uint64_t index) {
    uint64_t z = key + (index + 1) * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return normal_quantile(((double)(z >> 11) + 0.5) * 0x1p-53);  // 53 bits: a uniform in (0, 1)
}

void onnx_noise_fill(uint64_t key, float mean, float scale, float *out, size_t count) {
    for (size_t index = 0; index < count; index++) out[index] = (float)(mean + scale * onnx_noise_normal(key, index));
}

// The OrtCustomOp struct's first members (onnxruntime_c_api.h), as read at version 12.
typedef struct noise_operator {
    uint32_t version;
    void *(*CreateKernel)(const struct noise_operator *op, const void *api, const OrtKernelInfo *info);
    const char *(*GetName)(const struct noise_operator *op);
    const char *(*GetExecutionProviderType)(const struct noise_operator *op);
    int (*GetInputType)(const struct noise_operator *op, size_t index);
    size_t (*GetInputTypeCount)(const struct noise_operator *op);
    int (*GetOutputType)(const struct noise_operator *op, size_t index);
    size_t (*GetOutputTypeCount)(const struct noise_operator *op);
    void (*KernelCompute)(void *kernel, OrtKernelContext *context);
    void (*KernelDestroy)(void *kernel);
    int (*GetInputCharacteristic)(const struct noise_operator *op, size_t index);
    int (*GetOutputCharacteristic)(const struct noise_operator *op, size_t index);
} noise_operator;

typedef struct {
    const ort_api *api;
    float mean;
    float scale;
    uint64_t key;
} noise_kernel;

static const ort_api *noise_api;

// An attribute's value, or `fallback` when the node has none.
static float float_attribute(const OrtKernelInfo *info, const char *name, float fallback) {
    float value = fallback;
    OrtStatus *status = noise_api->KernelInfoGetAttribute_float(info, name, &value);
    if (status) {
        noise_api->ReleaseStatus(status);
        return fallback;
    }
    return value;
}

static void *create_kernel(const noise_operator *op, const void *api, const OrtKernelInfo *info) {
    (void)op;
    (void)api;
    noise_kernel *kernel = calloc(1, sizeof *kernel);
    if (!kernel) return NULL;
    kernel->api = noise_api;
    kernel->mean = float_attribute(info, "mean", 0.0f);
    kernel->scale = float_attribute(info, "scale", 1.0f);
    int64_t stream = 0;
    OrtStatus *status = noise_api->KernelInfoGetAttribute_int64(info, "stream", &stream);
    if (status) noise_api->ReleaseStatus(status);
    kernel->key = onnx_noise_key(float_attribute(info, "seed", 0.0f), stream);
    return kernel;
}

// Fills the output, shaped as the input, with the node's draws. A failure of ONNX Runtime's own
// calls (out of memory) leaves the output unmade, which fails the run in one line.
static void compute(void *opaque, OrtKernelContext *context) {
    noise_kernel *kernel = opaque;
    const ort_api *api = kernel->api;
    const OrtValue *input = NULL;
    OrtTensorTypeAndShapeInfo *shape = NULL;
    OrtStatus *status = api->KernelContext_GetInput(context, 0, &input);
    if (!status) status = api->GetTensorTypeAndShape(input, &shape);
    size_t rank = 0;
    if (!status) status = api->GetDimensionsCount(shape, &rank);
    int64_t dimensions[16];
    if (!status && rank > 16) rank = 0;  // no model's noise has so many axes; an empty output fails the run
    if (!status) status = api->GetDimensions(shape, dimensions, rank);
    if (shape) api->ReleaseTensorTypeAndShapeInfo(shape);
    OrtValue *output = NULL;
    if (!status) status = api->KernelContext_GetOutput(context, 0, dimensions, rank, &output);
    float *data = NULL;
    if (!status) status = api->GetTensorMutableData(output, (void **)&data);
    if (status) {
        api->ReleaseStatus(status);
        return;
    }
    size_t count = 1;
    for (size_t axis = 0; axis < rank; axis++) count *= dimensions[axis] > 0 ? (size_t)dimensions[axis] : 0;
    onnx_noise_fill(kernel->key, kernel->mean, kernel->scale, data, count);
}

static void destroy(void *kernel) {
    free(kernel);
}

static const char *name_of(const noise_operator *op) {
    (void)op;
    return ONNX_NOISE_OPERATOR;
}

static const char *provider_of(const noise_operator *op) {
    (void)op;
    return NULL;  // the CPU's
}

static int float_type(const noise_operator *op, size_t index) {
    (void)op;
    (void)index;
    return ORT_TENSOR_FLOAT;
}

static size_t one(const noise_operator *op) {
    (void)op;
    return 1;
}

static int required(const noise_operator *op, size_t index) {
    (void)op;
    (void)index;
    return 0;  // INPUT_OUTPUT_REQUIRED
}

static const noise_operator operator_definition = {
    .version = 12,
    .CreateKernel = create_kernel,
    .GetName = name_of,
    .GetExecutionProviderType = provider_of,
    .GetInputType = float_type,
    .GetInputTypeCount = one,
    .GetOutputType = float_type,
    .GetOutputTypeCount = one,
    .KernelCompute = compute,
    .KernelDestroy = destroy,
    .GetInputCharacteristic = required,
    .GetOutputCharacteristic = required,
};

OrtCustomOpDomain *onnx_noise_domain(const ort_api *api, char *failure, size_t size) {
    static OrtCustomOpDomain *domain;
    if (domain) return domain;
    noise_api = api;
    OrtCustomOpDomain *made = NULL;
    const char *problem = ort_failure(api, api->CreateCustomOpDomain(ONNX_NOISE_DOMAIN, &made), failure, size);
    if (!problem) problem = ort_failure(api, api->CustomOpDomain_Add(made, (const OrtCustomOp *)&operator_definition), failure, size);
    if (problem) return NULL;  // a domain half made is kept until the process ends
    domain = made;
    return domain;
}
