#include "r1cs/witness.h"

#include <stdatomic.h>

#include "util/parallel.h"

typedef struct classify_ctx {
    uint8_t *cls;
    const fr_t *w;
    _Atomic uint64_t zero, one, other;
} classify_ctx;

static void classify_chunk(void *arg, size_t begin, size_t end)
{
    classify_ctx *c = arg;
    uint64_t n0 = 0, n1 = 0, nx = 0;
    for (size_t i = begin; i < end; i++) {
        const uint64_t *l = c->w[i].l;
        /* Limb tests on the reduced Montgomery form (unique), no calls. */
        uint8_t k;
        if ((l[0] | l[1] | l[2] | l[3]) == 0) {
            k = R1CS_VALUE_ZERO;
            n0++;
        } else if (((l[0] ^ FR_ONE.l[0]) | (l[1] ^ FR_ONE.l[1]) | (l[2] ^ FR_ONE.l[2]) |
                    (l[3] ^ FR_ONE.l[3])) == 0) {
            k = R1CS_VALUE_ONE;
            n1++;
        } else {
            k = R1CS_VALUE_OTHER;
            nx++;
        }
        if (c->cls)
            c->cls[i] = k;
    }
    atomic_fetch_add_explicit(&c->zero, n0, memory_order_relaxed);
    atomic_fetch_add_explicit(&c->one, n1, memory_order_relaxed);
    atomic_fetch_add_explicit(&c->other, nx, memory_order_relaxed);
}

void r1cs_witness_classify(uint8_t *cls, r1cs_value_counts *counts, const fr_t *w, size_t n,
                           unsigned threads)
{
    classify_ctx c = {.cls = cls, .w = w};
    atomic_init(&c.zero, 0);
    atomic_init(&c.one, 0);
    atomic_init(&c.other, 0);
    parallel_for(n, 1u << 16, threads, classify_chunk, &c);
    if (counts) {
        counts->zero = atomic_load(&c.zero);
        counts->one = atomic_load(&c.one);
        counts->other = atomic_load(&c.other);
    }
}
