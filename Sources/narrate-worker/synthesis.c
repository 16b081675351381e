// The child's work: one synthesis of one text (or one listing of the voices), collected in
// memory and written as one frame, then the child exits. It runs in a forked child only, so
// the state eSpeak leaves behind is thrown away with the process.

#include <espeak-ng/speak_lib.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "frames.h"
#include "narrate_system.h"
#include "piper.h"
#include "synthesis.h"

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

int synth_callback(short *wave, int count, espeak_EVENT *events) {
    for (espeak_EVENT *event = events; event && event->type != espeakEVENT_LIST_TERMINATED; event++) {
        if (event->type == espeakEVENT_WORD && event->length > 0) {
            uint64_t capacity = audio.mark_capacity;
            audio.marks = grow(audio.marks, &capacity, (uint64_t)audio.mark_count + 1, sizeof *audio.marks);
            audio.mark_capacity = (uint32_t)capacity;
            // text_position is 1-based, in Unicode scalars; `sample` counts from the start.
            audio.marks[audio.mark_count++] = (narrate_worker_mark){
                .text_offset = event->text_position - 1,
                .text_length = event->length,
                .sample_offset = event->sample,
            };
        } else if (event->type == espeakEVENT_SAMPLERATE) {
            audio.sample_rate = event->id.number;
        }
    }
    if (wave && count > 0) {
        if (audio.count + (uint64_t)count > audio.limit) {
            audio.too_long = 1;
            return 1;  // stop synthesis
        }
        audio.samples = grow(audio.samples, &audio.capacity, audio.count + (uint64_t)count, sizeof *audio.samples);
        memcpy(audio.samples + audio.count, wave, (size_t)count * sizeof *wave);
        audio.count += (uint64_t)count;
    }
    return 0;
}

// ---- The child's audio, for an engine other than eSpeak's callback (a Piper voice) --------

int worker_log_fd = STDERR_FILENO;

int warning_fd(void) {
    return worker_log_fd;
}

void read_markup_as_asked(const narrate_worker_request *request) {
    if (!(request->flags & (NARRATE_WORKER_FLAG_SSML | NARRATE_WORKER_FLAG_PHONEMES))) return;
    unsigned int flags = espeakCHARS_UTF8;
    if (request->flags & NARRATE_WORKER_FLAG_SSML) flags |= espeakSSML;
    if (request->flags & NARRATE_WORKER_FLAG_PHONEMES) flags |= espeakPHONEMES;
    espeak_Synth("", 1, 0, POS_CHARACTER, 0, flags, NULL, NULL);
    audio_reset();
}

void audio_set_rate(int32_t sample_rate) {
    audio.sample_rate = sample_rate;
}

void audio_reset(void) {
    audio.count = 0;
    audio.mark_count = 0;
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
    uint64_t capacity = audio.mark_capacity;
    audio.marks = grow(audio.marks, &capacity, (uint64_t)audio.mark_count + 1, sizeof *audio.marks);
    audio.mark_capacity = (uint32_t)capacity;
    audio.marks[audio.mark_count++] = (narrate_worker_mark){
        .text_offset = text_offset,
        .text_length = text_length,
        .sample_offset = (int64_t)audio.count,
    };
}

// Test hooks: a child whose text contains $NARRATE_WORKER_CRASH_ON aborts, as eSpeak does on
// some input; one whose text contains $NARRATE_WORKER_HANG_ON never finishes; one whose text
// contains $NARRATE_WORKER_TEAR_ENTRY_ON aborts with half its cache entry written.
const char *crash_marker;
const char *hang_marker;
const char *torn_entry_marker;

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


void run_synthesis(const narrate_worker_request *request, const char *text, const char *entry_path, int sample_rate, int done_fd) {
    if (crash_marker && strstr(text, crash_marker)) abort();
    if (hang_marker && strstr(text, hang_marker)) {
        for (;;) pause();
    }
    audio.limit = request->max_samples;
    audio.sample_rate = sample_rate;
    // Only this child writes the zygote's shared buffer while it lives (the zygote waits for
    // it): its pages are already there, so the samples cost no page faults, nor freeing at exit.
    if (shared_samples) {
        audio.samples = shared_samples;
        audio.capacity = shared_capacity;
    }
    int32_t failure = 0;
    if (piper_loaded()) {
        uint32_t status = piper_synthesize(request, text, &failure);
        if (status == NARRATE_WORKER_TOO_LONG) audio.too_long = 1;
        // The reason is on standard error: the worker reports its last line with the exit.
        if (status == NARRATE_WORKER_SYNTH_FAILED) _exit(4);
    } else {
        unsigned int flags = espeakCHARS_UTF8 | espeakENDPAUSE;
        if (request->flags & NARRATE_WORKER_FLAG_SSML) flags |= espeakSSML;
        if (request->flags & NARRATE_WORKER_FLAG_PHONEMES) flags |= espeakPHONEMES;
        espeak_ERROR status = espeak_Synth(text, request->text_length + 1, 0, POS_CHARACTER, 0, flags, NULL, NULL);
        if (status != EE_OK) failure = (int32_t)status;
    }
    close(done_fd);  // synthesis is over: the worker stops the deadline clock
    int failed;
    if (audio.too_long) {
        failed = write_frame(NARRATE_WORKER_TOO_LONG, request->id, audio.sample_rate, 0, NULL, 0, 0, NULL, 0, 0);
    } else if (failure != 0) {
        failed = write_frame(NARRATE_WORKER_SYNTH_FAILED, request->id, audio.sample_rate, failure, NULL, 0, 0, NULL, 0, 0);
    } else if (entry_path && *entry_path && write_entry(entry_path, request->entry_key, text) == 0) {
        failed = write_frame(NARRATE_WORKER_STORED, request->id, audio.sample_rate, 0, NULL, 0, audio.count,
                             audio.marks, (size_t)audio.mark_count * sizeof *audio.marks, audio.mark_count);
    } else {
        failed = write_frame(NARRATE_WORKER_AUDIO, request->id, audio.sample_rate, 0,
                             audio.samples, audio.count * sizeof *audio.samples, audio.count,
                             audio.marks, (size_t)audio.mark_count * sizeof *audio.marks, audio.mark_count);
    }
    _exit(failed ? 1 : 0);
}

// One voice a line: name, identifier, gender (0 unknown, 1 male, 2 female), languages
// separated by commas; fields separated by 0x1F.
void run_listing(const narrate_worker_request *request, int done_fd) {
    espeak_VOICE spec;
    memset(&spec, 0, sizeof spec);
    spec.languages = "variant";
    const espeak_VOICE **voices = espeak_ListVoices(request->kind == NARRATE_WORKER_LIST_VARIANTS ? &spec : NULL);
    size_t capacity = 4096, length = 0;
    char *text = malloc(capacity);
    for (const espeak_VOICE **cursor = voices; text && cursor && *cursor; cursor++) {
        const espeak_VOICE *voice = *cursor;
        char line[1024];
        int used = snprintf(line, sizeof line, "%s\x1f%s\x1f%d\x1f", voice->name ? voice->name : "",
                            voice->identifier ? voice->identifier : "", voice->gender);
        // languages: (priority byte, NUL-terminated name) pairs, ended by an empty name.
        const char *language = voice->languages;
        int first = 1;
        while (language && *language && used > 0 && (size_t)used < sizeof line - 64) {
            language++;
            if (!*language) break;
            used += snprintf(line + used, sizeof line - (size_t)used, "%s%s", first ? "" : ",", language);
            first = 0;
            language += strlen(language) + 1;
        }
        if (used <= 0 || (size_t)used >= sizeof line - 1) continue;
        line[used++] = '\n';
        if (length + (size_t)used > capacity) {
            while (length + (size_t)used > capacity) capacity *= 2;
            text = realloc(text, capacity);
            if (!text) break;
        }
        memcpy(text + length, line, (size_t)used);
        length += (size_t)used;
    }
    close(done_fd);
    if (!text) _exit(3);
    _exit(write_frame(NARRATE_WORKER_LIST, request->id, 0, 0, text, length, 0, NULL, 0, 0) ? 1 : 0);
}

// A line of text that grows: the phonemes' answer.
typedef struct {
    char *bytes;
    size_t length, capacity;
} text_buffer;

static void text_append(text_buffer *buffer, const char *bytes, size_t length) {
    if (buffer->length + length + 1 > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity : 4096;
        while (capacity < buffer->length + length + 1) capacity *= 2;
        char *grown = realloc(buffer->bytes, capacity);
        if (!grown) _exit(3);
        buffer->bytes = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->bytes + buffer->length, bytes, length);
    buffer->length += length;
}

// The text's phonemes (see NARRATE_WORKER_PHONEMIZE): a Piper voice's sentences with their
// ids, or eSpeak's IPA clause by clause.
void run_phonemes(const narrate_worker_request *request, const char *text, int done_fd) {
    text_buffer out = {0};
    char field[64];
    if (piper_loaded()) {
        piper_phonemes(request, text, &out.bytes, &out.length);
    } else {
        read_markup_as_asked(request);
        const void *position = text;
        const char *counted = text;  // the scalars before `counted` are in `offset`
        int32_t offset = 0;
        while (position) {
            const char *before = position;
            const char *phonemes = espeak_TextToPhonemes(&position, espeakCHARS_UTF8, espeakPHONEMES_IPA);
            for (; counted < before; counted++) offset += ((unsigned char)*counted & 0xC0) != 0x80;
            int length = snprintf(field, sizeof field, "%d\x1f" "0\x1f", offset);
            text_append(&out, field, (size_t)length);
            if (phonemes) text_append(&out, phonemes, strlen(phonemes));
            text_append(&out, "\x1f\n", 2);
        }
    }
    close(done_fd);
    _exit(write_frame(NARRATE_WORKER_LIST, request->id, 0, 0, out.bytes, out.length, 0, NULL, 0, 0) ? 1 : 0);
}
