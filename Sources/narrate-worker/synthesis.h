// What a child does: the one synthesis (or voice listing) of its request, answered in one
// frame, after which it exits.

#ifndef NARRATE_WORKER_SYNTHESIS_H
#define NARRATE_WORKER_SYNTHESIS_H

#include <espeak-ng/speak_lib.h>

#include "narrate_worker_protocol.h"

// Test hooks, set by main from $NARRATE_WORKER_CRASH_ON, _HANG_ON and _TEAR_ENTRY_ON.
extern const char *crash_marker;
extern const char *hang_marker;
extern const char *torn_entry_marker;

// The samples' buffer the zygote makes once (4 MiB, about 95 s of audio) and its children
// share, page-faulted in advance; a child whose audio is longer moves on to its own.
#define NARRATE_WORKER_SHARED_SAMPLE_BYTES (4u << 20)
void prepare_sample_buffer(void);

// Collects the audio and word marks; the worker hands it to espeak_SetSynthCallback.
int synth_callback(short *wave, int count, espeak_EVENT *events);
// Both write the child's frame and exit; `done_fd` is closed when the work is over.
// With FLAG_ENTRY the audio goes to a new cache entry file at `entry_path` (see the protocol).
void run_synthesis(const narrate_worker_request *request, const char *text, const char *entry_path, int sample_rate, int done_fd);
// The child's audio for an engine that hands it over itself (a Piper voice): the rate, samples
// (-1 past the request's max_samples), silence, and a mark (a sentence) at the current sample.
void audio_set_rate(int32_t sample_rate);
void audio_reset(void);
int audio_append(const int16_t *samples, uint64_t count);
int audio_append_silence(uint64_t count);
void audio_mark(int32_t text_offset, int32_t text_length);
// Where a child writes a warning the user should see (the worker's standard error; the
// child's own goes to the worker, which keeps its last line for a failure).
extern int worker_log_fd;
// Makes eSpeak read SSML and [[phoneme]] spans in what it phonemizes next, as the request asks
// (eSpeak reads them where its last synthesis was asked to: an empty one sets that up; a child
// synthesizes nothing else, and is thrown away).
void read_markup_as_asked(const narrate_worker_request *request);
int warning_fd(void);

void run_listing(const narrate_worker_request *request, int done_fd);
void run_phonemes(const narrate_worker_request *request, const char *text, int done_fd);

#endif
