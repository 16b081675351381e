#ifndef NARRATE_PDF_WIRE_H
#define NARRATE_PDF_WIRE_H

#include <stddef.h>

// Bumped with every change of the records; PDFWireDecoder checks it.
#define NARRATE_PDF_WIRE_VERSION "1"

/// Writes the header and bounds everything after it to `max_bytes`.
void wire_begin(size_t max_bytes);
/// Whether a record was cut for the bound (the output then stops growing).
int wire_over_limit(void);
/// Text, at most `max_length` bytes of it, tabs, newlines and other controls as spaces.
void wire_text(const char *text, size_t max_length);
/// A printf-formatted field (numbers), at most 127 bytes.
void wire_field(const char *format, ...) __attribute__((format(printf, 1, 2)));
void wire_tab(void);
void wire_end_record(void);
/// An `error` record (code, message), written even past the bound, and flushed.
void wire_error(const char *code, const char *message);

#endif
