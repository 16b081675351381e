#ifndef NARRATE_CESPEAKNG_SHIM_H
#define NARRATE_CESPEAKNG_SHIM_H

#include <espeak-ng/speak_lib.h>

// Flag macros are not imported as typed constants everywhere; expose them as functions.
static inline unsigned int narrate_espeak_flags_utf8(void) { return espeakCHARS_UTF8; }
static inline unsigned int narrate_espeak_flag_ssml(void) { return espeakSSML; }
static inline unsigned int narrate_espeak_flag_endpause(void) { return espeakENDPAUSE; }
static inline int narrate_espeak_initialize_dont_exit(void) { return espeakINITIALIZE_DONT_EXIT; }

#endif
