#ifndef NARRATE_CPOPPLER_SHIM_H
#define NARRATE_CPOPPLER_SHIM_H

// Only narrate-pdf includes Poppler: the parser child, the one process that opens a PDF.
#include <poppler.h>

#endif
