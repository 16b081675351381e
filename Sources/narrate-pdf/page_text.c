// One page's text as `line` and `word` records: Poppler's text (lines split by '\n', words by
// spaces) with a box per character (get_text_layout) and the font of each range of characters
// (get_text_attributes). A word is cut where its font size or boldness changes, so a raised
// note mark glued to its word is a word of its own.
#include "page_text.h"

#include <math.h>
#include <string.h>

#include "wire.h"

typedef struct {
    double size;
    int bold;
} Font;

static int is_bold_name(const char *name) {
    if (!name) return 0;
    static const char *marks[] = {"Bold", "bold", "Black", "Heavy", "Semibold", "SemiBold", "Demi", "BOLD"};
    for (size_t i = 0; i < sizeof marks / sizeof *marks; i++)
        if (strstr(name, marks[i])) return 1;
    return 0;
}

typedef struct {
    const char *start;  // first byte of the word in the page's text
    size_t bytes;
    double x0, y0, x1, y1;
    Font font;
    int open;
} Word;

static void flush_word(Word *word, int *line_open) {
    if (!word->open || word->bytes == 0) {
        word->open = 0;
        return;
    }
    if (!*line_open) {
        wire_field("line");
        wire_end_record();
        *line_open = 1;
    }
    wire_field("word\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%d\t", word->x0, word->y0, word->x1 - word->x0, word->y1 - word->y0,
               word->font.size, word->font.bold);
    // A word is a run of letters between spaces; one of more than 1,000 bytes is cut.
    char buffer[1024];
    size_t length = word->bytes < sizeof buffer - 1 ? word->bytes : sizeof buffer - 1;
    memcpy(buffer, word->start, length);
    buffer[length] = 0;
    wire_text(buffer, length);
    wire_end_record();
    word->open = 0;
}

static Font font_at(gint index, GList **cursor) {
    Font font = {0, 0};
    // Attributes come in order of their ranges; the cursor only moves forward.
    for (GList *item = *cursor; item; item = item->next) {
        PopplerTextAttributes *range = item->data;
        if (index < range->start_index) break;
        if (index <= range->end_index) {
            *cursor = item;
            font.size = range->font_size;
            font.bold = is_bold_name(range->font_name);
            return font;
        }
    }
    return font;
}

long page_text_emit(PopplerPage *page, double height) {
    char *text = poppler_page_get_text(page);
    if (!text) return 0;
    PopplerRectangle *boxes = NULL;
    guint count = 0;
    if (!poppler_page_get_text_layout(page, &boxes, &count)) count = 0;
    GList *attributes = poppler_page_get_text_attributes(page);
    GList *cursor = attributes;

    long words = 0;
    int line_open = 0;
    Word word = {0};
    gint index = 0;
    for (const char *p = text; *p && (guint)index < count; p = g_utf8_next_char(p), index++) {
        gunichar c = g_utf8_get_char_validated(p, -1);
        if (c == (gunichar)-1 || c == (gunichar)-2) break;
        if (c == '\n' || c == '\r') {
            flush_word(&word, &line_open);
            line_open = 0;
            continue;
        }
        if (g_unichar_isspace(c)) {
            flush_word(&word, &line_open);
            continue;
        }
        PopplerRectangle box = boxes[index];
        // Poppler's y grows down from the top of the page already in text layout boxes.
        double x0 = fmin(box.x1, box.x2), x1 = fmax(box.x1, box.x2);
        double y0 = fmin(box.y1, box.y2), y1 = fmax(box.y1, box.y2);
        if (!isfinite(x0) || !isfinite(y0) || !isfinite(x1) || !isfinite(y1)) continue;
        Font font = font_at(index, &cursor);
        if (word.open && (fabs(font.size - word.font.size) > 0.05 || font.bold != word.font.bold)) {
            flush_word(&word, &line_open);
        }
        if (!word.open) {
            word = (Word){.start = p, .bytes = 0, .x0 = x0, .y0 = y0, .x1 = x1, .y1 = y1, .font = font, .open = 1};
            words++;
        }
        word.bytes = (size_t)(g_utf8_next_char(p) - word.start);
        word.x0 = fmin(word.x0, x0);
        word.y0 = fmin(word.y0, y0);
        word.x1 = fmax(word.x1, x1);
        word.y1 = fmax(word.y1, y1);
    }
    flush_word(&word, &line_open);
    (void)height;
    poppler_page_free_text_attributes(attributes);
    g_free(boxes);
    g_free(text);
    return words;
}

int page_has_images(PopplerPage *page) {
    GList *images = poppler_page_get_image_mapping(page);
    int found = images != NULL;
    poppler_page_free_image_mapping(images);
    return found;
}
