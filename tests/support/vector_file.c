#define _POSIX_C_SOURCE 200809L

#include "vector_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef CUZK_VECTOR_DIR
#define CUZK_VECTOR_DIR "tests/vectors"
#endif

struct vec_file {
    FILE *fp;
    char *path;
    char *line;        /* getline buffer; records point into it */
    size_t linecap;
    const char **fields; /* op followed by the fields, grown as needed */
    size_t fieldcap;
    int lineno;
};

vec_file *vec_open(const char *name)
{
    size_t len = strlen(CUZK_VECTOR_DIR) + 1 + strlen(name) + 1;
    char *path = malloc(len);
    if (path == NULL) {
        fprintf(stderr, "cannot open %s/%s: %s\n", CUZK_VECTOR_DIR, name, strerror(ENOMEM));
        return NULL;
    }
    snprintf(path, len, "%s/%s", CUZK_VECTOR_DIR, name);

    FILE *fp = fopen(path, "r");
    if (fp == NULL) {
        fprintf(stderr, "cannot open %s: %s\n", path, strerror(errno));
        free(path);
        return NULL;
    }
    vec_file *f = calloc(1, sizeof *f);
    if (f == NULL) {
        fprintf(stderr, "cannot open %s: %s\n", path, strerror(ENOMEM));
        fclose(fp);
        free(path);
        return NULL;
    }
    f->fp = fp;
    f->path = path;
    return f;
}

/* Appends one field pointer, growing the array; returns -1 when out of memory. */
static int push_field(vec_file *f, size_t n, const char *s)
{
    if (n == f->fieldcap) {
        size_t cap = f->fieldcap ? 2 * f->fieldcap : 32;
        const char **p = realloc(f->fields, cap * sizeof *p);
        if (p == NULL)
            return -1;
        f->fields = p;
        f->fieldcap = cap;
    }
    f->fields[n] = s;
    return 0;
}

int vec_next(vec_file *f, vec_record *rec)
{
    for (;;) {
        ssize_t got = getline(&f->line, &f->linecap, f->fp);
        if (got < 0)
            return 0;
        f->lineno++;

        /* Strip the line end, tolerating CRLF from checkouts that convert. */
        while (got > 0 && (f->line[got - 1] == '\n' || f->line[got - 1] == '\r'))
            f->line[--got] = '\0';
        if (got == 0 || f->line[0] == '#')
            continue;

        /* Split in place on spaces; runs of spaces and tabs count as one
         * separator so a stray double space does not create empty fields. */
        size_t n = 0;
        char *p = f->line;
        for (;;) {
            while (*p == ' ' || *p == '\t')
                *p++ = '\0';
            if (*p == '\0')
                break;
            if (push_field(f, n++, p) != 0) {
                fprintf(stderr, "%s:%d: out of memory\n", f->path, f->lineno);
                return 0;
            }
            while (*p != '\0' && *p != ' ' && *p != '\t')
                p++;
        }
        if (n == 0)
            continue; /* whitespace-only line */

        rec->op = f->fields[0];
        rec->nfields = n - 1;
        rec->fields = f->fields + 1;
        rec->line = f->lineno;
        return 1;
    }
}

void vec_close(vec_file *f)
{
    if (f == NULL)
        return;
    fclose(f->fp);
    free(f->path);
    free(f->line);
    free(f->fields);
    free(f);
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

int vec_hex(uint8_t *out, size_t outlen, const char *hex)
{
    /* strnlen bounds the scan so a huge field cannot make this quadratic. */
    if (strnlen(hex, 2 * outlen + 1) != 2 * outlen)
        return -1;
    for (size_t i = 0; i < outlen; i++) {
        int hi = hex_digit(hex[2 * i]);
        int lo = hex_digit(hex[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return -1;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return 0;
}

const char *vec_path(const vec_file *f)
{
    return f->path;
}
