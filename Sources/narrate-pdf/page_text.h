#ifndef NARRATE_PDF_PAGE_TEXT_H
#define NARRATE_PDF_PAGE_TEXT_H

#include <poppler.h>

/// Writes the page's `line` and `word` records; returns how many words it wrote.
long page_text_emit(PopplerPage *page, double height);
/// Whether the page draws any image.
int page_has_images(PopplerPage *page);

#endif
