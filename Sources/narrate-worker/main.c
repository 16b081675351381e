// narrate-worker: eSpeak NG in a process of its own, one forked child per utterance.
//
// libespeak-ng carries state from one synthesis to the next (the pitch "flutter" counter and
// more), so a process that synthesizes twice does not give the same samples twice; and a
// process that loads voice after voice drifts too (after some 70 loads, its children's audio
// differs). So this worker keeps three levels of processes, none of which synthesizes twice:
// - the worker itself initializes eSpeak and never loads a voice;
// - for each voice setting in use it forks a zygote, which loads that voice once;
// - for each text the zygote forks a child, which synthesizes that one text (starting from
//   the state a fresh `espeak-ng -w` starts from: initialized, one voice loaded), writes the
//   audio to standard output and exits.
// A child that crashes (eSpeak 1.51 aborts on some input) or runs past its deadline costs that
// one request: the zygote reports it and goes on. Every process is single-threaded, so
// forking is safe. Requests are served one at a time, in order.
//
// Protocol: narrate_worker_protocol.h. Requests on standard input, frames on standard output,
// diagnostics on standard error. It exits at the end of its input.

#define _GNU_SOURCE  // F_SETPIPE_SZ

#include <espeak-ng/speak_lib.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "narrate_worker_protocol.h"
#include <sys/prctl.h>

// ---- Output -------------------------------------------------------------------------------

static int write_all(int fd, struct iovec *parts, int count) {
    while (count > 0) {
        ssize_t written = writev(fd, parts, count);
        if (written < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        while (count > 0 && (size_t)written >= parts->iov_len) {
            written -= (ssize_t)parts->iov_len;
            parts++;
            count--;
        }
        if (count > 0) {
            parts->iov_base = (char *)parts->iov_base + written;
            parts->iov_len -= (size_t)written;
        }
    }
    return 0;
}

static int write_frame(uint32_t status, uint64_t id, int32_t sample_rate, int32_t detail,
                       const void *first, size_t first_length, uint64_t sample_count,
                       const void *second, size_t second_length, uint32_t mark_count) {
    uint64_t payload = (uint64_t)first_length + second_length;
    narrate_worker_frame frame = {
        .magic = NARRATE_WORKER_FRAME_MAGIC,
        .status = status,
        .id = id,
        .sample_rate = sample_rate,
        .detail = detail,
        .sample_count = sample_count,
        .mark_count = mark_count,
        .payload_length_high = (uint32_t)(payload >> 32),
        .payload_length_low = (uint32_t)payload,
    };
    struct iovec parts[3] = {
        {&frame, sizeof frame},
        {(void *)first, first_length},
        {(void *)second, second_length},
    };
    return write_all(STDOUT_FILENO, parts, 3);
}

// The worker's last word on a request; `note` (may be NULL) is the last line the child wrote
// to its standard error, which says why it failed ("*** buffer overflow detected ***").
static void final_frame(uint64_t id, uint32_t status, int32_t detail, const char *note) {
    size_t length = note ? strlen(note) : 0;
    if (write_frame(status, id, 0, detail, note, length, 0, NULL, 0, 0) != 0) _exit(0);  // client gone
}

// The last non-empty line of what a child wrote to its standard error.
typedef struct {
    char line[256];
    size_t length;
    char last[256];
} error_tail;

static void error_tail_feed(error_tail *tail, const char *bytes, size_t count) {
    for (size_t index = 0; index < count; index++) {
        char byte = bytes[index];
        if (byte == '\n' || byte == '\r') {
            if (tail->length > 0) {
                memcpy(tail->last, tail->line, tail->length);
                tail->last[tail->length] = 0;
                tail->length = 0;
            }
        } else if (tail->length < sizeof tail->line - 1) {
            tail->line[tail->length++] = (byte >= 0 && byte < 0x20) ? ' ' : byte;
        }
    }
}

static const char *error_tail_finish(error_tail *tail) {
    error_tail_feed(tail, "\n", 1);
    return tail->last[0] ? tail->last : NULL;
}

// Reads what is there; 0 at end of input.
static ssize_t drain(int fd, error_tail *tail) {
    char buffer[4096];
    ssize_t count;
    do {
        count = read(fd, buffer, sizeof buffer);
    } while (count < 0 && errno == EINTR);
    if (count > 0) error_tail_feed(tail, buffer, (size_t)count);
    return count;
}

// ---- Input --------------------------------------------------------------------------------

// 0: read `length` bytes; 1: end of input before any byte; -1: error or a partial read.
static int read_exactly(int fd, void *buffer, size_t length) {
    size_t done = 0;
    while (done < length) {
        ssize_t count = read(fd, (char *)buffer + done, length - done);
        if (count < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        if (count == 0) return done == 0 ? 1 : -1;
        done += (size_t)count;
    }
    return 0;
}

// ---- The child: one synthesis --------------------------------------------------------------

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

static void *grow(void *buffer, uint64_t *capacity, uint64_t needed, size_t element) {
    if (needed <= *capacity) return buffer;
    uint64_t next = *capacity ? *capacity : 4096;
    while (next < needed) next *= 2;
    void *grown = realloc(buffer, next * element);
    if (!grown) {
        fprintf(stderr, "narrate-worker: out of memory for %llu samples\n", (unsigned long long)needed);
        _exit(3);
    }
    *capacity = next;
    return grown;
}

static int synth_callback(short *wave, int count, espeak_EVENT *events) {
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

// Test hooks: a child whose text contains $NARRATE_WORKER_CRASH_ON aborts, as eSpeak does on
// some input; one whose text contains $NARRATE_WORKER_HANG_ON never finishes.
static const char *crash_marker;
static const char *hang_marker;

static void run_synthesis(const narrate_worker_request *request, const char *text, int sample_rate, int done_fd) {
    if (crash_marker && strstr(text, crash_marker)) abort();
    if (hang_marker && strstr(text, hang_marker)) {
        for (;;) pause();
    }
    audio.limit = request->max_samples;
    audio.sample_rate = sample_rate;
    unsigned int flags = espeakCHARS_UTF8 | espeakENDPAUSE;
    if (request->flags & NARRATE_WORKER_FLAG_SSML) flags |= espeakSSML;
    if (request->flags & NARRATE_WORKER_FLAG_PHONEMES) flags |= espeakPHONEMES;
    espeak_ERROR status = espeak_Synth(text, request->text_length + 1, 0, POS_CHARACTER, 0, flags, NULL, NULL);
    close(done_fd);  // synthesis is over: the worker stops the deadline clock
    int failed;
    if (audio.too_long) {
        failed = write_frame(NARRATE_WORKER_TOO_LONG, request->id, audio.sample_rate, 0, NULL, 0, 0, NULL, 0, 0);
    } else if (status != EE_OK) {
        failed = write_frame(NARRATE_WORKER_SYNTH_FAILED, request->id, audio.sample_rate, (int32_t)status, NULL, 0, 0, NULL, 0, 0);
    } else {
        failed = write_frame(NARRATE_WORKER_AUDIO, request->id, audio.sample_rate, 0,
                             audio.samples, audio.count * sizeof *audio.samples, audio.count,
                             audio.marks, (size_t)audio.mark_count * sizeof *audio.marks, audio.mark_count);
    }
    _exit(failed ? 1 : 0);
}

// One voice a line: name, identifier, gender (0 unknown, 1 male, 2 female), languages
// separated by commas; fields separated by 0x1F.
static void run_listing(const narrate_worker_request *request, int done_fd) {
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

// ---- Voices -------------------------------------------------------------------------------

typedef struct {
    char voice[NARRATE_WORKER_MAX_VOICE_BYTES + 1];
    int32_t rate, volume, pitch, word_gap;
} voice_settings;

static voice_settings settings_of(const narrate_worker_request *request, const char *voice) {
    voice_settings settings;
    memset(&settings, 0, sizeof settings);
    memcpy(settings.voice, voice, strlen(voice) + 1);
    settings.rate = request->rate;
    settings.volume = request->volume;
    settings.pitch = request->pitch;
    settings.word_gap = request->word_gap;
    return settings;
}

// As the espeak-ng program does: a voice name first, else the name as a language; then the
// parameters. Returns DONE, VOICE_NOT_FOUND or BAD_PARAMETER (with `detail`).
static uint32_t apply_voice(const voice_settings *settings, int32_t *detail) {
    espeak_ERROR status = espeak_SetVoiceByName(settings->voice);
    if (status != EE_OK) {
        espeak_VOICE properties;
        memset(&properties, 0, sizeof properties);
        properties.languages = settings->voice;
        status = espeak_SetVoiceByProperties(&properties);
    }
    if (status != EE_OK) return NARRATE_WORKER_VOICE_NOT_FOUND;
    const struct { espeak_PARAMETER parameter; int32_t value; } parameters[] = {
        {espeakRATE, settings->rate}, {espeakVOLUME, settings->volume}, {espeakPITCH, settings->pitch}, {espeakWORDGAP, settings->word_gap},
    };
    for (int index = 0; index < 4; index++) {
        if (espeak_SetParameter(parameters[index].parameter, parameters[index].value, 0) != EE_OK) {
            *detail = index + 1;
            return NARRATE_WORKER_BAD_PARAMETER;
        }
    }
    return NARRATE_WORKER_DONE;
}

// ---- Children -------------------------------------------------------------------------------

static int64_t now_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

// Asks the kernel to SIGKILL this (just forked) process when its parent dies, and exits
// now if the parent is already gone (it may have died before the request took effect).
static void die_with_parent(pid_t parent) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(1);
}

// Forks the child for `request`, waits for it (killing it at the deadline) and writes the
// final frame.
static void serve(const narrate_worker_request *request, const char *text, int sample_rate) {
    int done[2], errors[2];
    if (pipe(done) != 0) {
        final_frame(request->id, NARRATE_WORKER_EXITED, 126, "no pipe for the child");
        return;
    }
    if (pipe(errors) != 0) {
        close(done[0]);
        close(done[1]);
        final_frame(request->id, NARRATE_WORKER_EXITED, 126, "no pipe for the child");
        return;
    }
    fflush(stderr);
    pid_t zygote_pid = getpid();
    pid_t child = fork();
    if (child < 0) {
        close(done[0]);
        close(done[1]);
        close(errors[0]);
        close(errors[1]);
        final_frame(request->id, NARRATE_WORKER_EXITED, 127, "fork failed");
        return;
    }
    if (child == 0) {
        // Killed with its zygote, so that no orphan holds the client's pipe open.
        die_with_parent(zygote_pid);
        close(done[0]);
        close(errors[0]);
        close(STDIN_FILENO);
        dup2(errors[1], STDERR_FILENO);
        close(errors[1]);
        // A crash ends the child at once, with no crash report of the runtime this program
        // was linked with: the worker reports it in one line.
        const int fatal[] = {SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP};
        for (size_t index = 0; index < sizeof fatal / sizeof *fatal; index++) signal(fatal[index], SIG_DFL);
        if (request->kind == NARRATE_WORKER_SYNTHESIZE) run_synthesis(request, text, sample_rate, done[1]);
        run_listing(request, done[1]);
    }
    close(done[1]);
    close(errors[1]);
    // The child closes `done` when its work is over (or dies): then only its answer is left
    // to write, which the client reads as it comes. Meanwhile its standard error is kept.
    error_tail tail = {0};
    int errors_open = 1;
    int64_t deadline = now_ms() + (int64_t)request->deadline_ms;
    int timed_out = 0;
    for (;;) {
        int64_t left = deadline - now_ms();
        if (left <= 0) {
            timed_out = 1;
            break;
        }
        struct pollfd watch[2] = {{.fd = done[0], .events = POLLIN}, {.fd = errors_open ? errors[0] : -1, .events = POLLIN}};
        int ready = poll(watch, 2, (int)(left > 60000 ? 60000 : left));
        if (ready < 0 && errno != EINTR) break;
        if (ready <= 0) continue;
        if (watch[1].revents) errors_open = drain(errors[0], &tail) != 0;
        if (watch[0].revents) break;  // POLLHUP (or stray data): the child is done
    }
    close(done[0]);
    if (timed_out) kill(child, SIGKILL);
    int status = 0;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {}
    while (errors_open && drain(errors[0], &tail) > 0) {}
    close(errors[0]);
    const char *note = error_tail_finish(&tail);
    if (timed_out) {
        final_frame(request->id, NARRATE_WORKER_TIMED_OUT, (int32_t)request->deadline_ms, NULL);
    } else if (WIFSIGNALED(status)) {
        final_frame(request->id, NARRATE_WORKER_CRASHED, WTERMSIG(status), note);
    } else if (WEXITSTATUS(status) != 0) {
        final_frame(request->id, NARRATE_WORKER_EXITED, WEXITSTATUS(status), note);
    } else {
        final_frame(request->id, NARRATE_WORKER_DONE, 0, NULL);
    }
}

// ---- Zygotes: one process per voice setting ---------------------------------------------------

#define MAX_ZYGOTES 4

typedef struct {
    int used;
    voice_settings settings;
    pid_t pid;
    int requests;  // write end: requests for it to serve
    int replies;   // read end: a reply (status, detail) when it has served one
    uint64_t last_used;
} zygote;

static zygote zygotes[MAX_ZYGOTES];
static uint64_t use_counter;

static int read_reply(int fd, int32_t reply[2]) {
    return read_exactly(fd, reply, 2 * sizeof *reply);
}

static void write_reply(int fd, int32_t status, int32_t detail) {
    int32_t reply[2] = {status, detail};
    struct iovec part = {reply, sizeof reply};
    if (write_all(fd, &part, 1) != 0) _exit(0);  // the worker is gone
}

static void zygote_end(zygote *ended) {
    close(ended->requests);
    close(ended->replies);
    while (waitpid(ended->pid, NULL, 0) < 0 && errno == EINTR) {}
    ended->used = 0;
}

// The zygote's life: load the voice once, say how that went, then serve requests one at a
// time until the worker closes its input.
static void zygote_main(int requests, int replies, const voice_settings *settings, int sample_rate) {
    int32_t detail = 0;
    uint32_t applied = apply_voice(settings, &detail);
    write_reply(replies, (int32_t)applied, detail);
    if (applied != NARRATE_WORKER_DONE) _exit(0);
    char *text = NULL;
    size_t capacity = 0;
    for (;;) {
        narrate_worker_request request;
        if (read_exactly(requests, &request, sizeof request) != 0) _exit(0);
        size_t needed = (size_t)request.text_length + 1;
        if (needed > capacity) {
            free(text);
            capacity = needed < 65536 ? 65536 : needed;
            text = malloc(capacity);
            if (!text) _exit(3);
        }
        if (read_exactly(requests, text, request.text_length) != 0) _exit(0);
        text[request.text_length] = 0;
        serve(&request, text, sample_rate);
        write_reply(replies, NARRATE_WORKER_DONE, 0);
    }
}

// The zygote for `settings`, started if need be (the least recently used one ends when all
// places are taken). NULL when the voice cannot be set: `failure` and `detail` say why.
static zygote *zygote_for(const voice_settings *settings, int sample_rate, uint32_t *failure, int32_t *detail) {
    zygote *free_place = NULL, *oldest = NULL;
    for (int index = 0; index < MAX_ZYGOTES; index++) {
        zygote *candidate = &zygotes[index];
        if (!candidate->used) {
            if (!free_place) free_place = candidate;
            continue;
        }
        if (memcmp(&candidate->settings, settings, sizeof *settings) == 0) return candidate;
        if (!oldest || candidate->last_used < oldest->last_used) oldest = candidate;
    }
    zygote *place = free_place;
    if (!place) {
        zygote_end(oldest);
        place = oldest;
    }
    int requests[2], replies[2];
    if (pipe(requests) != 0) {
        *failure = NARRATE_WORKER_EXITED;
        *detail = 126;
        return NULL;
    }
    if (pipe(replies) != 0) {
        close(requests[0]);
        close(requests[1]);
        *failure = NARRATE_WORKER_EXITED;
        *detail = 126;
        return NULL;
    }
    fflush(stderr);
    pid_t worker_pid = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        close(requests[0]);
        close(requests[1]);
        close(replies[0]);
        close(replies[1]);
        *failure = NARRATE_WORKER_EXITED;
        *detail = 127;
        return NULL;
    }
    if (pid == 0) {
        // Killed with the worker (SIGKILL, OOM): its children then die with it, and the
        // client sees the end of the worker's output at once instead of waiting on orphans.
        die_with_parent(worker_pid);
        // The zygote holds no end of another zygote's pipes (they must see their end of
        // input when the worker closes it) and does not read the worker's input.
        close(STDIN_FILENO);
        for (int index = 0; index < MAX_ZYGOTES; index++) {
            if (zygotes[index].used) {
                close(zygotes[index].requests);
                close(zygotes[index].replies);
            }
        }
        close(requests[1]);
        close(replies[0]);
        zygote_main(requests[0], replies[1], settings, sample_rate);
        _exit(0);
    }
    close(requests[0]);
    close(replies[1]);
    *place = (zygote){.used = 1, .settings = *settings, .pid = pid, .requests = requests[1], .replies = replies[0]};
    int32_t reply[2];
    if (read_reply(place->replies, reply) != 0) {
        zygote_end(place);
        *failure = NARRATE_WORKER_EXITED;
        *detail = 1;
        return NULL;
    }
    if ((uint32_t)reply[0] != NARRATE_WORKER_DONE) {
        zygote_end(place);
        *failure = (uint32_t)reply[0];
        *detail = reply[1];
        return NULL;
    }
    return place;
}

// Hands a synthesis to the zygote of its voice and waits until it has answered.
static void synthesize(const narrate_worker_request *request, const char *voice, const char *text, int sample_rate) {
    voice_settings settings = settings_of(request, voice);
    uint32_t failure = 0;
    int32_t detail = 0;
    zygote *server = zygote_for(&settings, sample_rate, &failure, &detail);
    if (!server) {
        final_frame(request->id, failure, detail, NULL);
        return;
    }
    server->last_used = ++use_counter;
    struct iovec parts[2] = {{(void *)request, sizeof *request}, {(void *)text, request->text_length}};
    int32_t reply[2];
    if (write_all(server->requests, parts, 2) != 0 || read_reply(server->replies, reply) != 0) {
        // The zygote died (it never should: it only forks and waits).
        zygote_end(server);
        final_frame(request->id, NARRATE_WORKER_EXITED, 2, "the voice process ended unexpectedly");
    }
}

static const char *nonempty_environment(const char *name) {
    const char *value = getenv(name);
    return value && *value ? value : NULL;
}

int main(void) {
    // A client that goes away must end the worker with a write error, not a signal.
    signal(SIGPIPE, SIG_IGN);
    // A chunk's audio is a few megabytes: a larger pipe means fewer switches between the
    // child writing it and the client reading it (where the system allows; 1 MiB by default).
    fcntl(STDOUT_FILENO, F_SETPIPE_SZ, 1 << 20);
    crash_marker = nonempty_environment("NARRATE_WORKER_CRASH_ON");
    hang_marker = nonempty_environment("NARRATE_WORKER_HANG_ON");

    int sample_rate = espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, NULL, espeakINITIALIZE_DONT_EXIT);
    if (sample_rate <= 0) {
        const char *reason = "espeak_Initialize failed (is espeak-ng-data installed?)";
        write_frame(NARRATE_WORKER_INIT_FAILED, 0, 0, sample_rate, reason, strlen(reason), 0, NULL, 0, 0);
        return 1;
    }
    espeak_SetSynthCallback(synth_callback);
    const char *version = espeak_Info(NULL);
    if (!version) version = "unknown";
    if (write_frame(NARRATE_WORKER_HELLO, 0, sample_rate, sample_rate, version, strlen(version), 0, NULL, 0, 0) != 0) return 0;

    char *text = NULL;
    size_t text_capacity = 0;
    for (;;) {
        narrate_worker_request request;
        int status = read_exactly(STDIN_FILENO, &request, sizeof request);
        if (status == 1) {
            // End of input: the client is done. The zygotes end at the end of theirs.
            for (int index = 0; index < MAX_ZYGOTES; index++) {
                if (zygotes[index].used) zygote_end(&zygotes[index]);
            }
            return 0;
        }
        if (status != 0 || request.magic != NARRATE_WORKER_REQUEST_MAGIC ||
            request.voice_length > NARRATE_WORKER_MAX_VOICE_BYTES || request.text_length > NARRATE_WORKER_MAX_TEXT_BYTES) {
            fprintf(stderr, "narrate-worker: malformed request; exiting\n");
            return 2;
        }
        char voice[NARRATE_WORKER_MAX_VOICE_BYTES + 1];
        size_t needed = (size_t)request.text_length + 1;
        if (needed > text_capacity) {
            free(text);
            text_capacity = needed < 65536 ? 65536 : needed;
            text = malloc(text_capacity);
            if (!text) {
                fprintf(stderr, "narrate-worker: out of memory\n");
                return 3;
            }
        }
        if (read_exactly(STDIN_FILENO, voice, request.voice_length) != 0 ||
            read_exactly(STDIN_FILENO, text, request.text_length) != 0) {
            fprintf(stderr, "narrate-worker: truncated request; exiting\n");
            return 2;
        }
        voice[request.voice_length] = 0;
        text[request.text_length] = 0;
        if (request.kind == NARRATE_WORKER_SYNTHESIZE) {
            synthesize(&request, voice, text, sample_rate);
        } else {
            serve(&request, text, sample_rate);  // a listing: a child of the worker itself
        }
    }
}
