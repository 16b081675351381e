// The wire narrate-pdf writes: UTF-8 records, one a line, fields split by tabs, every field's
// control characters made spaces, the whole output bounded. Docs/pdf.md describes the records.
#include "wire.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t written = 0;
static size_t limit = 0;
static int over = 0;

void wire_begin(size_t max_bytes) {
    limit = max_bytes;
    written = 0;
    over = 0;
    fputs("narrate-pdf\t" NARRATE_PDF_WIRE_VERSION "\n", stdout);
}

int wire_over_limit(void) { return over; }

static void put(const char *bytes, size_t length) {
    if (over) return;
    if (written + length > limit) {
        over = 1;
        return;
    }
    fwrite(bytes, 1, length, stdout);
    written += length;
}

void wire_text(const char *text, size_t max_length) {
    char buffer[256];
    size_t used = 0, total = 0;
    for (const unsigned char *cursor = (const unsigned char *)(text ? text : ""); *cursor && total < max_length; cursor++, total++) {
        unsigned char c = *cursor;
        buffer[used++] = (c < 0x20 || c == 0x7F) ? ' ' : (char)c;
        if (used == sizeof buffer) {
            put(buffer, used);
            used = 0;
        }
    }
    // A cut inside a UTF-8 sequence leaves a broken character, which the reader replaces.
    put(buffer, used);
}

void wire_field(const char *format, ...) {
    char buffer[128];
    va_list arguments;
    va_start(arguments, format);
    int length = vsnprintf(buffer, sizeof buffer, format, arguments);
    va_end(arguments);
    if (length < 0) return;
    put(buffer, (size_t)length < sizeof buffer ? (size_t)length : sizeof buffer - 1);
}

void wire_tab(void) { put("\t", 1); }

void wire_end_record(void) { put("\n", 1); }

void wire_error(const char *code, const char *message) {
    // An error is written even past the limit: it is what the reader must see.
    over = 0;
    limit = (size_t)-1;
    put("error\t", 6);
    wire_text(code, 64);
    wire_tab();
    wire_text(message, 400);
    wire_end_record();
    fflush(stdout);
}
