// A Piper voice's graph draws noise from RandomNormalLike nodes that have no `seed`, so ONNX
// Runtime seeds them from the clock and every run speaks differently. Here the model's bytes
// are rewritten before the session is made: each random node gets a `seed` attribute, so the
// same ids give the same samples in every process. For Kokoro, the per-token durations are made
// a graph output too (they time sentences). Only the protobuf's framing is parsed
// (tags, varints, lengths); every field but the nodes' is copied as it is.
//
// ModelProto.graph = 7; GraphProto.node = 1, .output = 12; NodeProto.input = 1, .output = 2,
// .op_type = 4, .attribute = 5;
// AttributeProto.name = 1, .f = 2 (fixed32), .g = 6, .graphs = 11, .type = 20 (FLOAT = 1).
//
// It calls no other file (scripts/fuzz-onnx.sh builds it alone); piper.c and kokoro.c use it.

#include <stdlib.h>
#include <string.h>

#include "onnx_noise.h"
#include "onnx_seed.h"

typedef struct {
    uint8_t *bytes;
    size_t length;
    size_t capacity;
    int failed;
} buffer;

static void put(buffer *out, const void *bytes, size_t length) {
    if (out->failed) return;
    if (out->length + length > out->capacity) {
        size_t capacity = out->capacity ? out->capacity : 256;
        while (capacity < out->length + length) capacity *= 2;
        uint8_t *grown = realloc(out->bytes, capacity);
        if (!grown) {
            out->failed = 1;
            return;
        }
        out->bytes = grown;
        out->capacity = capacity;
    }
    memcpy(out->bytes + out->length, bytes, length);
    out->length += length;
}

static void put_varint(buffer *out, uint64_t value) {
    uint8_t bytes[10];
    size_t count = 0;
    do {
        bytes[count] = (uint8_t)(value & 0x7F);
        value >>= 7;
        if (value) bytes[count] |= 0x80;
        count++;
    } while (value);
    put(out, bytes, count);
}

// Reads a varint at `*at` (below `end`); 0 on success.
static int get_varint(const uint8_t **at, const uint8_t *end, uint64_t *value) {
    uint64_t result = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (*at >= end) return -1;
        uint8_t byte = *(*at)++;
        result |= (uint64_t)(byte & 0x7F) << shift;
        if (!(byte & 0x80)) {
            *value = result;
            return 0;
        }
    }
    return -1;
}

// One field: its number, wire type, and where its value (or its bytes, for type 2) lies.
typedef struct {
    uint64_t number;
    int wire;
    const uint8_t *start;  // the whole field, tag included
    const uint8_t *value;  // type 2: the bytes
    uint64_t value_length;
} field;

// Reads the next field; 0 on success, 1 at the end, -1 when malformed.
static int next_field(const uint8_t **at, const uint8_t *end, field *out) {
    if (*at >= end) return 1;
    out->start = *at;
    uint64_t tag;
    if (get_varint(at, end, &tag) != 0) return -1;
    out->number = tag >> 3;
    out->wire = (int)(tag & 7);
    uint64_t ignored;
    switch (out->wire) {
    case 0:
        return get_varint(at, end, &ignored);
    case 1:
        if ((size_t)(end - *at) < 8) return -1;
        *at += 8;
        return 0;
    case 2:
        if (get_varint(at, end, &out->value_length) != 0 || out->value_length > (uint64_t)(end - *at)) return -1;
        out->value = *at;
        *at += out->value_length;
        return 0;
    case 5:
        if ((size_t)(end - *at) < 4) return -1;
        *at += 4;
        return 0;
    default:
        return -1;
    }
}

static int rewrite_graph(const uint8_t *bytes, size_t length, float seed, buffer *out, onnx_random_nodes *nodes, int depth);

static void put_message(buffer *out, uint64_t number, const buffer *message) {
    put_varint(out, number << 3 | 2);
    put_varint(out, message->length);
    put(out, message->bytes, message->length);
}

static int is_random(const uint8_t *name, uint64_t length) {
    static const char *const kinds[] = {"RandomNormal", "RandomNormalLike", "RandomUniform", "RandomUniformLike", "Multinomial", "Bernoulli"};
    for (size_t index = 0; index < sizeof kinds / sizeof *kinds; index++) {
        if (strlen(kinds[index]) == length && memcmp(kinds[index], name, length) == 0) return 1;
    }
    return 0;
}

// An attribute, with its subgraphs (g, graphs) rewritten; `*is_seed` when it is named "seed".
static int rewrite_attribute(const uint8_t *bytes, size_t length, float seed, buffer *out, onnx_random_nodes *nodes, int depth, int *is_seed) {
    const uint8_t *at = bytes, *end = bytes + length;
    field item;
    int status;
    while ((status = next_field(&at, end, &item)) == 0) {
        if (item.wire == 2 && item.number == 1) {
            *is_seed = item.value_length == 4 && memcmp(item.value, "seed", 4) == 0;
        }
        if (item.wire == 2 && (item.number == 6 || item.number == 11)) {
            buffer graph = {0};
            int failed = rewrite_graph(item.value, item.value_length, seed, &graph, nodes, depth + 1);
            if (!failed) put_message(out, item.number, &graph);
            free(graph.bytes);
            if (failed || graph.failed) return -1;
        } else {
            put(out, item.start, (size_t)(at - item.start));
        }
    }
    return status < 0 ? -1 : 0;
}

static int is_normal_like(const uint8_t *name, uint64_t length) {
    return length == 16 && memcmp(name, "RandomNormalLike", 16) == 0;
}

static void put_string_field(buffer *out, uint64_t number, const char *text) {
    put_varint(out, number << 3 | 2);
    put_varint(out, strlen(text));
    put(out, text, strlen(text));
}

static int names(const field *item, const char *name) {
    return item->value && item->value_length == strlen(name) && memcmp(item->value, name, item->value_length) == 0;
}

static void copy_name(char *to, const field *item) {
    size_t length = item->value_length < 255 ? (size_t)item->value_length : 0;  // a longer name is no name here
    memcpy(to, item->value, length);
    to[length] = 0;
}

// Notes a Round node's output, and the first Clip that takes one: the durations.
static void note_durations(onnx_random_nodes *nodes, const field *kind, const field *input, const field *output) {
    if (names(kind, "Round") && output->value) copy_name(nodes->rounded, output);
    if (names(kind, "Clip") && output->value && !nodes->durations[0] && nodes->rounded[0] && names(input, nodes->rounded)) copy_name(nodes->durations, output);
}

// A node: a random one gets a seed; with `nodes->stateless_wanted`, a RandomNormalLike becomes
// the stateless operator (onnx_noise.h) with its seed and its stream (the how-manieth it is).
static int rewrite_node(const uint8_t *bytes, size_t length, float seed, buffer *out, onnx_random_nodes *nodes, int depth) {
    const uint8_t *at = bytes, *end = bytes + length;
    field item;
    int status, random = 0, stateless = 0, has_seed = 0;
    field kind = {0}, input = {0}, output = {0};
    while ((status = next_field(&at, end, &item)) == 0) {
        if (item.wire == 2 && item.number == 4) {
            random = is_random(item.value, item.value_length);
            stateless = nodes->stateless_wanted && is_normal_like(item.value, item.value_length);
            kind = item;
        }
        if (item.wire == 2 && item.number == 1 && !input.value) input = item;
        if (item.wire == 2 && item.number == 2 && !output.value) output = item;
    }
    if (status < 0) return -1;
    if (nodes->durations_wanted && depth == 0) note_durations(nodes, &kind, &input, &output);
    at = bytes;
    while ((status = next_field(&at, end, &item)) == 0) {
        if (stateless && item.wire == 2 && item.number == 4) {
            put_string_field(out, 4, ONNX_NOISE_OPERATOR);
        } else if (stateless && item.number == 7) {
            // the node's domain: replaced by the operator's below
        } else if (item.wire == 2 && item.number == 5) {
            buffer attribute = {0};
            int is_seed = 0;
            int failed = rewrite_attribute(item.value, item.value_length, seed, &attribute, nodes, depth, &is_seed);
            if (!failed) put_message(out, 5, &attribute);
            free(attribute.bytes);
            if (failed || attribute.failed) return -1;
            has_seed |= is_seed;
        } else {
            put(out, item.start, (size_t)(at - item.start));
        }
    }
    if (status < 0) return -1;
    if (random && !has_seed) {
        // AttributeProto { name: "seed", f: seed, type: FLOAT }
        uint8_t attribute[16];
        size_t used = 0;
        attribute[used++] = 1 << 3 | 2;
        attribute[used++] = 4;
        memcpy(attribute + used, "seed", 4);
        used += 4;
        attribute[used++] = 2 << 3 | 5;
        uint32_t bits;
        memcpy(&bits, &seed, 4);
        for (int index = 0; index < 4; index++) attribute[used++] = (uint8_t)(bits >> (8 * index));
        attribute[used++] = 0xA0;  // field 20 (type), varint: 20 << 3 = 160, two bytes
        attribute[used++] = 0x01;
        attribute[used++] = 1;  // FLOAT
        put_varint(out, 5 << 3 | 2);
        put_varint(out, used);
        put(out, attribute, used);
    }
    if (stateless) {
        put_string_field(out, 7, ONNX_NOISE_DOMAIN);
        // AttributeProto { name: "stream", i: stream, type: INT }
        buffer attribute = {0};
        put_string_field(&attribute, 1, "stream");
        put_varint(&attribute, 3 << 3 | 0);
        put_varint(&attribute, (uint64_t)nodes->stateless);
        put_varint(&attribute, 20 << 3 | 0);
        put_varint(&attribute, 2);  // INT
        if (!attribute.failed) put_message(out, 5, &attribute);
        int failed = attribute.failed;
        free(attribute.bytes);
        if (failed) return -1;
        nodes->stateless++;
    } else if (random) {
        nodes->stateful++;
    }
    return 0;
}

// Whether a ValueInfoProto (a graph's output) is named `name`.
static int value_named(const field *value, const char *name) {
    const uint8_t *at = value->value, *end = value->value + value->value_length;
    field item;
    while (next_field(&at, end, &item) == 0) {
        if (item.wire == 2 && item.number == 1) return names(&item, name);
    }
    return 0;
}

static int rewrite_graph(const uint8_t *bytes, size_t length, float seed, buffer *out, onnx_random_nodes *nodes, int depth) {
    if (depth > 32) return -1;  // subgraphs nested deeper than any real model's
    const uint8_t *at = bytes, *end = bytes + length;
    field item;
    int status, shown = 0;
    while ((status = next_field(&at, end, &item)) == 0) {
        // Outputs follow the nodes (fields are written in order): one may be the durations already.
        if (depth == 0 && item.wire == 2 && item.number == 12 && nodes->durations[0] && value_named(&item, nodes->durations)) shown = 1;
        if (item.wire == 2 && item.number == 1) {
            buffer node = {0};
            int failed = rewrite_node(item.value, item.value_length, seed, &node, nodes, depth);
            if (!failed) put_message(out, 1, &node);
            free(node.bytes);
            if (failed || node.failed) return -1;
        } else {
            put(out, item.start, (size_t)(at - item.start));
        }
    }
    if (status < 0) return -1;
    if (depth == 0 && nodes->durations[0] && !shown) {
        // GraphProto.output (12): ValueInfoProto { name, type: TypeProto { tensor_type { elem_type: FLOAT } } }
        static const uint8_t float_tensor[] = {2 << 3 | 2, 4, 1 << 3 | 2, 2, 1 << 3 | 0, 1};
        buffer value = {0};
        put_string_field(&value, 1, nodes->durations);
        put(&value, float_tensor, sizeof float_tensor);
        if (!value.failed) put_message(out, 12, &value);
        int failed = value.failed;
        free(value.bytes);
        if (failed) return -1;
    }
    return 0;
}

uint8_t *onnx_seed_random_nodes(const uint8_t *model, size_t length, float seed, size_t *out_length, onnx_random_nodes *nodes) {
    buffer out = {0};
    const uint8_t *at = model, *end = model + length;
    field item;
    int status, graphs = 0;
    nodes->stateful = 0;
    nodes->stateless = 0;
    nodes->durations[0] = 0;
    nodes->rounded[0] = 0;
    while ((status = next_field(&at, end, &item)) == 0) {
        if (item.wire == 2 && item.number == 7) {
            buffer graph = {0};
            int failed = rewrite_graph(item.value, item.value_length, seed, &graph, nodes, 0);
            if (!failed) put_message(&out, 7, &graph);
            free(graph.bytes);
            if (failed || graph.failed) {
                free(out.bytes);
                return NULL;
            }
            graphs++;
        } else {
            put(&out, item.start, (size_t)(at - item.start));
        }
    }
    if (nodes->stateless > 0) {
        // OperatorSetIdProto { domain, version } for the operator's domain (ModelProto.opset_import = 8)
        buffer import = {0};
        put_string_field(&import, 1, ONNX_NOISE_DOMAIN);
        put_varint(&import, 2 << 3 | 0);
        put_varint(&import, ONNX_NOISE_VERSION);
        if (!import.failed) put_message(&out, 8, &import);
        out.failed |= import.failed;
        free(import.bytes);
    }
    if (status < 0 || graphs != 1 || out.failed) {
        free(out.bytes);
        return NULL;
    }
    *out_length = out.length;
    return out.bytes;
}
