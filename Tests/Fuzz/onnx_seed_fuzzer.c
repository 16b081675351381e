// libFuzzer target for the worker's ONNX rewrite (narrate-worker/onnx_seed.c), which parses the
// protobuf of any model a user names: no input may crash it, and rewriting its own output again
// must change nothing (seeded nodes keep their seed; stateless ones are no longer random nodes;
// durations made an output are one already). The first byte picks whether RandomNormalLike
// nodes become stateless and whether the durations are asked for. Run by
// scripts/fuzz-onnx.sh.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "onnx_seed.h"
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) return 0;
    onnx_random_nodes nodes = {.stateless_wanted = data[0] & 1, .durations_wanted = (data[0] >> 1) & 1};
    size_t out_length;
    uint8_t *out = onnx_seed_random_nodes(data + 1, size - 1, 1.0f, &out_length, &nodes);
    if (out) {
        onnx_random_nodes again = {.stateless_wanted = nodes.stateless_wanted, .durations_wanted = nodes.durations_wanted};
        size_t again_length;
        uint8_t *twice = onnx_seed_random_nodes(out, out_length, 1.0f, &again_length, &again);
        if (!twice || again.stateless != 0 || again.stateful != nodes.stateful || again_length != out_length || memcmp(twice, out, out_length) != 0 ||
            strcmp(again.durations, nodes.durations) != 0) abort();
        free(twice);
        free(out);
    }
    return 0;
}
