// The child's audio: the samples and marks an engine synthesizes for one request, and the
// answer made of them (a frame, or a cache entry file and a frame saying it is stored).

#ifndef NARRATE_WORKER_AUDIO_H
#define NARRATE_WORKER_AUDIO_H

#include <stdint.h>

#include "narrate_worker_protocol.h"

// The samples' buffer the zygote makes once (4 MiB, about 95 s of audio) and its children
// share, page-faulted in advance; a child whose audio is longer moves on to its own.
#define NARRATE_WORKER_SHARED_SAMPLE_BYTES (4u << 20)
void prepare_sample_buffer(void);

// In the child, before its engine runs: at most `limit` samples, at `sample_rate` until an
// engine says otherwise.
void audio_begin(uint64_t limit, int32_t sample_rate);
void audio_set_rate(int32_t sample_rate);
// In a zygote that speaks in place, idle: frees the last text's samples and marks, and gives
// the shared buffer's pages back (the next text faults in what it writes).
void audio_rest(void);
// Forgets what was collected (a synthesis that only set eSpeak's markup reading up).
void audio_reset(void);
// Samples and silence: 0, or -1 past the request's max_samples (the audio is then too long).
int audio_append(const int16_t *samples, uint64_t count);
int audio_append_silence(uint64_t count);
// A mark (a word or sentence) at the current sample, or at `sample`.
void audio_mark(int32_t text_offset, int32_t text_length);
void audio_mark_at(int32_t text_offset, int32_t text_length, int64_t sample);
uint64_t audio_sample_count(void);
int audio_is_too_long(void);
void audio_set_too_long(void);

// Writes the child's answer: TOO_LONG, SYNTH_FAILED (`failure` non-zero), STORED (with
// `entry_path`, when the entry file could be written) or AUDIO. 0 when it was written.
int audio_answer(const narrate_worker_request *request, int32_t failure, const char *entry_path, const char *text);

// Test hook, set by main from $NARRATE_WORKER_TEAR_ENTRY_ON: a child whose text contains it
// aborts with half its cache entry written.
extern const char *torn_entry_marker;

#endif
