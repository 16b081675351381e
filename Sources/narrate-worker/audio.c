// The child's audio: what its engine synthesized, kept in memory (in the zygote's shared buffer
// while it fits), and the one answer a child writes of it.
//
// Below the engines (espeak.c, piper.c, kokoro*.c) and synthesis.c; below it: frames.c.

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#include "audio.h"
#include "frames.h"
#include "narrate_system.h"

typedef struct {
    int16_t *samples;
    uint64_t count;
    uint64_t capacity;
    uint64_t limit;
    narrate_worker_mark *marks;
    uint32_t mark_count;
    uint32_t mark_capacity;
    int32_t sample_rate;
    int too_long;
} child_audio;

static child_audio audio;

// The zygote's sample buffer (see prepare_sample_buffer): shared with its children, which
// start writing their samples there; NULL until it is made.
static int16_t *shared_samples;
static uint64_t shared_capacity;

void prepare_sample_buffer(void) {
    size_t bytes = NARRATE_WORKER_SHARED_SAMPLE_BYTES;
    void *buffer = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (buffer == MAP_FAILED) return;  // the children then allocate their own
    memset(buffer, 0, bytes);          // fault every page in now, once
    shared_samples = buffer;
    shared_capacity = bytes / sizeof *shared_samples;
}

static void *grow(void *buffer, uint64_t *capacity, uint64_t needed, size_t element) {
    if (needed <= *capacity) return buffer;
    uint64_t next = *capacity ? *capacity : 4096;
    while (next < needed) next *= 2;
    // The shared buffer is not the heap's: past its end the samples move to one of their own.
    int shared = buffer && buffer == (void *)shared_samples;
    void *grown = shared ? malloc(next * element) : realloc(buffer, next * element);
    if (!grown) {
        fprintf(stderr, "narrate-worker: out of memory for %llu samples\n", (unsigned long long)needed);
        _exit(3);
    }
    if (shared) memcpy(grown, buffer, *capacity * element);
    *capacity = next;
    return grown;
}

void audio_begin(uint64_t limit, int32_t sample_rate) {
    // A zygote that synthesizes in place begins again after each text: what outgrew the shared
    // buffer is freed, and nothing of the last text is left.
    if (audio.samples && audio.samples != shared_samples) free(audio.samples);
    audio.samples = NULL;
    audio.capacity = 0;
    audio.count = 0;
    audio.mark_count = 0;
    audio.too_long = 0;
    audio.limit = limit;
    audio.sample_rate = sample_rate;
    // Only this child writes the zygote's shared buffer while it lives (the zygote waits for
    // it): its pages are already there, so the samples cost no page faults, nor freeing at exit.
    if (shared_samples) {
        audio.samples = shared_samples;
        audio.capacity = shared_capacity;
    }
}

void audio_rest(void) {
    if (audio.samples && audio.samples != shared_samples) free(audio.samples);
    audio.samples = NULL;
    audio.capacity = 0;
    free(audio.marks);
    audio.marks = NULL;
    audio.mark_capacity = 0;
    audio.mark_count = 0;
    if (shared_samples) madvise(shared_samples, shared_capacity * sizeof *shared_samples, MADV_DONTNEED);
}

void audio_set_rate(int32_t sample_rate) {
    audio.sample_rate = sample_rate;
}

void audio_reset(void) {
    audio.count = 0;
    audio.mark_count = 0;
}

uint64_t audio_sample_count(void) {
    return audio.count;
}

int audio_is_too_long(void) {
    return audio.too_long;
}

void audio_set_too_long(void) {
    audio.too_long = 1;
}

int audio_append(const int16_t *samples, uint64_t count) {
    if (audio.count + count > audio.limit) {
        audio.too_long = 1;
        return -1;
    }
    audio.samples = grow(audio.samples, &audio.capacity, audio.count + count, sizeof *audio.samples);
    memcpy(audio.samples + audio.count, samples, (size_t)count * sizeof *samples);
    audio.count += count;
    return 0;
}

int audio_append_silence(uint64_t count) {
    if (audio.count + count > audio.limit) {
        audio.too_long = 1;
        return -1;
    }
    audio.samples = grow(audio.samples, &audio.capacity, audio.count + count, sizeof *audio.samples);
    memset(audio.samples + audio.count, 0, (size_t)count * sizeof *audio.samples);
    audio.count += count;
    return 0;
}

void audio_mark(int32_t text_offset, int32_t text_length) {
    audio_mark_at(text_offset, text_length, (int64_t)audio.count);
}

void audio_mark_at(int32_t text_offset, int32_t text_length, int64_t sample) {
    uint64_t capacity = audio.mark_capacity;
    audio.marks = grow(audio.marks, &capacity, (uint64_t)audio.mark_count + 1, sizeof *audio.marks);
    audio.mark_capacity = (uint32_t)capacity;
    audio.marks[audio.mark_count++] = (narrate_worker_mark){
        .text_offset = text_offset,
        .text_length = text_length,
        .sample_offset = sample,
    };
}

static void put32(uint8_t *at, uint32_t value) {
    for (int index = 0; index < 4; index++) at[index] = (uint8_t)(value >> (8 * index));
}

static void put64(uint8_t *at, uint64_t value) {
    for (int index = 0; index < 8; index++) at[index] = (uint8_t)(value >> (8 * index));
}

// Writes the audio as a cache entry (AudioCacheEntryCodec's format) to the new file `path`:
// one writev from the buffers the audio is in, with its CRC-32C. 0 on success; on failure the
// file is removed and the reason is on standard error.
static int write_entry(const char *path, const uint8_t key[NARRATE_WORKER_ENTRY_KEY_BYTES], const char *entry_text) {
    _Static_assert(sizeof(narrate_worker_mark) == 16, "a mark is 16 bytes in the entry format");
    uint8_t header[56];
    memcpy(header, NARRATE_WORKER_ENTRY_MAGIC, 4);
    put32(header + 4, NARRATE_WORKER_ENTRY_VERSION);
    memcpy(header + 8, key, NARRATE_WORKER_ENTRY_KEY_BYTES);
    put32(header + 40, (uint32_t)audio.sample_rate);
    put64(header + 44, audio.count);
    put32(header + 52, audio.mark_count);
    size_t mark_bytes = (size_t)audio.mark_count * sizeof *audio.marks;
    size_t sample_bytes = (size_t)audio.count * sizeof *audio.samples;
    // Marks and samples are written in the host's order, which must be the format's little-endian.
    uint32_t crc = narrate_crc32c(0, header, sizeof header);
    crc = narrate_crc32c(crc, audio.marks, mark_bytes);
    crc = narrate_crc32c(crc, audio.samples, sample_bytes);
    uint8_t trailer[4];
    put32(trailer, crc);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) {
        fprintf(stderr, "narrate-worker: cannot create the cache entry %s: %s\n", path, strerror(errno));
        return -1;
    }
    struct iovec parts[4] = {
        {header, sizeof header},
        {audio.marks, mark_bytes},
        {audio.samples, sample_bytes},
        {trailer, sizeof trailer},
    };
    if (torn_entry_marker && strstr(entry_text, torn_entry_marker)) {
        // Test hook: the child dies with half its entry written.
        parts[2].iov_len /= 2;
        write_all(fd, parts, 3);
        abort();
    }
    int failed = write_all(fd, parts, 4);
    int saved = errno;
    if (close(fd) != 0 && !failed) {
        failed = -1;
        saved = errno;
    }
    if (failed) {
        fprintf(stderr, "narrate-worker: cannot write the cache entry %s: %s\n", path, strerror(saved));
        unlink(path);
        return -1;
    }
    return 0;
}

const char *torn_entry_marker;

int audio_answer(const narrate_worker_request *request, int32_t failure, const char *entry_path, const char *text) {
    if (audio.too_long) return write_frame(NARRATE_WORKER_TOO_LONG, request->id, audio.sample_rate, 0, NULL, 0, 0, NULL, 0, 0);
    if (failure != 0) return write_frame(NARRATE_WORKER_SYNTH_FAILED, request->id, audio.sample_rate, failure, NULL, 0, 0, NULL, 0, 0);
    if (entry_path && *entry_path && write_entry(entry_path, request->entry_key, text) == 0) {
        return write_frame(NARRATE_WORKER_STORED, request->id, audio.sample_rate, 0, NULL, 0, audio.count,
                           audio.marks, (size_t)audio.mark_count * sizeof *audio.marks, audio.mark_count);
    }
    return write_frame(NARRATE_WORKER_AUDIO, request->id, audio.sample_rate, 0,
                       audio.samples, audio.count * sizeof *audio.samples, audio.count,
                       audio.marks, (size_t)audio.mark_count * sizeof *audio.marks, audio.mark_count);
}
