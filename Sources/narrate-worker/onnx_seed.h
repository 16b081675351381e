// Fixed seeds for a model's random nodes: the ONNX protobuf rewritten in memory at load time.

#ifndef NARRATE_WORKER_ONNX_SEED_H
#define NARRATE_WORKER_ONNX_SEED_H

#include <stddef.h>
#include <stdint.h>

// Returns a new buffer (malloc'd, `*out_length` bytes): the ModelProto `model` with a `seed`
// attribute (FLOAT `seed`) added to every RandomNormal, RandomNormalLike, RandomUniform,
// RandomUniformLike, Multinomial and Bernoulli node that has none, in the main graph and in
// every subgraph. `*seeded` counts the nodes changed. NULL when the bytes are not a well-formed
// protobuf (a truncated or corrupt model) or memory runs out; the file itself is never touched.
uint8_t *onnx_seed_random_nodes(const uint8_t *model, size_t length, float seed, size_t *out_length, int *seeded);

#endif
