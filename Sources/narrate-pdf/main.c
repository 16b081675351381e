// narrate-pdf: reads one PDF (a path, or standard input) with Poppler and writes its text as
#define _GNU_SOURCE
// positioned words, its outline and its metadata (the records of wire.c) to standard output.
//
// The only process of Narrate that opens a PDF. PDF readers have a long record of crashes and
// hangs on crafted files, so before reading anything it bounds itself (address space, CPU time)
// and drops its environment; Narrate runs it with a wall-clock deadline too. A user password
// comes on a file descriptor (--password-fd), never in the arguments.
//
// Usage: narrate-pdf [--password-fd N] [--memory-mib N] [--cpu-seconds N] [--max-pages N]
//                    [--max-output-mib N] [--max-input-mib N] [FILE | -]
// Exit status: 0 read (the `end` record written), 3 a password is needed or wrong, 4 not a
// readable PDF, 5 a bound was reached, 2 a usage or system error.
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <poppler.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "page_text.h"
#include "wire.h"

extern char **environ;

typedef struct {
    int password_fd;
    long memory_mib, cpu_seconds, max_pages, max_output_mib, max_input_mib;
    const char *path;
} Options;

static int parse_options(int argc, char **argv, Options *options) {
    *options = (Options){.password_fd = -1, .memory_mib = 1536, .cpu_seconds = 120, .max_pages = 5000,
                         .max_output_mib = 256, .max_input_mib = 512, .path = "-"};
    for (int i = 1; i < argc; i++) {
        const char *name = argv[i];
        long *value = NULL;
        if (!strcmp(name, "--memory-mib")) value = &options->memory_mib;
        else if (!strcmp(name, "--cpu-seconds")) value = &options->cpu_seconds;
        else if (!strcmp(name, "--max-pages")) value = &options->max_pages;
        else if (!strcmp(name, "--max-output-mib")) value = &options->max_output_mib;
        else if (!strcmp(name, "--max-input-mib")) value = &options->max_input_mib;
        else if (!strcmp(name, "--password-fd")) {
            if (++i >= argc) return -1;
            options->password_fd = atoi(argv[i]);
            continue;
        } else if (name[0] == '-' && name[1] != 0) return -1;
        else {
            options->path = name;
            continue;
        }
        if (++i >= argc) return -1;
        *value = strtol(argv[i], NULL, 10);
        if (*value <= 0) return -1;
    }
    return 0;
}

static void limit_self(const Options *options) {
    struct rlimit memory = {(rlim_t)options->memory_mib << 20, (rlim_t)options->memory_mib << 20};
    setrlimit(RLIMIT_AS, &memory);
    // SIGXCPU at the soft limit, SIGKILL a second later.
    struct rlimit cpu = {(rlim_t)options->cpu_seconds, (rlim_t)options->cpu_seconds + 1};
    setrlimit(RLIMIT_CPU, &cpu);
    struct rlimit core = {0, 0};
    setrlimit(RLIMIT_CORE, &core);
    // Nothing a PDF reader needs is in the environment; nothing in it is for a PDF to see.
    static char *empty[] = {NULL};
    environ = empty;
}

/// Reads all of `fd`, at most `max` bytes; NULL (and *length = max + 1) when there is more.
static char *read_all(int fd, size_t max, size_t *length) {
    size_t capacity = 1 << 16, used = 0;
    char *data = malloc(capacity);
    if (!data) return NULL;
    for (;;) {
        if (used == capacity) {
            if (capacity > max) break;
            capacity *= 2;
            char *grown = realloc(data, capacity);
            if (!grown) break;
            data = grown;
        }
        ssize_t got = read(fd, data + used, capacity - used);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) break;
        if (got == 0) {
            *length = used;
            return data;
        }
        used += (size_t)got;
        if (used > max) break;
    }
    free(data);
    *length = used > max ? max + 1 : 0;
    return NULL;
}

static char *read_password(int fd) {
    if (fd < 0) return NULL;
    size_t length = 0;
    char *password = read_all(fd, 4096, &length);
    close(fd);
    if (!password) return NULL;
    char *text = realloc(password, length + 1);
    if (!text) {
        free(password);
        return NULL;
    }
    text[length] = 0;
    return text;
}

static void meta(const char *name, const char *value) {
    if (!value || !*value) return;
    wire_field("meta\t%s\t", name);
    wire_text(value, 2000);
    wire_end_record();
}

/// The first `<rdf:li>` of the XMP's `<dc:language>`, if any.
static void xmp_language(PopplerDocument *document) {
    char *xmp = poppler_document_get_metadata(document);
    if (!xmp) return;
    const char *language = strstr(xmp, "<dc:language");
    const char *item = language ? strstr(language, "<rdf:li") : NULL;
    const char *start = item ? strchr(item, '>') : NULL;
    const char *end = start ? strchr(start, '<') : NULL;
    if (start && end && end - start > 1 && end - start < 40) {
        char value[40];
        memcpy(value, start + 1, (size_t)(end - start - 1));
        value[end - start - 1] = 0;
        meta("language", value);
    }
    g_free(xmp);
}

static long outline_entries = 0;

static void outline(PopplerDocument *document, PopplerIndexIter *iter, int depth) {
    if (!iter || depth > 16) return;
    do {
        if (++outline_entries > 20000) return;
        PopplerAction *action = poppler_index_iter_get_action(iter);
        if (action && action->type == POPPLER_ACTION_GOTO_DEST && action->goto_dest.dest) {
            PopplerDest *dest = action->goto_dest.dest;
            PopplerDest *found = NULL;
            if (dest->type == POPPLER_DEST_NAMED && dest->named_dest) {
                found = poppler_document_find_dest(document, dest->named_dest);
                if (found) dest = found;
            }
            if (dest->page_num > 0) {
                wire_field("outline\t%d\t%d\t", depth, dest->page_num);
                if (dest->change_top) {
                    PopplerPage *page = poppler_document_get_page(document, dest->page_num - 1);
                    double width = 0, height = 0;
                    if (page) poppler_page_get_size(page, &width, &height);
                    wire_field("%.2f", height - dest->top);
                    if (page) g_object_unref(page);
                } else {
                    wire_field("-");
                }
                wire_tab();
                wire_text(action->any.title, 1000);
                wire_end_record();
            }
            if (found) poppler_dest_free(found);
        }
        if (action) poppler_action_free(action);
        PopplerIndexIter *child = poppler_index_iter_get_child(iter);
        if (child) {
            outline(document, child, depth + 1);
            poppler_index_iter_free(child);
        }
    } while (poppler_index_iter_next(iter));
}

int main(int argc, char **argv) {
    Options options;
    if (parse_options(argc, argv, &options) != 0) {
        fputs("usage: narrate-pdf [--password-fd N] [--memory-mib N] [--cpu-seconds N] [--max-pages N] "
              "[--max-output-mib N] [--max-input-mib N] [FILE | -]\n", stderr);
        return 2;
    }
    limit_self(&options);
    char *password = read_password(options.password_fd);

    int fd = strcmp(options.path, "-") == 0 ? STDIN_FILENO : open(options.path, O_RDONLY | O_CLOEXEC);
    wire_begin((size_t)options.max_output_mib << 20);
    if (fd < 0) {
        wire_error("unreadable", strerror(errno));
        return 2;
    }
    size_t length = 0;
    char *data = read_all(fd, (size_t)options.max_input_mib << 20, &length);
    if (!data) {
        wire_error(length ? "too-large" : "unreadable", length ? "the file is larger than the bound on input" : "it could not be read");
        return length ? 5 : 2;
    }
    if (length < 5 || memcmp(data, "%PDF-", 5) != 0) {
        // Poppler finds a header in the first kilobyte; a file that lacks one at the start is suspect anyway.
        if (length < 1024 || !memmem(data, 1024, "%PDF-", 5)) {
            wire_error("not-pdf", "it does not start with %PDF-");
            return 4;
        }
    }

    // Poppler 22.12 crashes on a wrong password when it reads from memory (new_from_data and
    // new_from_bytes), not from a file: the bytes go to an anonymous memory file, read by fd.
    int memory = memfd_create("narrate-pdf", MFD_CLOEXEC);
    size_t done = 0;
    while (memory >= 0 && done < length) {
        ssize_t put = write(memory, data + done, length - done);
        if (put < 0 && errno == EINTR) continue;
        if (put <= 0) break;
        done += (size_t)put;
    }
    free(data);
    if (memory < 0 || done < length || lseek(memory, 0, SEEK_SET) != 0) {
        wire_error("unreadable", "no memory file could be made for it");
        return 2;
    }
    GError *error = NULL;
    // Poppler owns the descriptor it is given, and closes it: it gets a copy.
    int spare = dup(memory);
    PopplerDocument *document = poppler_document_new_from_fd(memory, password, &error);
    if (!document && password && *password && spare >= 0 && lseek(spare, 0, SEEK_SET) == 0) {
        // From a descriptor, a wrong password is told as damage: without one, an encrypted
        // document says it is encrypted, and then the password was wrong.
        GError *again = NULL;
        PopplerDocument *plain = poppler_document_new_from_fd(dup(spare), NULL, &again);
        if (!plain && again && again->domain == POPPLER_ERROR && again->code == POPPLER_ERROR_ENCRYPTED) {
            g_clear_error(&error);
            error = again;
            again = NULL;
        }
        if (plain) g_object_unref(plain);
        g_clear_error(&again);
    }
    if (spare >= 0) close(spare);
    if (!document) {
        int encrypted = error && error->domain == POPPLER_ERROR && error->code == POPPLER_ERROR_ENCRYPTED;
        if (encrypted) wire_error(password && *password ? "wrong-password" : "password-required", "the document is encrypted");
        else wire_error("damaged", error && error->message ? error->message : "Poppler could not open it");
        return encrypted ? 3 : 4;
    }
    if (password) {
        memset(password, 0, strlen(password));
        free(password);
    }

    char *title = poppler_document_get_title(document), *author = poppler_document_get_author(document);
    meta("title", title);
    meta("author", author);
    g_free(title);
    g_free(author);
    xmp_language(document);

    PopplerIndexIter *index = poppler_index_iter_new(document);
    if (index) {
        outline(document, index, 0);
        poppler_index_iter_free(index);
    }

    int pages = poppler_document_get_n_pages(document);
    int shown = pages < options.max_pages ? pages : (int)options.max_pages;
    for (int number = 1; number <= shown && !wire_over_limit(); number++) {
        PopplerPage *page = poppler_document_get_page(document, number - 1);
        if (!page) continue;
        double width = 0, height = 0;
        poppler_page_get_size(page, &width, &height);
        char *label = poppler_page_get_label(page);
        wire_field("page\t%d\t%.2f\t%.2f\t", number, width, height);
        wire_text(label, 40);
        wire_end_record();
        g_free(label);
        if (page_text_emit(page, height) == 0 && page_has_images(page)) {
            wire_field("image\t%d", number);
            wire_end_record();
        }
        g_object_unref(page);
    }
    if (wire_over_limit()) {
        wire_error("output-limit", "the text is larger than the bound on output");
        return 5;
    }
    wire_field("end\t%d\t%d", pages, shown);
    wire_end_record();
    fflush(stdout);
    g_object_unref(document);
    return ferror(stdout) ? 2 : 0;
}
