#include "naive_abc.h"

void naive_abc(fr_t *a, fr_t *b, fr_t *c, const r1cs_entry *entries, uint64_t n, const fr_t *w,
               uint64_t domain_size)
{
    for (uint64_t i = 0; i < domain_size; i++) {
        a[i] = FR_ZERO;
        b[i] = FR_ZERO;
    }
    for (uint64_t i = 0; i < n; i++) {
        const r1cs_entry *e = &entries[i];
        fr_t *dst = e->matrix == 0 ? &a[e->row] : &b[e->row];
        fr_t t;
        fr_mul(&t, &e->value, &w[e->col]);
        fr_add(dst, dst, &t);
    }
    if (c)
        for (uint64_t i = 0; i < domain_size; i++)
            fr_mul(&c[i], &a[i], &b[i]);
}
