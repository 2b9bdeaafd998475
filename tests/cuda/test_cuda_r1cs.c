/* Constraint evaluation on the device (cuda/r1cs_eval.h) against the CPU's
 * r1cs_eval (and r1cs_mul_rows where c = a·b): a, b, c equal bit for bit,
 * the first failing row equal to the one the CPU's vectors show, nothing
 * written past the evaluated rows. Systems: the built-in circuit at 2^10
 * and 2^12, the circom fixtures' zkeys (C empty, c = a·b), and systems from
 * r1cs_from_entries with the edge cases (coefficients 1, −1, 0 and a large
 * one, repeated columns, empty rows, rows of every length tier up to
 * thousands of terms, more than 65,536 distinct coefficients). Witnesses:
 * satisfying ones and random ones (a third 0, a third 1, a third random;
 * seed printed), and a satisfying one with one value broken. The same over
 * BN254's Fr (the circom fixtures' bn128 zkeys and witnesses, the edge-case
 * and one-bad-row systems built over BN254).
 *
 * Runs everything in the host emulation (same per-thread code, no GPU),
 * then on device 0 when there is one; without a GPU it reports SKIPPED
 * (exit 77) after the emulation passed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef CUZK_HAVE_CUDA

int main(void)
{
    printf("SKIPPED: test_cuda_r1cs: this build has no CUDA backend\n");
    return 77;
}

#else

#include <cuda_runtime_api.h>

#include "circuits/builtin.h"
#include "circuits/zkey.h"
#include "cuda/device.h"
#include "cuda/r1cs_eval.h"
#include "field/bn254_fr.h"
#include "field/scalar_slots.h"
#include "formats/circom_wtns.h"
#include "formats/zkey.h"
#include "r1cs/r1cs.h"
#include "seed.h"
#include "util/rng.h"

#define FIX CUZK_VECTOR_DIR "/../fixtures/circom/"
#define TAIL 4 /* elements past the rows of each output, checked untouched */

static int device; /* CUDA_R1CS_HOST_EMULATION, then 0 */
static uint64_t g_seed;
static rng_t rng;
static char msg[512];
static curve_id g_curve; /* the field of the systems the tests build */

/* ---- scalars of g_curve's field, in fr_t slots ----------------------------- */

static void sc_from_u64(fr_t *r, uint64_t v)
{
    if (g_curve == CURVE_BN254)
        bn254_fr_from_u64(bn254_fr_slots(r), v);
    else
        fr_from_u64(r, v);
}

static void sc_random(fr_t *r)
{
    if (g_curve == CURVE_BN254)
        bn254_fr_random(bn254_fr_slots(r), &rng);
    else
        fr_random(r, &rng);
}

static void sc_neg(fr_t *r, const fr_t *a)
{
    if (g_curve == CURVE_BN254)
        bn254_fr_neg(bn254_fr_slots(r), bn254_fr_slots_const(a));
    else
        fr_neg(r, a);
}

/* Whether a·b = c in the field of `curve`. */
static bool sc_mul_eq(curve_id curve, const fr_t *a, const fr_t *b, const fr_t *c)
{
    if (curve == CURVE_BN254) {
        bn254_fr_t ab;
        bn254_fr_mul(&ab, bn254_fr_slots_const(a), bn254_fr_slots_const(b));
        return bn254_fr_eq(&ab, bn254_fr_slots_const(c));
    }
    fr_t ab;
    fr_mul(&ab, a, b);
    return fr_eq(&ab, c);
}

static void expect_ok(cuzk_status st, const char *what)
{
    if (st != CUZK_OK)
        fail_msg("%s: %s: %s (%s)", what, cuzk_status_str(st), msg, cuda_r1cs_last_error());
}

/* ---- "device" memory: host memory in the emulation ------------------------ */

static void *dev_alloc(size_t bytes)
{
    void *p = NULL;
    if (device == CUDA_R1CS_HOST_EMULATION)
        p = aligned_alloc(64, (bytes + 63) & ~(size_t)63);
    else if (cudaMalloc(&p, bytes) != cudaSuccess)
        p = NULL;
    assert_non_null(p);
    return p;
}

static void dev_free(void *p)
{
    if (device == CUDA_R1CS_HOST_EMULATION)
        free(p);
    else
        cudaFree(p);
}

static void dev_put(void *d, const void *h, size_t bytes)
{
    if (device == CUDA_R1CS_HOST_EMULATION)
        memcpy(d, h, bytes);
    else
        assert_int_equal(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice), cudaSuccess);
}

static void dev_get(void *h, const void *d, size_t bytes)
{
    if (device == CUDA_R1CS_HOST_EMULATION)
        memcpy(h, d, bytes);
    else
        assert_int_equal(cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost), cudaSuccess);
}

/* ---- the comparison ---------------------------------------------------------- */

static cuda_r1cs_src src_of(const r1cs_t *r, bool c_is_ab)
{
    cuda_r1cs_src s = {.rows = r->num_constraints,
                       .num_vars = r1cs_num_vars(r),
                       .coeffs = (const struct fr *)r->coeffs,
                       .num_coeffs = r->num_coeffs,
                       .coeff_width = r->coeff_width,
                       .c_is_ab = c_is_ab,
                       .curve = r->curve == CURVE_BN254 ? CUDA_R1CS_BN254 : CUDA_R1CS_BLS12_381};
    const r1cs_matrix *ms[3] = {&r->a, &r->b, &r->c};
    for (int k = 0; k < 3; k++)
        s.m[k] = (cuda_r1cs_matrix_src){
            .row_ptr = ms[k]->row_ptr, .col = ms[k]->col, .coeff = ms[k]->coeff, .nnz = ms[k]->nnz};
    return s;
}

/* The lowest row of the CPU's vectors with a·b ≠ c. */
static uint64_t cpu_first_bad(curve_id curve, const fr_t *a, const fr_t *b, const fr_t *c,
                              uint64_t rows)
{
    for (uint64_t i = 0; i < rows; i++)
        if (!sc_mul_eq(curve, &a[i], &b[i], &c[i]))
            return i;
    return CUDA_R1CS_ROW_NONE;
}

/* The device's a, b, c and first failing row for w equal the CPU's;
 * returns that row. */
static uint64_t compare(const char *what, const r1cs_t *r, bool c_is_ab, const fr_t *w)
{
    const uint64_t rows = r->num_constraints, nv = r1cs_num_vars(r);
    cuda_r1cs_src src = src_of(r, c_is_ab);
    cuda_r1cs *dr;
    cuda_r1cs_check *ck;
    expect_ok(cuda_r1cs_upload(&dr, device, &src), what);
    expect_ok(cuda_r1cs_check_create(&ck, device), what);
    assert_true(cuda_r1cs_device_bytes(dr) > 0);

    const size_t len = (size_t)rows + TAIL;
    fr_t *want = calloc(3 * len, sizeof(fr_t)), *got = malloc(3 * len * sizeof(fr_t));
    assert_true(want && got);
    memset(got, 0xab, 3 * len * sizeof(fr_t)); /* the sentinel past the rows */
    void *d_w = dev_alloc(nv * sizeof(fr_t)), *d_abc[3];
    dev_put(d_w, w, nv * sizeof(fr_t));
    for (int k = 0; k < 3; k++) {
        d_abc[k] = dev_alloc(len * sizeof(fr_t));
        dev_put(d_abc[k], got + (size_t)k * len, len * sizeof(fr_t));
    }
    uint64_t bad = 0;
    expect_ok(cuda_r1cs_eval(dr, ck, d_w, d_abc, NULL, &bad), what);
    for (int k = 0; k < 3; k++)
        dev_get(got + (size_t)k * len, d_abc[k], len * sizeof(fr_t));

    fr_t *a = want, *b = a + len, *c = b + len;
    r1cs_eval(r, w, a, b, c_is_ab ? NULL : c, 2);
    if (c_is_ab)
        r1cs_mul_rows_over(r->curve, c, a, b, rows, 2);
    static const char names[3] = {'a', 'b', 'c'};
    for (int k = 0; k < 3; k++) {
        for (uint64_t i = 0; i < rows; i++)
            if (memcmp(&got[(size_t)k * len + i], &want[(size_t)k * len + i], sizeof(fr_t)))
                fail_msg("%s: %c[%llu] differs from the CPU's (seed %llu)", what, names[k],
                         (unsigned long long)i, (unsigned long long)g_seed);
        const uint8_t *tail = (const uint8_t *)&got[(size_t)k * len + rows];
        for (size_t i = 0; i < TAIL * sizeof(fr_t); i++)
            if (tail[i] != 0xab)
                fail_msg("%s: %c was written past its %llu rows", what, names[k],
                         (unsigned long long)rows);
    }
    uint64_t want_bad = c_is_ab ? CUDA_R1CS_ROW_NONE : cpu_first_bad(r->curve, a, b, c, rows);
    if (bad != want_bad)
        fail_msg("%s: first failing row %llu, the CPU's %llu", what, (unsigned long long)bad,
                 (unsigned long long)want_bad);

    /* The two-vector form (the lean quotient's): a and b with C checked
     * against a·b unstored, then c into b's vector; the same values, the
     * same first failing row, nothing written past the rows. */
    memset(got, 0xab, 3 * len * sizeof(fr_t));
    for (int k = 0; k < 2; k++)
        dev_put(d_abc[k], got + (size_t)k * len, len * sizeof(fr_t));
    uint64_t lean_bad = 0;
    expect_ok(cuda_r1cs_eval_ab(dr, ck, d_w, d_abc[0], d_abc[1], NULL, &lean_bad), what);
    for (int k = 0; k < 2; k++)
        dev_get(got + (size_t)k * len, d_abc[k], len * sizeof(fr_t));
    expect_ok(cuda_r1cs_eval_c(dr, d_w, d_abc[1], NULL), what);
    if (device != CUDA_R1CS_HOST_EMULATION)
        assert_int_equal(cudaDeviceSynchronize(), cudaSuccess);
    dev_get(got + 2 * len, d_abc[1], len * sizeof(fr_t));
    for (int k = 0; k < 3; k++) {
        for (uint64_t i = 0; i < rows; i++)
            if (memcmp(&got[(size_t)k * len + i], &want[(size_t)k * len + i], sizeof(fr_t)))
                fail_msg("%s: two-vector %c[%llu] differs from the CPU's (seed %llu)", what,
                         names[k], (unsigned long long)i, (unsigned long long)g_seed);
        const uint8_t *tail = (const uint8_t *)&got[(size_t)k * len + rows];
        for (size_t i = 0; i < TAIL * sizeof(fr_t); i++)
            if (tail[i] != 0xab)
                fail_msg("%s: two-vector %c was written past its %llu rows", what, names[k],
                         (unsigned long long)rows);
    }
    if (lean_bad != want_bad)
        fail_msg("%s: two-vector first failing row %llu, the CPU's %llu", what,
                 (unsigned long long)lean_bad, (unsigned long long)want_bad);

    for (int k = 0; k < 3; k++)
        dev_free(d_abc[k]);
    dev_free(d_w);
    free(want);
    free(got);
    cuda_r1cs_check_free(ck);
    cuda_r1cs_free(dr);
    return bad;
}

/* w[0] = 1, then a third 0, a third 1, a third random. */
static void random_witness(fr_t *w, uint64_t nv)
{
    sc_from_u64(&w[0], 1);
    for (uint64_t i = 1; i < nv; i++) {
        uint64_t kind = rng_u64(&rng) % 3;
        if (kind == 2)
            sc_random(&w[i]);
        else
            sc_from_u64(&w[i], kind);
    }
}

/* ---- the systems ---------------------------------------------------------------- */

static void test_builtin(void **state)
{
    (void)state;
    g_curve = CURVE_BLS12_381;
    for (unsigned k = 10; k <= 12; k += 2) {
        porep_like_params p;
        expect_ok(porep_like_params_for_constraints(&p, k, 8), "shape");
        r1cs_t r;
        expect_ok(builtin_compile(&r, &p, 2), "builtin_compile");
        uint64_t nv = r1cs_num_vars(&r);
        fr_t *w = malloc(nv * sizeof(fr_t));
        assert_non_null(w);
        char what[64];
        expect_ok(builtin_witness(w, nv, &p, g_seed + k, 0), "builtin_witness");
        snprintf(what, sizeof(what), "builtin 2^%u, its witness", k);
        assert_true(compare(what, &r, false, w) == CUDA_R1CS_ROW_NONE);
        /* One aux value broken: the rows using it fail, the lowest reported. */
        uint64_t v = r.num_inputs + rng_u64(&rng) % r.num_aux;
        fr_add(&w[v], &w[v], &FR_ONE);
        snprintf(what, sizeof(what), "builtin 2^%u, w[%llu] broken", k, (unsigned long long)v);
        assert_true(compare(what, &r, false, w) != CUDA_R1CS_ROW_NONE);
        random_witness(w, nv);
        snprintf(what, sizeof(what), "builtin 2^%u, random witness", k);
        compare(what, &r, false, w);
        printf("builtin 2^%u: %llu rows, %llu nonzeros in A, B, C\n", k,
               (unsigned long long)r.num_constraints,
               (unsigned long long)(r.a.nnz + r.b.nnz + r.c.nnz));
        free(w);
        r1cs_free(&r);
    }
}

static void test_zkey(void **state)
{
    (void)state;
    g_curve = CURVE_BLS12_381;
    static const char *const names[] = {"chain", "poseidon", "manypub"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        char zpath[512], wpath[512], what[64];
        snprintf(zpath, sizeof(zpath), FIX "%s_bls12381.zkey", names[i]);
        snprintf(wpath, sizeof(wpath), FIX "%s_bls12381.wtns", names[i]);
        zkey_t z;
        fr_t *w;
        uint64_t nw;
        expect_ok(zkey_open(&z, zpath, FORMATS_CHECK_CURVE, msg, sizeof(msg)), zpath);
        expect_ok(circom_wtns_load(&w, &nw, wpath, msg, sizeof(msg)), wpath);
        zkey_circuit_t zc;
        expect_ok(zkey_circuit_init(&zc, &z, FORMATS_CHECK_CURVE, 2, msg, sizeof(msg)), zpath);
        assert_int_equal(nw, r1cs_num_vars(&zc.cs));
        assert_int_equal(zc.cs.c.nnz, 0);
        snprintf(what, sizeof(what), "zkey %s, its witness", names[i]);
        compare(what, &zc.cs, true, w);
        random_witness(w, nw);
        snprintf(what, sizeof(what), "zkey %s, random witness", names[i]);
        compare(what, &zc.cs, true, w);
        zkey_circuit_free(&zc);
        free(w);
        zkey_close(&z);
    }
}

/* Entries of a system with every edge case; *n counts them. */
typedef struct entries {
    r1cs_entry *e;
    uint64_t n, cap;
} entries;

static void put(entries *es, uint32_t matrix, uint32_t row, uint32_t col, const fr_t *v)
{
    if (es->n == es->cap) {
        es->cap = es->cap ? 2 * es->cap : 1024;
        es->e = realloc(es->e, es->cap * sizeof(r1cs_entry));
        assert_non_null(es->e);
    }
    es->e[es->n++] = (r1cs_entry){.matrix = matrix, .row = row, .col = col, .value = *v};
}

/* A system of `rows` rows over nv variables: row i's length in each matrix
 * cycles through empty, 1, 2, 3 and a few tier boundaries (32, 33, 1024,
 * 1025) and one of 5,000 terms; coefficients 1, −1, 0 (dropped), large
 * random ones, and columns repeated (merged). With distinct_coeffs, every
 * random coefficient is fresh, so the table passes 65,536 entries. */
static void edge_system(r1cs_t *r, uint64_t rows, uint64_t nv, bool distinct_coeffs)
{
    static const uint32_t lengths[] = {0, 1, 2, 3, 7, 31, 32, 33, 100, 1024, 1025, 2, 1, 0, 5000};
    const size_t nlen = sizeof(lengths) / sizeof(lengths[0]);
    entries es = {0};
    fr_t one, minus_one, zero = FR_ZERO, v; /* zero: all-zero limbs in both fields */
    sc_from_u64(&one, 1);
    sc_neg(&minus_one, &one);
    uint64_t big_rows = 0;
    for (uint64_t i = 0; i < rows; i++) {
        for (uint32_t m = 0; m < 3; m++) {
            uint32_t len = lengths[(i * 3 + m) % nlen];
            if (len >= 1000 && big_rows++ > 6)
                len = 4; /* a few long rows are enough */
            for (uint32_t t = 0; t < len; t++) {
                uint32_t col = (uint32_t)(rng_u64(&rng) % nv);
                switch (rng_u64(&rng) % (distinct_coeffs ? 8 : 6)) {
                case 0:
                    put(&es, m, (uint32_t)i, col, &one);
                    break;
                case 1:
                    put(&es, m, (uint32_t)i, col, &minus_one);
                    break;
                case 2:
                    put(&es, m, (uint32_t)i, col, &zero);
                    break;
                case 3: /* the same column twice: merged */
                    sc_random(&v);
                    put(&es, m, (uint32_t)i, col, &v);
                    put(&es, m, (uint32_t)i, col, &one);
                    break;
                case 4: /* small powers of two, as packing rows have */
                    sc_from_u64(&v, (uint64_t)1 << (rng_u64(&rng) % 60));
                    put(&es, m, (uint32_t)i, col, &v);
                    break;
                default:
                    sc_random(&v);
                    put(&es, m, (uint32_t)i, col, &v);
                }
            }
        }
    }
    expect_ok(r1cs_from_entries_over(r, g_curve, es.e, es.n, rows, 1 + nv / 8, nv - 1 - nv / 8, msg,
                                     sizeof(msg)),
              "r1cs_from_entries_over");
    expect_ok(r1cs_validate(r, 2, msg, sizeof(msg)), "r1cs_validate");
    free(es.e);
}

/* Rows per length tier of the device code (r1cs_eval.cu: one thread up to
 * 32 terms, a warp up to 1,024, a block beyond), over the three matrices. */
static void count_tiers(const r1cs_t *r, uint64_t tiers[4])
{
    const r1cs_matrix *ms[3] = {&r->a, &r->b, &r->c};
    memset(tiers, 0, 4 * sizeof(uint64_t));
    for (int k = 0; k < 3; k++)
        for (uint64_t i = 0; i < r->num_constraints; i++) {
            uint64_t len = ms[k]->row_ptr[i + 1] - ms[k]->row_ptr[i];
            tiers[len == 0 ? 0 : len <= 32 ? 1 : len <= 1024 ? 2 : 3]++;
        }
}

static void edge_cases(curve_id curve)
{
    g_curve = curve;
    r1cs_t r;
    edge_system(&r, 300, 4000, false);
    assert_int_equal(r.coeff_width, 2);
    uint64_t tiers[4];
    count_tiers(&r, tiers);
    printf("edge system: %llu empty rows, %llu of 1-32 terms, %llu of 33-1024, %llu longer\n",
           (unsigned long long)tiers[0], (unsigned long long)tiers[1], (unsigned long long)tiers[2],
           (unsigned long long)tiers[3]);
    for (int t = 0; t < 4; t++)
        assert_true(tiers[t] > 0);
    uint64_t nv = r1cs_num_vars(&r);
    fr_t *w = malloc(nv * sizeof(fr_t));
    assert_non_null(w);
    for (int round = 0; round < 3; round++) {
        random_witness(w, nv);
        compare("edge cases, u16 coefficient indices", &r, false, w);
        compare("edge cases, c = a·b", &r, true, w);
    }
    /* All ones: every product takes the w = 1 path. */
    for (uint64_t i = 0; i < nv; i++)
        sc_from_u64(&w[i], 1);
    compare("edge cases, w all ones", &r, false, w);
    free(w);
    r1cs_free(&r);

    edge_system(&r, 12000, 20000, true);
    printf("wide system: %llu distinct coefficients\n", (unsigned long long)r.num_coeffs);
    assert_true(r.num_coeffs > 65536);
    assert_int_equal(r.coeff_width, 4);
    nv = r1cs_num_vars(&r);
    w = malloc(nv * sizeof(fr_t));
    assert_non_null(w);
    random_witness(w, nv);
    compare("edge cases, u32 coefficient indices", &r, false, w);
    free(w);
    r1cs_free(&r);
}

/* A satisfied system where only row `bad` can fail: a_i = w_i, b_i = 1,
 * c_i = w_i, with c_bad made 2·w_bad. Also the refusals of bad counts. */
static void unsatisfied_and_refusals(curve_id curve)
{
    g_curve = curve;
    const uint64_t rows = 5000, nv = rows + 1, bad = 4321;
    entries es = {0};
    fr_t one, two;
    sc_from_u64(&one, 1);
    sc_from_u64(&two, 2);
    for (uint32_t i = 0; i < rows; i++) {
        put(&es, 0, i, i + 1, &one);
        put(&es, 1, i, 0, &one);
        put(&es, 2, i, i + 1, i == bad ? &two : &one);
    }
    r1cs_t r;
    expect_ok(r1cs_from_entries_over(&r, g_curve, es.e, es.n, rows, 1, rows, msg, sizeof(msg)),
              "entries");
    free(es.e);
    fr_t *w = malloc(nv * sizeof(fr_t));
    assert_non_null(w);
    random_witness(w, nv);
    for (uint64_t i = 1; i < nv; i++)
        if (fr_is_zero(&w[i])) /* all-zero limbs: zero in both fields */
            sc_from_u64(&w[i], 1 + i); /* 2·w ≠ w needs w ≠ 0 */
    assert_int_equal(compare("one bad row", &r, false, w), bad);
    fr_t zero = FR_ZERO;
    w[bad + 1] = zero; /* 0 = 2·0: satisfied */
    assert_int_equal(compare("no bad row", &r, false, w), CUDA_R1CS_ROW_NONE);
    free(w);

    cuda_r1cs *dr = NULL;
    cuda_r1cs_src src = src_of(&r, false);
    src.coeff_width = 3;
    assert_int_equal(cuda_r1cs_upload(&dr, device, &src), CUZK_ERR_INVALID_ARGUMENT);
    src = src_of(&r, false);
    src.m[2].nnz += 1; /* row pointers no longer span nnz */
    assert_int_equal(cuda_r1cs_upload(&dr, device, &src), CUZK_ERR_INVALID_ARGUMENT);
    src = src_of(&r, false);
    src.rows = (uint64_t)UINT32_MAX + 1;
    assert_int_equal(cuda_r1cs_upload(&dr, device, &src), CUZK_ERR_INVALID_ARGUMENT);
    src = src_of(&r, false);
    src.curve = (cuda_r1cs_curve)2; /* no such curve */
    assert_int_equal(cuda_r1cs_upload(&dr, device, &src), CUZK_ERR_INVALID_ARGUMENT);
    assert_null(dr);
    r1cs_free(&r);
}

static void test_edge_cases(void **state)
{
    (void)state;
    edge_cases(CURVE_BLS12_381);
}

static void test_unsatisfied_and_refusals(void **state)
{
    (void)state;
    unsatisfied_and_refusals(CURVE_BLS12_381);
}

static void test_bn254_edge_cases(void **state)
{
    (void)state;
    edge_cases(CURVE_BN254);
}

static void test_bn254_unsatisfied(void **state)
{
    (void)state;
    unsatisfied_and_refusals(CURVE_BN254);
}

/* The circom fixtures over BN254 (snarkjs keys: C empty, c = a·b): their
 * witnesses, then random ones. */
static void test_bn254_zkey(void **state)
{
    (void)state;
    g_curve = CURVE_BN254;
    static const char *const names[] = {"chain", "poseidon", "manypub"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        char zpath[512], wpath[512], what[64];
        snprintf(zpath, sizeof(zpath), FIX "%s_bn128.zkey", names[i]);
        snprintf(wpath, sizeof(wpath), FIX "%s_bn128.wtns", names[i]);
        zkey_t z;
        expect_ok(zkey_open(&z, zpath, FORMATS_CHECK_CURVE, msg, sizeof(msg)), zpath);
        assert_int_equal(z.curve, CURVE_BN254);
        circom_wtns_t wt;
        expect_ok(circom_wtns_open(&wt, wpath, msg, sizeof(msg)), wpath);
        const uint64_t nw = wt.num_values;
        fr_t *w = malloc(nw * sizeof(fr_t));
        assert_non_null(w);
        expect_ok(circom_wtns_decode(w, &wt, 0, nw, msg, sizeof(msg)), wpath);
        circom_wtns_close(&wt);
        bn254_zkey_circuit_t zc;
        expect_ok(bn254_zkey_circuit_init(&zc, &z, FORMATS_CHECK_CURVE, 2, msg, sizeof(msg)),
                  zpath);
        assert_int_equal(zc.cs.curve, CURVE_BN254);
        assert_int_equal(nw, r1cs_num_vars(&zc.cs));
        snprintf(what, sizeof(what), "bn128 zkey %s, its witness", names[i]);
        compare(what, &zc.cs, true, w);
        random_witness(w, nw);
        snprintf(what, sizeof(what), "bn128 zkey %s, random witness", names[i]);
        compare(what, &zc.cs, true, w);
        bn254_zkey_circuit_free(&zc);
        free(w);
        zkey_close(&z);
    }
}

static int run_all(const char *label)
{
    printf("test_cuda_r1cs: %s\n", label);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_builtin),
        cmocka_unit_test(test_zkey),
        cmocka_unit_test(test_edge_cases),
        cmocka_unit_test(test_unsatisfied_and_refusals),
        cmocka_unit_test(test_bn254_zkey),
        cmocka_unit_test(test_bn254_edge_cases),
        cmocka_unit_test(test_bn254_unsatisfied),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

int main(void)
{
    g_seed = test_seed("test_cuda_r1cs");
    rng_seed(&rng, g_seed);
    device = CUDA_R1CS_HOST_EMULATION;
    int failed = run_all("host emulation");
    if (failed)
        return failed;
    const char *why = NULL;
    if (cuda_device_count(&why) <= 0) {
        printf("SKIPPED: test_cuda_r1cs: no CUDA device (%s); the host emulation passed\n",
               why ? why : "none");
        return 77;
    }
    device = 0;
    rng_seed(&rng, g_seed);
    return run_all("device 0");
}

#endif
