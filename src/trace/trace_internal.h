#ifndef CUZK_TRACE_INTERNAL_H
#define CUZK_TRACE_INTERNAL_H

/* Helpers shared by the trace reader, the summary and the exporters. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "trace/trace.h"

/* qsort, which must not be given a null array, even an empty one. */
static inline void trace_qsort(void *base, size_t n, size_t size,
                               int (*cmp)(const void *, const void *))
{
    if (n > 1)
        qsort(base, n, size, cmp);
}

/* Interned strings: one copy of each distinct string, owned by the table,
 * so that equal strings compare equal as pointers. */
typedef struct trace_strtab {
    char **slots;
    size_t cap, count;
} trace_strtab;

/* The interned copy of str[0, len), or NULL when out of memory. */
const char *strtab_intern(trace_strtab *s, const char *str, size_t len);
void strtab_free(trace_strtab *s);

/* A hash map from a key of three 64-bit words to a 32-bit value. */
typedef struct trace_map_entry {
    uint64_t k[3];
    uint32_t v; /* UINT32_MAX: empty */
} trace_map_entry;

typedef struct trace_map {
    trace_map_entry *e;
    size_t cap, count;
} trace_map;

/* Looks the key up; when absent, inserts it with value fresh. *out is the
 * value found or inserted, *added whether it was inserted. false: out of memory. */
bool trace_map_get_or_add(trace_map *m, uint64_t a, uint64_t b, uint64_t c, uint32_t fresh,
                          uint32_t *out, bool *added);
void trace_map_free(trace_map *m);

/* Grows *arr (of elements of size elem) so that it holds at least need
 * elements; *cap is its capacity. false: out of memory (arr unchanged). */
bool trace_grow(void **arr, size_t *cap, size_t need, size_t elem);

/* Compares names with digit runs taken as numbers ("w2" < "w10"). */
int trace_natural_cmp(const char *a, const char *b);

/* s as a JSON string literal, quotes included. */
void trace_put_json_str(FILE *out, const char *s);
/* s with the XML special characters escaped (and control characters,
 * which XML forbids, replaced by '?'). */
void trace_put_xml(FILE *out, const char *s);

/* Phase sets used by the summary and the timeline. */
static inline bool trace_is_synthesis(const trace_span *s)
{
    return s->cat == TRACE_CAT_QUEUE || s->phase == TRACE_PHASE_SYNTHESIZE ||
           s->phase == TRACE_PHASE_EVAL_ABC;
}

/* Indexes the model once every line is in: the reader has filled sources,
 * spans (lane = index into the unsorted lanes), lanes (source, device,
 * worker), series (source, device, name), samples (series = index into
 * the unsorted series) and job_events. Sorts and numbers everything as
 * trace.h describes. */
cuzk_status trace_index(trace *t);

#endif
