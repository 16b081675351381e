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
// zygotes for it are forked from one template that loaded it (hub.c).
//
// The jobs, a file each: frames.c (output and input), synthesis.c (the child's work),
// audio.c (the child's audio and its answer), engine.h and engines.c (the engines' interface
// and its dispatch) with an engine a file: espeak.c, piper.c and kokoro.c; voices.c (a voice
// setting), children.c (a child per request: fork, deadline, wait), zygotes.c (a zygote per
// voice setting), hub.c (the templates a pool's workers share), and here the worker's request loop.
//
// Protocol: narrate_worker_protocol.h. Requests on standard input, frames on standard output,
// diagnostics on standard error. It exits at the end of its input.

#define _GNU_SOURCE  // F_SETPIPE_SZ

#include <espeak-ng/speak_lib.h>

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "children.h"
#include "frames.h"
#include "narrate_worker_protocol.h"
#include "audio.h"
#include "espeak.h"
#include "hub.h"
#include "synthesis.h"
#include "zygotes.h"

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
    hooks_once_path = nonempty_environment("NARRATE_WORKER_HOOKS_ONCE");
    torn_entry_marker = nonempty_environment("NARRATE_WORKER_TEAR_ENTRY_ON");
    child_per_text = nonempty_environment("NARRATE_WORKER_CHILD_PER_TEXT") != NULL;
    hub_name = nonempty_environment("NARRATE_WORKER_HUB");

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
        if (request.kind == NARRATE_WORKER_SYNTHESIZE || request.kind == NARRATE_WORKER_PHONEMIZE) {
            synthesize(&request, voice, text, entry_path, sample_rate);
        } else {
            serve(&request, text, NULL, sample_rate);  // a listing: a child of the worker itself
        }
    }
}
