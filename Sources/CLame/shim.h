#ifndef NARRATE_CLAME_SHIM_H
#define NARRATE_CLAME_SHIM_H

#include <stdarg.h>
#include <stdio.h>
#include <lame/lame.h>

// LAME reports through printf-style callbacks taking a va_list, which Swift cannot implement.
// Narrate reports LAME's status codes as errors instead, so the messages are dropped.
static inline void narrate_lame_ignore_report(const char *format, va_list arguments) {
    (void)format;
    (void)arguments;
}

/// Stops LAME from printing errors, debug output and messages to stderr.
static inline void narrate_lame_silence(lame_t flags) {
    lame_set_errorf(flags, narrate_lame_ignore_report);
    lame_set_debugf(flags, narrate_lame_ignore_report);
    lame_set_msgf(flags, narrate_lame_ignore_report);
}

/// Stops LAME's MP3 decoder (hip) from printing to stderr.
static inline void narrate_hip_silence(hip_t decoder) {
    hip_set_errorf(decoder, narrate_lame_ignore_report);
    hip_set_debugf(decoder, narrate_lame_ignore_report);
    hip_set_msgf(decoder, narrate_lame_ignore_report);
}

#endif
