#ifndef CUZK_BACKEND_BACKEND_KIND_H
#define CUZK_BACKEND_BACKEND_KIND_H

/* Which backend proves: the one choice a command line or a configuration
 * file makes about hardware (backend.h has the interface itself). */

#include <stdbool.h>

typedef enum backend_kind {
    BACKEND_AUTO = 0, /* a GPU backend when one is compiled in and finds a GPU, else the CPU */
    BACKEND_CPU,
    BACKEND_CUDA,
} backend_kind;

/* "auto", "cpu", "cuda"; parse returns false for anything else. */
const char *backend_kind_name(backend_kind kind);
bool backend_kind_parse(const char *s, backend_kind *out);

#endif
