/* Interned strings, a small hash map, growable arrays and the escaping
 * writers of the trace module. */
#include <stdlib.h>
#include <string.h>

#include "trace/trace_internal.h"

static uint64_t hash_bytes(const char *s, size_t len)
{
    uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a */
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)s[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

static uint64_t mix64(uint64_t x)
{
    x ^= x >> 33; /* the murmur3 finalizer */
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

static bool strtab_rehash(trace_strtab *s, size_t cap)
{
    char **slots = calloc(cap, sizeof(char *));
    if (!slots)
        return false;
    for (size_t i = 0; i < s->cap; i++) {
        char *str = s->slots[i];
        if (!str)
            continue;
        size_t j = hash_bytes(str, strlen(str)) & (cap - 1);
        while (slots[j])
            j = (j + 1) & (cap - 1);
        slots[j] = str;
    }
    free(s->slots);
    s->slots = slots;
    s->cap = cap;
    return true;
}

const char *strtab_intern(trace_strtab *s, const char *str, size_t len)
{
    if ((s->count + 1) * 2 > s->cap && !strtab_rehash(s, s->cap ? s->cap * 2 : 64))
        return NULL;
    size_t j = hash_bytes(str, len) & (s->cap - 1);
    for (; s->slots[j]; j = (j + 1) & (s->cap - 1)) {
        const char *have = s->slots[j];
        if (!strncmp(have, str, len) && have[len] == '\0')
            return have;
    }
    char *copy = malloc(len + 1);
    if (!copy)
        return NULL;
    memcpy(copy, str, len);
    copy[len] = '\0';
    s->slots[j] = copy;
    s->count++;
    return copy;
}

void strtab_free(trace_strtab *s)
{
    for (size_t i = 0; i < s->cap; i++)
        free(s->slots[i]);
    free(s->slots);
    s->slots = NULL;
    s->cap = s->count = 0;
}

static size_t map_slot(const trace_map *m, const uint64_t k[3])
{
    uint64_t h = mix64(k[0] ^ mix64(k[1] ^ mix64(k[2])));
    size_t j = h & (m->cap - 1);
    while (m->e[j].v != UINT32_MAX &&
           (m->e[j].k[0] != k[0] || m->e[j].k[1] != k[1] || m->e[j].k[2] != k[2]))
        j = (j + 1) & (m->cap - 1);
    return j;
}

static bool map_rehash(trace_map *m, size_t cap)
{
    trace_map_entry *old = m->e;
    size_t old_cap = m->cap;
    m->e = malloc(cap * sizeof(trace_map_entry));
    if (!m->e) {
        m->e = old;
        return false;
    }
    m->cap = cap;
    for (size_t i = 0; i < cap; i++)
        m->e[i].v = UINT32_MAX;
    for (size_t i = 0; i < old_cap; i++)
        if (old[i].v != UINT32_MAX)
            m->e[map_slot(m, old[i].k)] = old[i];
    free(old);
    return true;
}

bool trace_map_get_or_add(trace_map *m, uint64_t a, uint64_t b, uint64_t c, uint32_t fresh,
                          uint32_t *out, bool *added)
{
    if ((m->count + 1) * 2 > m->cap && !map_rehash(m, m->cap ? m->cap * 2 : 64))
        return false;
    const uint64_t k[3] = {a, b, c};
    size_t j = map_slot(m, k);
    *added = m->e[j].v == UINT32_MAX;
    if (*added) {
        m->e[j].k[0] = a;
        m->e[j].k[1] = b;
        m->e[j].k[2] = c;
        m->e[j].v = fresh;
        m->count++;
    }
    *out = m->e[j].v;
    return true;
}

void trace_map_free(trace_map *m)
{
    free(m->e);
    m->e = NULL;
    m->cap = m->count = 0;
}

bool trace_grow(void **arr, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return true;
    size_t cap2 = *cap ? *cap : 64;
    while (cap2 < need)
        cap2 *= 2;
    void *p = realloc(*arr, cap2 * elem);
    if (!p)
        return false;
    *arr = p;
    *cap = cap2;
    return true;
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

int trace_natural_cmp(const char *a, const char *b)
{
    while (*a && *b) {
        if (is_digit(*a) && is_digit(*b)) {
            while (*a == '0')
                a++;
            while (*b == '0')
                b++;
            size_t na = 0, nb = 0;
            while (is_digit(a[na]))
                na++;
            while (is_digit(b[nb]))
                nb++;
            if (na != nb)
                return na < nb ? -1 : 1;
            int c = strncmp(a, b, na);
            if (c)
                return c;
            a += na;
            b += nb;
            continue;
        }
        if (*a != *b)
            return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
        a++;
        b++;
    }
    return *a ? 1 : *b ? -1 : 0;
}

void trace_put_json_str(FILE *out, const char *s)
{
    putc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            putc('\\', out);
            putc(c, out);
        } else if (c == '\n') {
            fputs("\\n", out);
        } else if (c < 0x20) {
            fprintf(out, "\\u%04x", c);
        } else {
            putc(c, out);
        }
    }
    putc('"', out);
}

void trace_put_xml(FILE *out, const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        switch (c) {
        case '&':
            fputs("&amp;", out);
            break;
        case '<':
            fputs("&lt;", out);
            break;
        case '>':
            fputs("&gt;", out);
            break;
        case '"':
            fputs("&quot;", out);
            break;
        case '\'':
            fputs("&#39;", out);
            break;
        default:
            putc(c < 0x20 && c != '\t' && c != '\n' ? '?' : c, out);
        }
    }
}
