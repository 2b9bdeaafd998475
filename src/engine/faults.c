/* Fault injection (faults.h): the parser of CUZK_FAULTS and the counters.
 * Compiled to nothing without CUZK_FAULT_INJECTION. */
#define _POSIX_C_SOURCE 200809L
#include "engine/faults.h"

#ifdef CUZK_FAULT_INJECTION

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"

#define FAULT_ANY UINT64_MAX

typedef struct fault {
    fault_kind kind;
    uint64_t job;  /* FAULT_ANY: every job */
    uint64_t part; /* FAULT_ANY: every partition */
    uint64_t left; /* FAULT_ANY: every time */
} fault;

struct engine_faults {
    fault *items;
    size_t n;
};

static const char *const KIND_NAMES[FAULT_KINDS] = {"backend_fail", "alloc_fail", "synth_die",
                                                    "prove_die", "final_die"};

/* A number or "*" ending at one of the characters in `ends` (or the end). */
static bool parse_field(const char **s, const char *ends, uint64_t *out)
{
    const char *p = *s;
    if (*p == '*') {
        *out = FAULT_ANY;
        p++;
    } else {
        if (*p < '0' || *p > '9')
            return false;
        char *end;
        errno = 0;
        unsigned long long v = strtoull(p, &end, 10);
        if (errno || v == ULLONG_MAX)
            return false;
        *out = v;
        p = end;
    }
    if (*p && !strchr(ends, *p))
        return false;
    *s = p;
    return true;
}

static cuzk_status parse_one(const char *item, fault *f, char *msg, size_t msg_len)
{
    const char *eq = strchr(item, '=');
    size_t klen = eq ? (size_t)(eq - item) : 0;
    int kind = -1;
    for (int k = 0; eq && k < FAULT_KINDS; k++)
        if (strlen(KIND_NAMES[k]) == klen && !strncmp(item, KIND_NAMES[k], klen))
            kind = k;
    if (kind < 0) {
        backend_msg(msg, msg_len,
                    "CUZK_FAULTS: '%s' is not KIND=JOB:PART[xCOUNT] with KIND one of "
                    "backend_fail, alloc_fail, synth_die, prove_die, final_die",
                    item);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    const char *p = eq + 1;
    f->kind = (fault_kind)kind;
    f->left = 1;
    bool good = parse_field(&p, ":", &f->job) && *p++ == ':' && parse_field(&p, "x", &f->part);
    if (good && *p == 'x') {
        p++;
        good = parse_field(&p, "", &f->left) && f->left > 0;
    }
    if (!good || *p) {
        backend_msg(msg, msg_len,
                    "CUZK_FAULTS: '%s': expected %s=JOB:PART[xCOUNT] (numbers or *, COUNT >= 1)",
                    item, KIND_NAMES[kind]);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    return CUZK_OK;
}

cuzk_status faults_parse(const char *spec, engine_faults **out, char *msg, size_t msg_len)
{
    *out = NULL;
    if (!spec || !*spec)
        return CUZK_OK;
    char *copy = strdup(spec);
    engine_faults *f = calloc(1, sizeof(*f));
    if (f) /* an item takes at least 2 characters with its comma */
        f->items = calloc(strlen(spec) / 2 + 1, sizeof(fault));
    if (!copy || !f || !f->items) {
        free(copy);
        faults_free(f);
        return CUZK_ERR_OUT_OF_MEMORY;
    }
    cuzk_status st = CUZK_OK;
    char *save = NULL;
    for (char *item = strtok_r(copy, ",", &save); item && st == CUZK_OK;
         item = strtok_r(NULL, ",", &save))
        if (*item)
            st = parse_one(item, &f->items[f->n++], msg, msg_len);
    free(copy);
    if (st != CUZK_OK || f->n == 0) {
        faults_free(f);
        return st;
    }
    *out = f;
    return CUZK_OK;
}

bool faults_hit(engine_faults *f, fault_kind k, uint64_t job, uint32_t part)
{
    for (size_t i = 0; f && i < f->n; i++) {
        fault *x = &f->items[i];
        if (x->kind != k || x->left == 0 || (x->job != FAULT_ANY && x->job != job) ||
            (x->part != FAULT_ANY && x->part != part))
            continue;
        if (x->left != FAULT_ANY)
            x->left--;
        return true;
    }
    return false;
}

void faults_free(engine_faults *f)
{
    if (!f)
        return;
    free(f->items);
    free(f);
}

#else

/* ISO C wants something in a translation unit. */
typedef int faults_not_compiled;

#endif
