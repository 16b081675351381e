// eSpeak NG as an engine (engine.h): its voices speak through the synthesis callback, and the
// other engines phonemize with it.

#ifndef NARRATE_WORKER_ESPEAK_H
#define NARRATE_WORKER_ESPEAK_H

#include <espeak-ng/speak_lib.h>

#include "narrate_worker_protocol.h"

// Collects the audio and word marks into the child's audio; the worker hands it to
// espeak_SetSynthCallback.
int synth_callback(short *wave, int count, espeak_EVENT *events);

// Makes eSpeak read SSML and [[phoneme]] spans in what it phonemizes next, as the request asks
// (eSpeak reads them where its last synthesis was asked to: an empty one sets that up; a child
// synthesizes nothing else, and is thrown away).
void read_markup_as_asked(const narrate_worker_request *request);

// Sets eSpeak NG's voice by name, else by language, as the espeak-ng program finds it; 0 when set.
int set_espeak_voice(const char *name);

#endif
