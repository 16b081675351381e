// Fixed seeds for a model's random nodes, or stateless ones: the ONNX protobuf rewritten in
// memory at load time.

#ifndef NARRATE_WORKER_ONNX_SEED_H
#define NARRATE_WORKER_ONNX_SEED_H

#include <stddef.h>
#include <stdint.h>

// The random nodes of a model: what is asked of the rewrite, and what it did.
typedef struct {
    int stateless_wanted;  // asked: RandomNormalLike nodes become the stateless operator
    int stateless;         // nodes that did (their streams are 0, 1, …)
    int stateful;          // random nodes left to ONNX Runtime's generators (seeded)
    int durations_wanted;  // asked: the per-token durations (a Round node's Clip) made an output
    char durations[256];   // that output's name ("" when the graph has none)
    char rounded[256];     // (while rewriting) the last Round node's output
} onnx_random_nodes;

// Returns a new buffer (malloc'd, `*out_length` bytes): the ModelProto `model` with a `seed`
// attribute (FLOAT `seed`) added to every RandomNormal, RandomNormalLike, RandomUniform,
// RandomUniformLike, Multinomial and Bernoulli node that has none, in the main graph and in
// every subgraph; with `nodes->stateless_wanted`, each RandomNormalLike also becomes the
// stateless operator of onnx_noise.h (its domain imported by the model). With
// `nodes->durations_wanted`, the main graph's first Clip of a Round's output (StyleTTS 2's
// per-token durations: round(sigmoid(…).sum() / speed), at least 1) becomes a graph output too,
// named in `nodes->durations`; the samples the graph gives do not change. NULL when the bytes are
// not a well-formed protobuf (a truncated or corrupt model) or memory runs out; the file itself
// is never touched.
uint8_t *onnx_seed_random_nodes(const uint8_t *model, size_t length, float seed, size_t *out_length, onnx_random_nodes *nodes);

#endif
