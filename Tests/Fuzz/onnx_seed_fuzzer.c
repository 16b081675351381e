// libFuzzer target for the worker's ONNX seeding (narrate-worker/onnx_seed.c), which parses the
// protobuf of any model a user names: no input may crash it, and seeding its own output again
// must change nothing. Run by scripts/fuzz-onnx.sh.
#include <stdint.h>
#include <stdlib.h>
#include "onnx_seed.h"
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    size_t out_length; int seeded;
    uint8_t *out = onnx_seed_random_nodes(data, size, 1.0f, &out_length, &seeded);
    if (out) {
        // Seeding what is already seeded changes nothing more.
        size_t again_length; int again;
        uint8_t *twice = onnx_seed_random_nodes(out, out_length, 1.0f, &again_length, &again);
        if (!twice || again != 0 || again_length != out_length) abort();
        free(twice);
        free(out);
    }
    return 0;
}
