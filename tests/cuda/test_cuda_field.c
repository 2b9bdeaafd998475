/* The device field arithmetic (src/cuda/ff_*.cuh) against the CPU's, element
 * by element: Fp, Fr and Fp2 add, sub, neg, dbl, mul, sqr on edge values
 * (every pair of them for binary ops) and on seeded random values, the
 * throughput kernel's dependent chains, and both Fp inversions of both
 * curves. Skipped (exit 77) without CUDA. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>

#ifndef CUZK_HAVE_CUDA

int main(void)
{
    printf("SKIPPED: test_cuda_field: no CUDA device (built without CUDA)\n");
    return 77;
}

#else

#include <stdlib.h>
#include <string.h>

#include "cuda/device.h"
#include "cuda/field_test.h"
#include "field/bn254_fp.h"
#include "field/fp.h"
#include "field/fp2.h"
#include "field/fr.h"
#include "seed.h"

/* 2^16 elements and a tail that is not a whole block. */
#define N_ELEMS ((size_t)(1u << 16) + 37)
#define MAX_EDGES 64
#define MAX_REPORTS 4

static uint64_t seed;

static const char *op_name(cuda_field_op op)
{
    static const char *names[] = {"add", "sub", "neg", "dbl", "mul", "sqr"};
    return (unsigned)op < CUDA_FIELD_OP_COUNT ? names[op] : "?";
}

static int op_binary(cuda_field_op op)
{
    return op == CUDA_FIELD_ADD || op == CUDA_FIELD_SUB || op == CUDA_FIELD_MUL;
}

static void print_limbs(const char *what, const uint64_t *l, size_t n)
{
    printf("    %s = 0x", what);
    for (size_t i = n; i-- > 0;)
        printf("%016llx", (unsigned long long)l[i]);
    printf("\n");
}

static void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes);
    assert_non_null(p);
    return p;
}

/* Fails the test when a device call failed, with the CUDA record. */
#define assert_device_ok(st)                                                                       \
    do {                                                                                           \
        cuzk_status st_ = (st);                                                                    \
        if (st_ != CUZK_OK)                                                                        \
            fail_msg("%s: %s (%s)", #st, cuzk_status_str(st_), cuda_field_last_error());           \
    } while (0)

/* Counts the elements where got and want differ and prints the first few with
 * their inputs. Elements are `limbs` 64-bit words. */
static size_t compare(const char *field, const char *op, const uint64_t *got, const uint64_t *want,
                      const uint64_t *a, const uint64_t *b, size_t n, size_t limbs)
{
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        if (memcmp(got + i * limbs, want + i * limbs, limbs * sizeof(uint64_t)) == 0)
            continue;
        if (bad < MAX_REPORTS) {
            printf("  %s_%s mismatch at element %zu:\n", field, op, i);
            print_limbs("a   ", a + i * limbs, limbs);
            if (b)
                print_limbs("b   ", b + i * limbs, limbs);
            print_limbs("gpu ", got + i * limbs, limbs);
            print_limbs("cpu ", want + i * limbs, limbs);
        }
        bad++;
    }
    if (bad)
        printf("  %s_%s: %zu of %zu elements differ\n", field, op, bad, n);
    return bad;
}

/* Inputs: the edge values first (for binary ops every ordered pair), then
 * random elements. a and b have n elements of elem bytes. */
static void fill_inputs(void *a, void *b, size_t n, const void *edges, size_t n_edges, size_t elem,
                        cuda_field_op op, void (*rand_elem)(void *, rng_t *), rng_t *rng)
{
    size_t i = 0;
    uint8_t *pa = a, *pb = b;
    const uint8_t *pe = edges;
    if (op_binary(op)) {
        for (size_t x = 0; x < n_edges && i < n; x++)
            for (size_t y = 0; y < n_edges && i < n; y++, i++) {
                memcpy(pa + i * elem, pe + x * elem, elem);
                memcpy(pb + i * elem, pe + y * elem, elem);
            }
    } else {
        for (size_t x = 0; x < n_edges && i < n; x++, i++) {
            memcpy(pa + i * elem, pe + x * elem, elem);
            rand_elem(pb + i * elem, rng);
        }
    }
    for (; i < n; i++) {
        rand_elem(pa + i * elem, rng);
        rand_elem(pb + i * elem, rng);
    }
}

/* ---- Fp ----------------------------------------------------------------- */

static void fp_rand(void *r, rng_t *rng)
{
    fp_random(r, rng);
}

/* raw = m − k for a small k, as integers (m odd, k <= m). */
static void raw_sub_small(uint64_t *r, const uint64_t *m, size_t limbs, uint64_t k)
{
    uint64_t borrow = k;
    for (size_t i = 0; i < limbs; i++) {
        uint64_t v = m[i] - borrow;
        borrow = m[i] < borrow;
        r[i] = v;
    }
}

/* Values below m that stress the carry chains: 0, small, m − 1, m − 2,
 * (m ± 1)/2, runs of all-ones 32-bit limbs from the bottom, m with one
 * 32-bit limb lowered, the largest value with a given top limb, and the
 * Montgomery one and minus one. Written as raw limbs; every element < m is
 * valid Montgomery data. */
static size_t make_edges(void *out, const uint64_t *m, size_t limbs, const uint64_t *one,
                         const uint64_t *minus_one)
{
    uint64_t *e = out;
    size_t n = 0;
    const size_t words = 2 * limbs; /* 32-bit limbs */
#define EDGE(i) (e + (i)*limbs)
    memset(EDGE(n++), 0, limbs * 8);
    memset(EDGE(n), 0, limbs * 8);
    EDGE(n++)[0] = 1;
    memset(EDGE(n), 0, limbs * 8);
    EDGE(n++)[0] = 2;
    memcpy(EDGE(n++), one, limbs * 8);
    memcpy(EDGE(n++), minus_one, limbs * 8);
    raw_sub_small(EDGE(n++), m, limbs, 1);
    raw_sub_small(EDGE(n++), m, limbs, 2);
    /* (m - 1)/2 and (m + 1)/2 */
    for (size_t i = 0; i < limbs; i++)
        EDGE(n)[i] = (m[i] >> 1) | (i + 1 < limbs ? m[i + 1] << 63 : 0);
    memcpy(EDGE(n + 1), EDGE(n), limbs * 8);
    EDGE(n + 1)[0] += 1;
    n += 2;
    /* 2^(32k) − 1 for every k that stays below m. */
    for (size_t k = 1; k < words; k++) {
        uint32_t *w = (uint32_t *)EDGE(n);
        memset(w, 0, limbs * 8);
        for (size_t j = 0; j < k; j++)
            w[j] = 0xffffffffu;
        n++;
    }
    /* m − 2^(32k) − 1: m with limb k lowered and the low bits of limb 0
     * flipped; below m. */
    for (size_t k = 1; k < words && n < MAX_EDGES - 4; k += 2) {
        uint32_t *w = (uint32_t *)EDGE(n);
        memcpy(w, m, limbs * 8);
        if (w[k] == 0)
            continue;
        w[k] -= 1;
        w[0] ^= 0x0000ffffu;
        n++;
    }
    /* The top 32-bit limb of m minus one, every other limb all ones; and
     * the same with the top 64-bit limb of m minus one. */
    {
        uint32_t *w = (uint32_t *)EDGE(n);
        for (size_t j = 0; j < words; j++)
            w[j] = 0xffffffffu;
        w[words - 1] = ((const uint32_t *)m)[words - 1] - 1;
        n++;
    }
    for (size_t i = 0; i + 1 < limbs; i++)
        EDGE(n)[i] = ~UINT64_C(0);
    EDGE(n)[limbs - 1] = m[limbs - 1] - 1;
    n++;
#undef EDGE
    assert_true(n <= MAX_EDGES);
    return n;
}

static void fp_cpu(cuda_field_op op, fp_t *r, const fp_t *a, const fp_t *b)
{
    switch (op) {
    case CUDA_FIELD_ADD:
        fp_add(r, a, b);
        break;
    case CUDA_FIELD_SUB:
        fp_sub(r, a, b);
        break;
    case CUDA_FIELD_NEG:
        fp_neg(r, a);
        break;
    case CUDA_FIELD_DBL:
        fp_dbl(r, a);
        break;
    case CUDA_FIELD_MUL:
        fp_mul(r, a, b);
        break;
    default:
        fp_sqr(r, a);
        break;
    }
}

static size_t fp_make_edges(fp_t *e)
{
    fp_t minus_one;
    fp_neg(&minus_one, &FP_ONE);
    return make_edges(e, FP_MODULUS, FP_LIMBS, FP_ONE.l, minus_one.l);
}

static void test_fp_ops(void **state)
{
    (void)state;
    rng_t rng;
    rng_seed(&rng, seed ^ 0x1);
    fp_t edges[MAX_EDGES];
    const size_t n_edges = fp_make_edges(edges);
    fp_t *a = xmalloc(N_ELEMS * sizeof(fp_t)), *b = xmalloc(N_ELEMS * sizeof(fp_t));
    fp_t *got = xmalloc(N_ELEMS * sizeof(fp_t)), *want = xmalloc(N_ELEMS * sizeof(fp_t));
    size_t bad = 0;
    for (int op = 0; op < CUDA_FIELD_OP_COUNT; op++) {
        fill_inputs(a, b, N_ELEMS, edges, n_edges, sizeof(fp_t), op, fp_rand, &rng);
        memset(got, 0xa5, N_ELEMS * sizeof(fp_t)); /* never a reduced element */
        assert_device_ok(cuda_fp_binop(op, got, a, b, N_ELEMS));
        for (size_t i = 0; i < N_ELEMS; i++)
            fp_cpu(op, &want[i], &a[i], &b[i]);
        bad += compare("fp", op_name(op), (uint64_t *)got, (uint64_t *)want, (uint64_t *)a,
                       op_binary(op) ? (uint64_t *)b : NULL, N_ELEMS, FP_LIMBS);
    }
    free(a);
    free(b);
    free(got);
    free(want);
    assert_int_equal(bad, 0);
}

/* ---- Fr ----------------------------------------------------------------- */

static void fr_rand(void *r, rng_t *rng)
{
    fr_random(r, rng);
}

static void fr_cpu(cuda_field_op op, fr_t *r, const fr_t *a, const fr_t *b)
{
    switch (op) {
    case CUDA_FIELD_ADD:
        fr_add(r, a, b);
        break;
    case CUDA_FIELD_SUB:
        fr_sub(r, a, b);
        break;
    case CUDA_FIELD_NEG:
        fr_neg(r, a);
        break;
    case CUDA_FIELD_DBL:
        fr_dbl(r, a);
        break;
    case CUDA_FIELD_MUL:
        fr_mul(r, a, b);
        break;
    default:
        fr_sqr(r, a);
        break;
    }
}

static void test_fr_ops(void **state)
{
    (void)state;
    rng_t rng;
    rng_seed(&rng, seed ^ 0x2);
    fr_t edges[MAX_EDGES], minus_one;
    fr_neg(&minus_one, &FR_ONE);
    const size_t n_edges = make_edges(edges, FR_MODULUS, FR_LIMBS, FR_ONE.l, minus_one.l);
    fr_t *a = xmalloc(N_ELEMS * sizeof(fr_t)), *b = xmalloc(N_ELEMS * sizeof(fr_t));
    fr_t *got = xmalloc(N_ELEMS * sizeof(fr_t)), *want = xmalloc(N_ELEMS * sizeof(fr_t));
    size_t bad = 0;
    for (int op = 0; op < CUDA_FIELD_OP_COUNT; op++) {
        fill_inputs(a, b, N_ELEMS, edges, n_edges, sizeof(fr_t), op, fr_rand, &rng);
        memset(got, 0xa5, N_ELEMS * sizeof(fr_t));
        assert_device_ok(cuda_fr_binop(op, got, a, b, N_ELEMS));
        for (size_t i = 0; i < N_ELEMS; i++)
            fr_cpu(op, &want[i], &a[i], &b[i]);
        bad += compare("fr", op_name(op), (uint64_t *)got, (uint64_t *)want, (uint64_t *)a,
                       op_binary(op) ? (uint64_t *)b : NULL, N_ELEMS, FR_LIMBS);
    }
    free(a);
    free(b);
    free(got);
    free(want);
    assert_int_equal(bad, 0);
}

/* ---- Fp2 ---------------------------------------------------------------- */

static void fp2_rand(void *r, rng_t *rng)
{
    fp2_random(r, rng);
}

static void fp2_cpu(cuda_field_op op, fp2_t *r, const fp2_t *a, const fp2_t *b)
{
    switch (op) {
    case CUDA_FIELD_ADD:
        fp2_add(r, a, b);
        break;
    case CUDA_FIELD_SUB:
        fp2_sub(r, a, b);
        break;
    case CUDA_FIELD_NEG:
        fp2_neg(r, a);
        break;
    case CUDA_FIELD_DBL:
        fp2_dbl(r, a);
        break;
    case CUDA_FIELD_MUL:
        fp2_mul(r, a, b);
        break;
    default:
        fp2_sqr(r, a);
        break;
    }
}

static void test_fp2_ops(void **state)
{
    (void)state;
    rng_t rng;
    rng_seed(&rng, seed ^ 0x3);
    /* Fp2 edges: pairs (c0, c1) drawn from every sixth Fp edge value. */
    fp_t fe[MAX_EDGES];
    const size_t n_fe = fp_make_edges(fe);
    fp2_t edges[MAX_EDGES];
    size_t n_edges = 0;
    for (size_t x = 0; x < n_fe; x += 6)
        for (size_t y = 3; y < n_fe && n_edges < MAX_EDGES; y += 6) {
            edges[n_edges].c0 = fe[x];
            edges[n_edges++].c1 = fe[y];
        }
    fp2_t *a = xmalloc(N_ELEMS * sizeof(fp2_t)), *b = xmalloc(N_ELEMS * sizeof(fp2_t));
    fp2_t *got = xmalloc(N_ELEMS * sizeof(fp2_t)), *want = xmalloc(N_ELEMS * sizeof(fp2_t));
    size_t bad = 0;
    for (int op = 0; op < CUDA_FIELD_OP_COUNT; op++) {
        fill_inputs(a, b, N_ELEMS, edges, n_edges, sizeof(fp2_t), op, fp2_rand, &rng);
        memset(got, 0xa5, N_ELEMS * sizeof(fp2_t));
        assert_device_ok(cuda_fp2_binop(op, got, a, b, N_ELEMS));
        for (size_t i = 0; i < N_ELEMS; i++)
            fp2_cpu(op, &want[i], &a[i], &b[i]);
        bad += compare("fp2", op_name(op), (uint64_t *)got, (uint64_t *)want, (uint64_t *)a,
                       op_binary(op) ? (uint64_t *)b : NULL, N_ELEMS, 2 * FP_LIMBS);
    }
    free(a);
    free(b);
    free(got);
    free(want);
    assert_int_equal(bad, 0);
}

/* ---- the throughput kernel ---------------------------------------------- */

#define CHAIN_N 4099
#define CHAIN_ITERS 40

/* Each of the benchmark's chains (x ← x·y, x ← x²) on random inputs, checked
 * by running the same chain on the CPU. */
static void test_chains(void **state)
{
    (void)state;
    rng_t rng;
    rng_seed(&rng, seed ^ 0x4);
    const size_t max_elem = sizeof(fp2_t);
    uint8_t *x = xmalloc(CHAIN_N * max_elem), *y = xmalloc(CHAIN_N * max_elem);
    uint8_t *got = xmalloc(CHAIN_N * max_elem), *want = xmalloc(CHAIN_N * max_elem);
    size_t bad = 0;
    for (int field = 0; field < CUDA_FIELD_COUNT; field++) {
        for (int op = CUDA_FIELD_MUL; op <= CUDA_FIELD_SQR; op++) {
            const size_t elem = field == CUDA_FIELD_FP   ? sizeof(fp_t)
                                : field == CUDA_FIELD_FR ? sizeof(fr_t)
                                                         : sizeof(fp2_t);
            void (*rand_elem)(void *, rng_t *) = field == CUDA_FIELD_FP   ? fp_rand
                                                 : field == CUDA_FIELD_FR ? fr_rand
                                                                          : fp2_rand;
            for (size_t i = 0; i < CHAIN_N; i++) {
                rand_elem(x + i * elem, &rng);
                rand_elem(y + i * elem, &rng);
            }
            memset(got, 0xa5, CHAIN_N * elem);
            assert_device_ok(cuda_field_chain(field, op, got, x, y, CHAIN_N, CHAIN_ITERS));
            memcpy(want, x, CHAIN_N * elem);
            for (size_t i = 0; i < CHAIN_N; i++) {
                void *w = want + i * elem;
                const void *yi = y + i * elem;
                for (int k = 0; k < CHAIN_ITERS; k++) {
                    if (field == CUDA_FIELD_FP)
                        fp_cpu(op, w, w, yi);
                    else if (field == CUDA_FIELD_FR)
                        fr_cpu(op, w, w, yi);
                    else
                        fp2_cpu(op, w, w, yi);
                }
            }
            static const char *fields[] = {"fp_chain", "fr_chain", "fp2_chain"};
            bad +=
                compare(fields[field], op_name(op), (const uint64_t *)got, (const uint64_t *)want,
                        (const uint64_t *)x, op == CUDA_FIELD_MUL ? (const uint64_t *)y : NULL,
                        CHAIN_N, elem / sizeof(uint64_t));
        }
    }
    free(x);
    free(y);
    free(got);
    free(want);
    assert_int_equal(bad, 0);
}

/* The device's two inversions of Fp (BLS12-381 and BN254): divsteps
 * (field/limbs_inv_impl.h compiled for the GPU) and Fermat, each equal to
 * the CPU's inv_var on zero, one, −1 and seeded random elements; their
 * kernel times are printed. */
#define N_INV 4096
static void test_fp_inverse(void **state)
{
    (void)state;
    rng_t rng;
    rng_seed(&rng, seed ^ 0x5);
    for (int bn254 = 0; bn254 < 2; bn254++) {
        const size_t elem = bn254 ? sizeof(bn254_fp_t) : sizeof(fp_t);
        uint8_t *a = malloc(N_INV * elem), *want = malloc(N_INV * elem),
                *got = malloc(N_INV * elem);
        assert_non_null(a);
        assert_non_null(want);
        assert_non_null(got);
        for (size_t i = 0; i < N_INV; i++) {
            if (bn254) {
                bn254_fp_t *x = (bn254_fp_t *)(a + i * elem);
                if (i == 0)
                    *x = BN254_FP_ZERO;
                else if (i <= 2)
                    *x = BN254_FP_ONE;
                else
                    bn254_fp_random(x, &rng);
                if (i == 2)
                    bn254_fp_neg(x, x);
                bn254_fp_inv_var((bn254_fp_t *)(want + i * elem), x);
            } else {
                fp_t *x = (fp_t *)(a + i * elem);
                if (i == 0)
                    *x = FP_ZERO;
                else if (i <= 2)
                    *x = FP_ONE;
                else
                    fp_random(x, &rng);
                if (i == 2)
                    fp_neg(x, x);
                fp_inv_var((fp_t *)(want + i * elem), x);
            }
        }
        for (int divsteps = 0; divsteps < 2; divsteps++) {
            float ms = 0;
            memset(got, 0xa5, N_INV * elem);
            assert_device_ok(cuda_fp_inverse(bn254, divsteps, got, a, N_INV, &ms));
            size_t bad = 0;
            for (size_t i = 0; i < N_INV; i++)
                if (memcmp(got + i * elem, want + i * elem, elem) != 0) {
                    if (bad++ < MAX_REPORTS)
                        print_message("%s inverse (%s) of element %zu differs from the CPU's\n",
                                      bn254 ? "BN254 Fp" : "Fp", divsteps ? "divsteps" : "Fermat",
                                      i);
                }
            printf("  %s inverse by %s: %d elements, %.3f ms\n", bn254 ? "BN254 Fp" : "Fp",
                   divsteps ? "divsteps" : "Fermat", N_INV, ms);
            assert_int_equal(bad, 0);
        }
        free(a);
        free(want);
        free(got);
    }
}

/* The benchmark entry point runs and reports a time. */
static void test_throughput_runs(void **state)
{
    (void)state;
    float ms = -1.0f;
    assert_device_ok(cuda_fp_mul_throughput(4096, 16, &ms));
    assert_true(ms >= 0.0f);
}

int main(void)
{
    const char *why = "unknown reason";
    if (cuda_device_count(&why) == 0) {
        printf("SKIPPED: test_cuda_field: no CUDA device (%s)\n", why);
        return 77;
    }
    cuda_device_info info;
    if (cuda_device_query(0, &info) == 0)
        printf("test_cuda_field: device 0: %s, %d SMs, compute capability %d.%d\n", info.name,
               info.sm_count, info.cc_major, info.cc_minor);
    seed = test_seed("test_cuda_field");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fp_ops),          cmocka_unit_test(test_fr_ops),
        cmocka_unit_test(test_fp2_ops),         cmocka_unit_test(test_chains),
        cmocka_unit_test(test_throughput_runs), cmocka_unit_test(test_fp_inverse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

#endif
