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
// A neural voice leaves nothing behind from one text to the next (Kokoro's graph has no random
// nodes; a Piper voice's noise is made stateless, onnx_noise.h): its zygote speaks every text
// itself, its ONNX Runtime session warm, and forks no child. The worker then watches the
// zygote as a zygote watches a child: killed at the deadline, a crash reported, a new zygote
// for the next text. A pool's workers share one copy of a neural voice's loaded model: their
// zygotes for it are forked from one template that loaded it, kept by the pool's hub (hub.c):
// `narrate-worker --hub`, a process the pool starts beside its workers and ends with them, so
// that a worker that dies costs only its own text.
//
// Protocol: narrate_worker_protocol.h. Requests on standard input, frames on standard output,
// diagnostics on standard error. It exits at the end of its input (the hub too).
//
// The floors (scripts/check-worker-floors.sh checks them: a file calls only into files below
// it, never up, and no file is over 400 lines):
//
// The top: this file. It decodes a request, chooses the process model for it and wires the
//   process model to the engine interface through a table of functions (zygote_work), so that
//   no file below calls up. A request's path: decode (main) -> choose (run_request: a listing
//   goes to a child of the worker itself, a synthesis or phonemes to the zygote of its voice,
//   which the hub may fork from a template; the zygote then speaks in place or forks a child
//   per text, as its engine allows) -> run (zygote.c, children.c) -> answer (synthesis.c, audio.c).
//
// The engines' work, above the engine interface:
//   synthesis.c   the work on one request (synthesis, phonemes, a listing) and its answer
//   engines.c     the engine table (engine.h): which engine speaks a voice, the one loaded
// The engines, one a file (with what only they use):
//   espeak.c      eSpeak NG: its voices, the synthesis callback, markup; the others phonemize with it
//   piper.c       Piper voices (phonemes.c: eSpeak's phonemes as Piper's ids)
//   kokoro.c      Kokoro voices: the voice, its styles and session, a batch run through it
//   kokoro_batches.c  a text's phonemes, sentences and batches, as kokoro-onnx cuts them
//   kokoro_output.c   a batch's samples trimmed, its sentences timed, 16-bit output; phonemes lines
//   kokoro_phonemes.c, kokoro_punctuation.c, kokoro_split.c  Kokoro's text side (kokoro_text.h):
//                 phonemizer's phonemes, its punctuation kept, the batches cut
//   onnx_session.c, onnx_seed.c, onnx_noise.c, ort.c  ONNX Runtime, loaded at run time
//   audio.c       a request's audio (samples, marks) and its answer: a frame or a cache entry
//   voices.c      a voice setting, and a voice description's fields
// The process model, knowing no engine:
//   hub.c         the pool's hub: its clients (the secret first) and templates, every wait bounded
//   hub_template.c  a template: a voice loaded once, a zygote forked from it per worker
//   hub_client.c  the workers' side: a zygote asked of the hub, within a bound
//   zygote.c      a zygote per voice setting: the pipes and replies, serving requests
//   children.c    a child per request: fork, deadline, wait, the final frame
// The bottom, a job each:
//   frames.c      the wire format: frames out, exact reads in
//   engine_clock.c  the deadline's clock (time waiting for a core does not count)
//   error_tail.c  the last line a process wrote to its standard error
//   worker_log.c  where a warning the user should see goes
//   hub_sockets.c sockets and pidfds: the hub's name, peers, descriptors handed over, signals

#define _GNU_SOURCE  // F_SETPIPE_SZ

#include <espeak-ng/speak_lib.h>

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "audio.h"
#include "children.h"
#include "engine.h"
#include "engine_clock.h"
#include "espeak.h"
#include "frames.h"
#include "hub.h"
#include "hub_client.h"
#include "narrate_worker_protocol.h"
#include "synthesis.h"
#include "zygote.h"

// A benchmark's switch ($NARRATE_WORKER_CHILD_PER_TEXT): a child per text even for an engine
// that could speak in place, to compare the two (scripts/benchmark-piper.sh's page faults).
static int child_per_text;

// ---- The process model's work, given by the engines (the functions of zygote_work).

// A zygote's (or a hub template's) voice, loaded with its engine; whether it speaks in place.
static uint32_t load_voice(const voice_settings *settings, int32_t *detail, char *note, size_t note_size, int *in_place) {
    uint32_t applied = engine_load(settings, detail, note, note_size);
    *in_place = applied == NARRATE_WORKER_DONE && !child_per_text && loaded_engine()->in_place && loaded_engine()->in_place();
    return applied;
}

// An in-place zygote's work on a request: its phonemes, or its synthesis.
static int answer_in_place(const narrate_worker_request *request, const char *text, const char *entry_path, int sample_rate,
                           void (*over)(int), int fd) {
    return request->kind == NARRATE_WORKER_PHONEMIZE ? phonemes_answer(request, text, over, fd)
                                                     : synthesis_answer(request, text, entry_path, sample_rate, over, fd);
}

// A child's work on a request: a synthesis, phonemes or a listing (each exits).
static void child_work_of(const narrate_worker_request *request, const char *text, const char *entry_path, int sample_rate,
                          int done_fd) {
    if (request->kind == NARRATE_WORKER_SYNTHESIZE) run_synthesis(request, text, entry_path, sample_rate, done_fd);
    if (request->kind == NARRATE_WORKER_PHONEMIZE) run_phonemes(request, text, done_fd);
    run_listing(request, done_fd);
}

static int voice_rests(void) {
    return loaded_engine()->rest != NULL;
}

static void rest_voice(void) {
    audio_rest();
    loaded_engine()->rest();
}

static pid_t zygote_from_hub(const voice_settings *settings, int sample_rate, uint32_t deadline_ms, int requests, int replies, int *pidfd);
static void start_engines(void);

static const zygote_work work = {
    .start = start_engines,
    .load = load_voice,
    .prepare = prepare_sample_buffer,
    .answer = answer_in_place,
    .child = child_work_of,
    .rests = voice_rests,
    .rest = rest_voice,
    .shared = zygote_from_hub,
};

// A neural voice's zygote comes from the pool's hub, sharing the model loaded once.
static pid_t zygote_from_hub(const voice_settings *settings, int sample_rate, uint32_t deadline_ms, int requests, int replies, int *pidfd) {
    *pidfd = -1;
    if (child_per_text || engine_for(settings->voice) == &espeak_engine) return 0;
    return hub_zygote(settings, sample_rate, deadline_ms, requests, replies, pidfd);
}

// eSpeak NG, which every engine phonemizes with: its sample rate, or <= 0 when it cannot start.
static int start_espeak(void) {
    int sample_rate = espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, NULL, espeakINITIALIZE_DONT_EXIT);
    if (sample_rate > 0) espeak_SetSynthCallback(synth_callback);
    return sample_rate;
}

// In a hub's template (the hub itself starts no engine).
static void start_engines(void) {
    start_espeak();
}

// ---- A request: decoded, then run by the process model its kind and voice choose.

// A synthesis or phonemes goes to the zygote of its voice; a listing to a child of the worker.
static void run_request(const narrate_worker_request *request, const char *voice, const char *text, const char *entry_path,
                        int sample_rate) {
    if (request->kind == NARRATE_WORKER_SYNTHESIZE || request->kind == NARRATE_WORKER_PHONEMIZE) {
        zygote_synthesize(&work, request, voice, text, entry_path, sample_rate);
    } else {
        serve(request, text, NULL, sample_rate, child_work_of);  // a listing: a child of the worker itself
    }
}

static const char *nonempty_environment(const char *name) {
    const char *value = getenv(name);
    return value && *value ? value : NULL;
}

// `narrate-worker --hub`: the pool's hub (hub.c), named by $NARRATE_WORKER_HUB and guarded by
// $NARRATE_WORKER_HUB_SECRET, until its standard input ends.
static int hub_mode(void) {
    const char *name = nonempty_environment("NARRATE_WORKER_HUB");
    const char *secret = nonempty_environment("NARRATE_WORKER_HUB_SECRET");
    if (!name || !secret || strlen(secret) < HUB_SECRET_LEAST || strlen(secret) > HUB_SECRET_BYTES) {
        fprintf(stderr, "narrate-worker --hub: NARRATE_WORKER_HUB names the hub and NARRATE_WORKER_HUB_SECRET is its secret (%d to %d characters)\n",
                HUB_SECRET_LEAST, HUB_SECRET_BYTES);
        return 2;
    }
    return hub_main(&work, name, secret);
}

int main(int argc, char **argv) {
    // A client that goes away must end the worker with a write error, not a signal.
    signal(SIGPIPE, SIG_IGN);
    // A chunk's audio is a few megabytes: a larger pipe means fewer switches between the
    // child writing it and the client reading it (where the system allows; 1 MiB by default).
    fcntl(STDOUT_FILENO, F_SETPIPE_SZ, 1 << 20);
    crash_marker = nonempty_environment("NARRATE_WORKER_CRASH_ON");
    hang_marker = nonempty_environment("NARRATE_WORKER_HANG_ON");
    spin_marker = nonempty_environment("NARRATE_WORKER_SPIN_ON");
    hooks_once_path = nonempty_environment("NARRATE_WORKER_HOOKS_ONCE");
    torn_entry_marker = nonempty_environment("NARRATE_WORKER_TEAR_ENTRY_ON");
    child_per_text = nonempty_environment("NARRATE_WORKER_CHILD_PER_TEXT") != NULL;
    hub_name = nonempty_environment("NARRATE_WORKER_HUB");
    hub_secret = nonempty_environment("NARRATE_WORKER_HUB_SECRET");
    const char *hub_process = nonempty_environment("NARRATE_WORKER_HUB_PID");
    if (hub_process) {
        char *end = NULL;
        long value = strtol(hub_process, &end, 10);
        // A pid that is not a number: no hub, rather than a hub nobody checked.
        if (!end || *end || value <= 0 || value > INT32_MAX) hub_name = NULL;
        else hub_pid = (pid_t)value;
    }
    // How many deadlines an engine kept waiting for a core may take in all (a machine known to
    // be overloaded, or a test that overloads one on purpose).
    const char *most_waited = nonempty_environment("NARRATE_ENGINE_MOST_WAITED");
    if (most_waited && engine_clock_set_most_waited(most_waited) != 0) {
        fprintf(stderr, "narrate-worker: NARRATE_ENGINE_MOST_WAITED is a whole number from 1 to %d, not '%s'; using %d\n",
                ENGINE_CLOCK_MOST_WAITED_LIMIT, most_waited, engine_clock_most_waited);
    }
    // The least time a voice's load is given, only ever shortened (a test of a load that hangs).
    const char *least_load = nonempty_environment("NARRATE_ENGINE_LEAST_LOAD_MS");
    if (least_load && engine_clock_set_least_load(least_load) != 0) {
        fprintf(stderr, "narrate-worker: NARRATE_ENGINE_LEAST_LOAD_MS is a whole number from 1000 to %d, not '%s'; using %u\n",
                ENGINE_CLOCK_LEAST_LOAD_MS, least_load, engine_clock_least_load_ms);
    }

    if (argc > 1 && strcmp(argv[1], "--hub") == 0) return hub_mode();

    int sample_rate = start_espeak();
    if (sample_rate <= 0) {
        const char *reason = "espeak_Initialize failed (is espeak-ng-data installed?)";
        write_frame(NARRATE_WORKER_INIT_FAILED, 0, 0, sample_rate, reason, strlen(reason), 0, NULL, 0, 0);
        return 1;
    }
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
            end_zygotes();
            return 0;
        }
        if (status != 0 || request.magic != NARRATE_WORKER_REQUEST_MAGIC ||
            request.voice_length > NARRATE_WORKER_MAX_VOICE_BYTES || request.text_length > NARRATE_WORKER_MAX_TEXT_BYTES ||
            request.entry_path_length > NARRATE_WORKER_MAX_PATH_BYTES) {
            fprintf(stderr, "narrate-worker: malformed request; exiting\n");
            return 2;
        }
        char voice[NARRATE_WORKER_MAX_VOICE_BYTES + 1];
        char entry_path[NARRATE_WORKER_MAX_PATH_BYTES + 1];
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
            read_exactly(STDIN_FILENO, text, request.text_length) != 0 ||
            read_exactly(STDIN_FILENO, entry_path, request.entry_path_length) != 0) {
            fprintf(stderr, "narrate-worker: truncated request; exiting\n");
            return 2;
        }
        voice[request.voice_length] = 0;
        text[request.text_length] = 0;
        entry_path[request.entry_path_length] = 0;
        run_request(&request, voice, text, entry_path, sample_rate);
    }
}
