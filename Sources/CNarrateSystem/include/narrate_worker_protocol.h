#ifndef NARRATE_WORKER_PROTOCOL_H
#define NARRATE_WORKER_PROTOCOL_H

// The wire format between a Narrate process and `narrate-worker`, in the host's byte order
// (both ends run on the same machine). Shared by the worker (C) and its client (Swift).
//
// At start the worker writes one hello frame (status HELLO: payload = eSpeak's version,
// detail = sample rate; or status INIT_FAILED: payload = the reason). Then, for every request
// it reads, it answers with zero or one frame from the child that did the work (AUDIO, LIST,
// SYNTH_FAILED, TOO_LONG or STORED) followed by exactly one final frame from the worker itself (DONE,
// CRASHED, TIMED_OUT, EXITED, VOICE_NOT_FOUND, BAD_PARAMETER or MODEL_FAILED). Frames carry the
// request id.
//
// A voice that starts with NARRATE_WORKER_PIPER_PREFIX is a Piper voice's description (see
// narrate-worker/piper.c), one that starts with NARRATE_WORKER_KOKORO_PREFIX a Kokoro voice's
// (narrate-worker/kokoro.c); any other names an eSpeak NG voice.

#include <stdint.h>

#define NARRATE_WORKER_REQUEST_MAGIC 0x5157524EU  // "NRWQ"
#define NARRATE_WORKER_FRAME_MAGIC 0x5257524EU    // "NRWR"
// Bumped whenever a request or frame changes; every frame carries it, and a client refuses a
// worker of another version at its hello (an old worker would misread a new request).
#define NARRATE_WORKER_PROTOCOL_VERSION 3U

// Bounds the worker enforces on requests; the client checks them first.
#define NARRATE_WORKER_MAX_VOICE_BYTES 65536U  // a Piper voice's description holds its phoneme map
#define NARRATE_WORKER_PIPER_PREFIX "piper\x1f"
#define NARRATE_WORKER_KOKORO_PREFIX "kokoro\x1f"  // a Kokoro voice's description (narrate-worker/kokoro.c)
#define NARRATE_WORKER_MAX_TEXT_BYTES 16777216U  // 16 MiB
#define NARRATE_WORKER_MAX_PATH_BYTES 4096U

// The audio cache's entry format (AudioCacheEntryCodec), which a child writes itself when
// asked to (NARRATE_WORKER_FLAG_ENTRY): magic, version, the key's 32 bytes, sample rate,
// sample count, mark count, the marks, the PCM, then CRC-32C over every byte before it.
#define NARRATE_WORKER_ENTRY_MAGIC "NRTC"
#define NARRATE_WORKER_ENTRY_VERSION 2U
#define NARRATE_WORKER_ENTRY_KEY_BYTES 32U

enum narrate_worker_kind {
    NARRATE_WORKER_SYNTHESIZE = 1,
    NARRATE_WORKER_LIST_VOICES = 2,
    NARRATE_WORKER_LIST_VARIANTS = 3,
    // The phonemes of the text, answered as a LIST: one sentence (Piper) or clause (eSpeak) a
    // line: text offset, text length (Unicode scalars), IPA, and a Piper voice's phoneme ids
    // separated by spaces; fields separated by 0x1F.
    NARRATE_WORKER_PHONEMIZE = 4,
};

enum narrate_worker_flags {
    NARRATE_WORKER_FLAG_SSML = 1,
    NARRATE_WORKER_FLAG_PHONEMES = 2,  // [[…]] spans are eSpeak phoneme mnemonics
    // The child writes its audio as a cache entry (under `entry_key`) to the new file whose
    // path follows the text, and answers STORED; the audio never crosses the pipe. If it cannot
    // (a full or read-only disk), it removes what it wrote and answers AUDIO as without the flag.
    NARRATE_WORKER_FLAG_ENTRY = 4,
};

enum narrate_worker_status {
    // From the child that did the work.
    NARRATE_WORKER_AUDIO = 1,          // payload: sample_count int16 samples, then mark_count marks
    NARRATE_WORKER_LIST = 2,           // payload: one voice a line, fields separated by 0x1F
    NARRATE_WORKER_SYNTH_FAILED = 3,   // detail: espeak_ERROR
    NARRATE_WORKER_TOO_LONG = 4,       // the audio would pass the request's max_samples
    NARRATE_WORKER_STORED = 5,         // the entry file is written (sample_count samples at
                                       // sample_rate); payload: its mark_count marks
    // From the worker, last for every request.
    NARRATE_WORKER_DONE = 10,
    NARRATE_WORKER_CRASHED = 11,       // detail: the signal that ended the child
    NARRATE_WORKER_TIMED_OUT = 12,     // detail: the deadline in milliseconds
    NARRATE_WORKER_EXITED = 13,        // detail: the child's exit status
    NARRATE_WORKER_VOICE_NOT_FOUND = 14,
    NARRATE_WORKER_BAD_PARAMETER = 15, // detail: which one (1 rate, 2 volume, 3 pitch, 4 word gap)
    NARRATE_WORKER_MODEL_FAILED = 16,  // a Piper voice cannot be loaded; payload: why
    // Once, at start.
    NARRATE_WORKER_HELLO = 20,         // detail: sample rate; payload: eSpeak's version
    NARRATE_WORKER_INIT_FAILED = 21,   // payload: the reason
};

typedef struct {
    uint32_t magic;
    uint32_t kind;
    uint64_t id;
    uint32_t flags;
    int32_t rate;
    int32_t volume;
    int32_t pitch;
    int32_t word_gap;
    uint32_t deadline_ms;
    uint64_t max_samples;
    uint32_t voice_length;
    uint32_t text_length;
    uint32_t entry_path_length;        // with FLAG_ENTRY: the path's bytes, after the text
    uint32_t reserved;
    uint8_t entry_key[NARRATE_WORKER_ENTRY_KEY_BYTES];
} narrate_worker_request;

typedef struct {
    uint32_t magic;
    uint32_t status;
    uint64_t id;
    int32_t sample_rate;
    int32_t detail;
    uint64_t sample_count;
    uint32_t mark_count;
    uint32_t payload_length_high;  // payload length = high << 32 | low
    uint32_t payload_length_low;
    uint32_t protocol_version;     // NARRATE_WORKER_PROTOCOL_VERSION (0 before version 2)
} narrate_worker_frame;

// A word mark: where a word starts in the text (0-based Unicode scalars), its length, and the
// sample at which it is spoken.
typedef struct {
    int32_t text_offset;
    int32_t text_length;
    int64_t sample_offset;
} narrate_worker_mark;

#endif
