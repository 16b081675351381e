// Stateless noise for a model's random nodes: an ONNX Runtime custom operator that gives what
// RandomNormalLike gives (the input's shape, mean + scale × N(0, 1)), except that element i is
// a pure function of the node's seed, its stream (which node it is) and i. A session then gives
// the same samples for the same input whatever it ran before: one long-lived session per worker
// stays exact, where ONNX Runtime's own RandomNormalLike advances its generator with every run.

#ifndef NARRATE_WORKER_ONNX_NOISE_H
#define NARRATE_WORKER_ONNX_NOISE_H

#include <stddef.h>
#include <stdint.h>

#include "ort.h"

#define ONNX_NOISE_DOMAIN "org.narrate.noise"
#define ONNX_NOISE_OPERATOR "StatelessRandomNormalLike"
#define ONNX_NOISE_VERSION 1

// The domain holding the operator, made once per process (it outlives every session that uses
// it); NULL with `failure` filled when ONNX Runtime refuses it.
OrtCustomOpDomain *onnx_noise_domain(const ort_api *api, char *failure, size_t size);

// The generator: the key of a node (its seed and stream), and the standard normal draw at
// `index` under that key. SplitMix64 at counter `index` gives 64 bits, 53 of them a uniform in
// (0, 1), and the normal quantile there is the draw (inverse transform sampling).
uint64_t onnx_noise_key(float seed, int64_t stream);
double onnx_noise_normal(uint64_t key, uint64_t index);
// `count` draws from index 0 on, as the operator gives them: mean + scale × normal, in float.
void onnx_noise_fill(uint64_t key, float mean, float scale, float *out, size_t count);

#endif
