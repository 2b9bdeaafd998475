/* circom / snarkjs binary files (.r1cs, .wtns, .zkey) from the fixtures of
 * tools/fixtures: parsing, the relations between the files (the witness
 * satisfies the constraints, the zkey's counts and coefficient matrices
 * agree with the r1cs, its points with the semantics snarkjs gives them),
 * the BLS12-381-only readers' refusal of BN254 files, the curve the key
 * and witness readers take from a BN254 file's primes, and a BN254 .r1cs
 * read over BN254's field (its witness satisfies it). */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "naive_abc.h"
#include "formats/circom_r1cs.h"
#include "formats/circom_wtns.h"
#include "formats/snarkjs_json.h"
#include "field/scalar_slots.h"
#include "formats/zkey.h"

#define FIX CUZK_VECTOR_DIR "/../fixtures/circom/"
/* The BLS12-381-only readers (circom_wtns_load, the JSON ones: their BN254
 * twins are bn254_snarkjs_json.h) name the curve of a BN254 file. */
#define BN128_MSG "this file is for the bn128 curve"

static char msg[512];

static void expect_ok(cuzk_status st)
{
    if (st != CUZK_OK)
        fail_msg("status %s: %s", cuzk_status_str(st), msg);
}

typedef struct fixture {
    r1cs_t r;
    circom_r1cs_header h;
    uint64_t *labels;
    fr_t *w;
    uint64_t nw;
    zkey_t z;
} fixture;

static void load_all(fixture *f, const char *zkey_name)
{
    memset(f, 0, sizeof(*f));
    expect_ok(
        circom_r1cs_load(&f->r, &f->h, &f->labels, FIX "chain_bls12381.r1cs", 1, msg, sizeof(msg)));
    expect_ok(circom_wtns_load(&f->w, &f->nw, FIX "chain_bls12381.wtns", msg, sizeof(msg)));
    expect_ok(zkey_open(&f->z, zkey_name, FORMATS_CHECK_SUBGROUP, msg, sizeof(msg)));
}

static void free_all(fixture *f)
{
    r1cs_free(&f->r);
    free(f->labels);
    free(f->w);
    zkey_close(&f->z);
}

static void test_r1cs_header(void **state)
{
    (void)state;
    fixture f;
    load_all(&f, FIX "chain_bls12381.zkey");
    /* chain.circom: 36 constraints, 39 wires, 41 labels, outputs out and
     * mix, public inputs y and k, private input x. */
    assert_int_equal(f.h.n8, 32);
    assert_int_equal(f.h.num_wires, 39);
    assert_int_equal(f.h.num_pub_out, 2);
    assert_int_equal(f.h.num_pub_in, 2);
    assert_int_equal(f.h.num_prv_in, 1);
    assert_int_equal(f.h.num_labels, 41);
    assert_int_equal(f.h.num_constraints, 36);
    assert_int_equal(f.r.num_constraints, 36);
    assert_int_equal(f.r.num_inputs, 5);
    assert_int_equal(r1cs_num_vars(&f.r), 39);
    expect_ok(r1cs_validate(&f.r, 1, msg, sizeof(msg)));
    assert_non_null(f.labels);
    assert_int_equal(f.labels[0], 0);
    for (uint32_t i = 1; i < f.h.num_wires; i++) {
        assert_true(f.labels[i] > f.labels[i - 1]); /* circom keeps label order */
        assert_true(f.labels[i] < f.h.num_labels);
    }
    circom_r1cs_header h2;
    mapped_file_t mf;
    expect_ok(mapped_file_open(&mf, FIX "chain_bls12381.r1cs", msg, sizeof(msg)));
    expect_ok(circom_r1cs_read_header(&h2, &mf, msg, sizeof(msg)));
    assert_memory_equal(&h2, &f.h, sizeof(h2));
    mapped_file_close(&mf);
    free_all(&f);
}

static void test_witness_satisfies(void **state)
{
    (void)state;
    fixture f;
    load_all(&f, FIX "chain_bls12381.zkey");
    assert_int_equal(f.nw, f.h.num_wires);
    assert_true(fr_is_one(&f.w[0]));
    uint64_t bad;
    assert_true(r1cs_is_satisfied(&f.r, f.w, &bad, 1));
    assert_int_equal(bad, R1CS_ROW_NONE);
    /* x = 173, y = 19, k = 4 (input.json): w[3] = y, w[4] = k (public
     * inputs after the two outputs), w[5] = x (the private input). */
    fr_t v;
    fr_from_u64(&v, 19);
    assert_true(fr_eq(&f.w[3], &v));
    fr_from_u64(&v, 4);
    assert_true(fr_eq(&f.w[4], &v));
    fr_from_u64(&v, 173);
    assert_true(fr_eq(&f.w[5], &v));
    /* public.json lists w[1..nPublic]. */
    fr_t *pub;
    size_t npub;
    expect_ok(snarkjs_public_load(&pub, &npub, FIX "public_bls12381.json", msg, sizeof(msg)));
    assert_int_equal(npub, circom_r1cs_num_public(&f.h));
    for (size_t i = 0; i < npub; i++)
        assert_true(fr_eq(&pub[i], &f.w[1 + i]));
    free(pub);
    /* A wrong value breaks a constraint. */
    fr_add(&f.w[5], &f.w[5], &FR_ONE);
    assert_false(r1cs_is_satisfied(&f.r, f.w, &bad, 1));
    assert_true(bad < f.r.num_constraints);
    /* Ranged decoding into a caller's buffer. */
    circom_wtns_t wt;
    expect_ok(circom_wtns_open(&wt, FIX "chain_bls12381.wtns", msg, sizeof(msg)));
    fr_t part[4];
    expect_ok(circom_wtns_decode(part, &wt, 35, 4, msg, sizeof(msg)));
    assert_memory_equal(part, &f.w[35], sizeof(part));
    assert_int_equal(circom_wtns_decode(part, &wt, 36, 4, msg, sizeof(msg)),
                     CUZK_ERR_INVALID_ARGUMENT);
    circom_wtns_close(&wt);
    free_all(&f);
}

/* Per constraint, <A,w>, <B,w>, <C,w> summed from the terms as the file
 * lists them. */
typedef struct term_sums {
    const fr_t *w;
    fr_t *abc;      /* 3 per constraint */
    uint64_t terms; /* calls of the term callback */
    uint32_t rows;  /* calls of the row callback */
    uint64_t stop_at;
} term_sums;

static cuzk_status sum_term(void *ctx, uint32_t constraint, unsigned lc, uint32_t wire,
                            const fr_t *coeff)
{
    term_sums *t = ctx;
    assert_true(lc < 3);
    assert_int_equal(constraint, t->rows); /* rows in order, row_end after each */
    fr_t x;
    fr_mul(&x, coeff, &t->w[wire]);
    fr_add(&t->abc[3 * constraint + lc], &t->abc[3 * constraint + lc], &x);
    return t->terms++ == t->stop_at ? CUZK_ERR_CORRUPT : CUZK_OK;
}

static cuzk_status sum_row(void *ctx, uint32_t constraint)
{
    term_sums *t = ctx;
    assert_int_equal(constraint, t->rows);
    t->rows++;
    return CUZK_OK;
}

/* circom_r1cs_for_each_term walks every term once, in constraint order:
 * its sums agree with A·w, B·w, C·w of the parsed system, and a callback's
 * failure stops the walk. */
static void test_r1cs_terms(void **state)
{
    (void)state;
    fixture f;
    load_all(&f, FIX "chain_bls12381.zkey");
    uint64_t nc = f.r.num_constraints;
    fr_t *abc = calloc(3 * nc, sizeof(fr_t)), *ra = malloc(nc * sizeof(fr_t)),
         *rb = malloc(nc * sizeof(fr_t)), *rc = malloc(nc * sizeof(fr_t));
    assert_true(abc && ra && rb && rc);
    mapped_file_t mf;
    expect_ok(mapped_file_open(&mf, FIX "chain_bls12381.r1cs", msg, sizeof(msg)));
    term_sums t = {.w = f.w, .abc = abc, .stop_at = UINT64_MAX};
    expect_ok(circom_r1cs_for_each_term(&mf, sum_term, sum_row, &t, msg, sizeof(msg)));
    assert_int_equal(t.rows, nc);
    assert_int_equal(t.terms, f.r.a.nnz + f.r.b.nnz + f.r.c.nnz);
    r1cs_eval(&f.r, f.w, ra, rb, rc, 1);
    for (uint64_t i = 0; i < nc; i++) {
        assert_true(fr_eq(&abc[3 * i], &ra[i]));
        assert_true(fr_eq(&abc[3 * i + 1], &rb[i]));
        assert_true(fr_eq(&abc[3 * i + 2], &rc[i]));
    }
    memset(abc, 0, 3 * nc * sizeof(fr_t));
    t = (term_sums){.w = f.w, .abc = abc, .stop_at = 10};
    assert_int_equal(circom_r1cs_for_each_term(&mf, sum_term, sum_row, &t, msg, sizeof(msg)),
                     CUZK_ERR_CORRUPT);
    assert_int_equal(t.terms, 11);
    mapped_file_close(&mf);
    free(abc), free(ra), free(rb), free(rc);
    free_all(&f);
}

static uint64_t next_pow2(uint64_t n)
{
    uint64_t p = 1;
    while (p < n)
        p <<= 1;
    return p;
}

/* Whether column col has an entry in matrix m. */
static bool column_used(const r1cs_matrix *m, uint32_t col)
{
    for (uint64_t k = 0; k < m->nnz; k++)
        if (m->col[k] == col)
            return true;
    return false;
}

static void check_zkey_against_r1cs(const char *zkey_name)
{
    fixture f;
    load_all(&f, zkey_name);
    const zkey_t *z = &f.z;
    uint64_t npub = circom_r1cs_num_public(&f.h);
    assert_int_equal(z->num_vars, f.h.num_wires);
    assert_int_equal(z->num_public, npub);
    assert_int_equal(z->domain_size, next_pow2(f.h.num_constraints + npub + 1));
    assert_int_equal(z->vk.num_ic, npub + 1);
    assert_int_equal(z->num_points[ZKEY_POINTS_C], f.h.num_wires - npub - 1);
    assert_int_equal(z->num_points[ZKEY_POINTS_H], z->domain_size);
    /* gamma is 1 in snarkjs's setup: gamma2 is the generator. */
    assert_true(g2_affine_eq(&z->vk.gamma_g2, &G2_GENERATOR));

    /* The coefficients: r1cs order (A terms, then B terms per constraint),
     * then one A entry of 1 on signal i in row nConstraints + i. */
    r1cs_entry *co = malloc(z->num_coeffs * sizeof(r1cs_entry));
    assert_non_null(co);
    expect_ok(zkey_decode_coeffs(co, z, 2, msg, sizeof(msg)));
    uint64_t nnz = f.r.a.nnz + f.r.b.nnz;
    assert_int_equal(z->num_coeffs, nnz + npub + 1);
    uint64_t k = 0;
    for (uint64_t row = 0; row < f.r.num_constraints; row++) {
        const r1cs_matrix *ms[2] = {&f.r.a, &f.r.b};
        for (uint32_t m = 0; m < 2; m++) {
            for (uint64_t t = ms[m]->row_ptr[row]; t < ms[m]->row_ptr[row + 1]; t++, k++) {
                assert_int_equal(co[k].matrix, m);
                assert_int_equal(co[k].row, row);
                assert_int_equal(co[k].col, ms[m]->col[t]);
                const fr_t *want = &f.r.coeffs[r1cs_coeff_at(&f.r, ms[m], t)];
                assert_true(fr_eq(&co[k].value, want));
            }
        }
    }
    for (uint64_t i = 0; i <= npub; i++, k++) {
        assert_int_equal(co[k].matrix, 0);
        assert_int_equal(co[k].row, f.r.num_constraints + i);
        assert_int_equal(co[k].col, i);
        assert_true(fr_is_one(&co[k].value));
    }

    /* a, b, c as snarkjs computes them agree with A·w, B·w, C·w. */
    uint64_t n = z->domain_size, nc = f.r.num_constraints;
    fr_t *a = malloc(n * sizeof(fr_t)), *b = malloc(n * sizeof(fr_t)),
         *c = malloc(n * sizeof(fr_t)), *ra = malloc(nc * sizeof(fr_t)),
         *rb = malloc(nc * sizeof(fr_t)), *rc = malloc(nc * sizeof(fr_t));
    assert_true(a && b && c && ra && rb && rc);
    naive_abc(a, b, c, co, z->num_coeffs, f.w, n);
    r1cs_eval(&f.r, f.w, ra, rb, rc, 1);
    for (uint64_t row = 0; row < n; row++) {
        if (row < nc) {
            assert_true(fr_eq(&a[row], &ra[row]));
            assert_true(fr_eq(&b[row], &rb[row]));
            assert_true(fr_eq(&c[row], &rc[row]));
        } else if (row <= nc + npub) {
            assert_true(fr_eq(&a[row], &f.w[row - nc]));
            assert_true(fr_is_zero(&b[row]) && fr_is_zero(&c[row]));
        } else {
            assert_true(fr_is_zero(&a[row]) && fr_is_zero(&b[row]) && fr_is_zero(&c[row]));
        }
    }
    /* The compiled form the engine evaluates gives the same a and b. */
    r1cs_t cs;
    expect_ok(r1cs_from_entries(&cs, co, z->num_coeffs, n, npub + 1, z->num_vars - npub - 1, msg,
                                sizeof(msg)));
    expect_ok(r1cs_validate(&cs, 2, msg, sizeof(msg)));
    fr_t *ca = malloc(n * sizeof(fr_t)), *cb = malloc(n * sizeof(fr_t));
    assert_true(ca && cb);
    r1cs_eval(&cs, f.w, ca, cb, NULL, 2);
    for (uint64_t row = 0; row < n; row++)
        assert_true(fr_eq(&a[row], &ca[row]) && fr_eq(&b[row], &cb[row]));
    assert_int_equal(cs.c.nnz, 0);
    free(ca), free(cb);
    r1cs_free(&cs);
    free(a), free(b), free(c), free(ra), free(rb), free(rc), free(co);

    /* Points: all in the subgroup; A_i (B_i) is infinity exactly when
     * signal i never occurs in A (B) and has no public-input row. */
    uint64_t nv = z->num_vars;
    g1_affine_t *g1 = malloc(n * sizeof(g1_affine_t));
    g2_affine_t *g2 = malloc(nv * sizeof(g2_affine_t));
    assert_true(g1 && g2);
    expect_ok(
        zkey_decode_g1(g1, z, ZKEY_POINTS_A, 0, nv, FORMATS_CHECK_SUBGROUP, 2, msg, sizeof(msg)));
    for (uint32_t i = 0; i < nv; i++)
        assert_int_equal(g1[i].infinity, !(i <= npub || column_used(&f.r.a, i)));
    expect_ok(
        zkey_decode_g1(g1, z, ZKEY_POINTS_B1, 0, nv, FORMATS_CHECK_SUBGROUP, 2, msg, sizeof(msg)));
    expect_ok(zkey_decode_g2(g2, z, 0, nv, FORMATS_CHECK_SUBGROUP, 2, msg, sizeof(msg)));
    for (uint32_t i = 0; i < nv; i++) {
        assert_int_equal(g1[i].infinity, !column_used(&f.r.b, i));
        assert_int_equal(g2[i].infinity, g1[i].infinity);
    }
    expect_ok(zkey_decode_g1(g1, z, ZKEY_POINTS_C, 0, nv - npub - 1, FORMATS_CHECK_SUBGROUP, 2, msg,
                             sizeof(msg)));
    expect_ok(
        zkey_decode_g1(g1, z, ZKEY_POINTS_H, 0, n, FORMATS_CHECK_SUBGROUP, 2, msg, sizeof(msg)));
    for (uint64_t i = 0; i < n; i++)
        assert_false(g1[i].infinity);
    /* Ranges are checked. */
    assert_int_equal(
        zkey_decode_g1(g1, z, ZKEY_POINTS_H, 1, n, FORMATS_CHECK_NONE, 2, msg, sizeof(msg)),
        CUZK_ERR_INVALID_ARGUMENT);
    assert_int_equal(
        zkey_decode_g1(g1, z, ZKEY_POINTS_B2, 0, 1, FORMATS_CHECK_NONE, 2, msg, sizeof(msg)),
        CUZK_ERR_INVALID_ARGUMENT);
    free(g1);
    free(g2);
    free_all(&f);
}

static void test_zkey(void **state)
{
    (void)state;
    check_zkey_against_r1cs(FIX "chain_bls12381.zkey");
}

/* The key straight from `groth16 setup` has its sections in another order
 * (1, 2, 4, 3, 9, 8, 5, 6, 7, 10). The contribution changes delta (and the
 * points divided by it), not alpha, beta, gamma or IC. */
static void test_zkey_section_order(void **state)
{
    (void)state;
    check_zkey_against_r1cs(FIX "chain_setup_bls12381.zkey");
    zkey_t a, b;
    expect_ok(
        zkey_open(&a, FIX "chain_setup_bls12381.zkey", FORMATS_CHECK_CURVE, msg, sizeof(msg)));
    expect_ok(zkey_open(&b, FIX "chain_bls12381.zkey", FORMATS_CHECK_CURVE, msg, sizeof(msg)));
    assert_true(g1_affine_eq(&a.vk.alpha_g1, &b.vk.alpha_g1));
    assert_true(g2_affine_eq(&a.vk.beta_g2, &b.vk.beta_g2));
    for (size_t i = 0; i < a.vk.num_ic; i++)
        assert_true(g1_affine_eq(&a.vk.ic[i], &b.vk.ic[i]));
    assert_false(g2_affine_eq(&a.vk.delta_g2, &b.vk.delta_g2));
    assert_false(g1_affine_eq(&a.vk.delta_g1, &b.vk.delta_g1));
    zkey_close(&a);
    zkey_close(&b);
}

static void expect_bn128(cuzk_status st, const char *file)
{
    assert_int_equal(st, CUZK_ERR_UNSUPPORTED);
    assert_non_null(strstr(msg, BN128_MSG));
    assert_non_null(strstr(msg, file));
}

static void test_bn128_files(void **state)
{
    (void)state;
    fr_t *w = (fr_t *)1;
    uint64_t n = 1;
    expect_bn128(circom_wtns_load(&w, &n, FIX "chain_bn128.wtns", msg, sizeof(msg)),
                 "chain_bn128.wtns");
    assert_null(w);
    assert_int_equal(n, 0);
    /* A BN254 key opens as one (its points need the BN254 decoders:
     * tests/circuits/test_bn254_zkey_circuit.c). */
    zkey_t z;
    const char *keys[2] = {FIX "chain_bn128.zkey", FIX "chain_setup_bn128.zkey"};
    for (int k = 0; k < 2; k++) {
        expect_ok(zkey_open(&z, keys[k], FORMATS_CHECK_SUBGROUP, msg, sizeof(msg)));
        assert_int_equal(z.curve, CURVE_BN254);
        assert_int_equal(z.n8q, 32);
        assert_int_equal(z.bn254_vk.num_ic, z.num_public + 1);
        zkey_close(&z);
    }
    circom_wtns_t wt;
    expect_ok(circom_wtns_open(&wt, FIX "chain_bn128.wtns", msg, sizeof(msg)));
    assert_int_equal(wt.curve, CURVE_BN254);
    circom_wtns_close(&wt);
    groth16_proof_t p;
    expect_bn128(
        snarkjs_proof_load(&p, FIX "proof_bn128.json", FORMATS_CHECK_CURVE, msg, sizeof(msg)),
        "proof_bn128.json");
    groth16_vk_t vk;
    expect_bn128(snarkjs_vk_load(&vk, FIX "verification_key_bn128.json", FORMATS_CHECK_CURVE, msg,
                                 sizeof(msg)),
                 "verification_key_bn128.json");
}

/* BN254's term sums, as sum_term's over BLS12-381. */
static cuzk_status sum_term_bn254(void *ctx, uint32_t constraint, unsigned lc, uint32_t wire,
                                  const fr_t *coeff)
{
    term_sums *t = ctx;
    bn254_fr_t x;
    bn254_fr_t *acc = bn254_fr_slots(&t->abc[3 * constraint + lc]);
    bn254_fr_mul(&x, bn254_fr_slots_const(coeff), bn254_fr_slots_const(&t->w[wire]));
    bn254_fr_add(acc, acc, &x);
    t->terms++;
    return CUZK_OK;
}

/* A BN254 .r1cs (circom's default prime) reads over BN254's scalar field:
 * the header names the curve, the system is valid and its witness, read
 * from the .wtns of the same curve, satisfies it while a changed value does
 * not; the terms the walk gives sum to A·w, B·w, C·w. */
static void test_bn128_r1cs(void **state)
{
    (void)state;
    const char *names[3] = {"chain", "poseidon", "manypub"};
    for (int k = 0; k < 3; k++) {
        char rpath[256], wpath[256];
        snprintf(rpath, sizeof(rpath), FIX "%s_bn128.r1cs", names[k]);
        snprintf(wpath, sizeof(wpath), FIX "%s_bn128.wtns", names[k]);
        r1cs_t r;
        circom_r1cs_header h;
        uint64_t *labels = NULL;
        expect_ok(circom_r1cs_load(&r, &h, &labels, rpath, 1, msg, sizeof(msg)));
        assert_int_equal(h.curve, CURVE_BN254);
        assert_int_equal(r.curve, CURVE_BN254);
        assert_non_null(labels);
        assert_int_equal(r.num_constraints, h.num_constraints);
        assert_int_equal(r1cs_num_vars(&r), h.num_wires);
        assert_int_equal(r.num_inputs, 1 + circom_r1cs_num_public(&h));
        expect_ok(r1cs_validate(&r, 1, msg, sizeof(msg)));
        circom_wtns_t wt;
        expect_ok(circom_wtns_open(&wt, wpath, msg, sizeof(msg)));
        assert_int_equal(wt.curve, CURVE_BN254);
        assert_int_equal(wt.num_values, h.num_wires);
        fr_t *w = malloc(sizeof(fr_t) * wt.num_values);
        assert_non_null(w);
        expect_ok(circom_wtns_decode(w, &wt, 0, wt.num_values, msg, sizeof(msg)));
        circom_wtns_close(&wt);
        uint64_t bad;
        assert_true(r1cs_is_satisfied(&r, w, &bad, 1));
        if (k == 0) {
            /* chain.circom is the BLS12-381 fixture's circuit. */
            assert_int_equal(h.num_constraints, 36);
            assert_int_equal(h.num_wires, 39);
            uint64_t nc = r.num_constraints;
            fr_t *abc = calloc(3 * nc, sizeof(fr_t)), *ra = malloc(nc * sizeof(fr_t)),
                 *rb = malloc(nc * sizeof(fr_t)), *rc = malloc(nc * sizeof(fr_t));
            assert_true(abc && ra && rb && rc);
            mapped_file_t mf;
            expect_ok(mapped_file_open(&mf, rpath, msg, sizeof(msg)));
            term_sums t = {.w = w, .abc = abc, .stop_at = UINT64_MAX};
            expect_ok(circom_r1cs_for_each_term(&mf, sum_term_bn254, NULL, &t, msg, sizeof(msg)));
            mapped_file_close(&mf);
            assert_int_equal(t.terms, r.a.nnz + r.b.nnz + r.c.nnz);
            r1cs_eval(&r, w, ra, rb, rc, 1);
            for (uint64_t i = 0; i < nc; i++) {
                assert_true(bn254_fr_eq(bn254_fr_slots_const(&abc[3 * i]), bn254_fr_slots(&ra[i])));
                assert_true(
                    bn254_fr_eq(bn254_fr_slots_const(&abc[3 * i + 1]), bn254_fr_slots(&rb[i])));
                assert_true(
                    bn254_fr_eq(bn254_fr_slots_const(&abc[3 * i + 2]), bn254_fr_slots(&rc[i])));
            }
            free(abc), free(ra), free(rb), free(rc);
        }
        /* The first output changed: the constraint that defines it breaks. */
        bn254_fr_t *out = bn254_fr_slots(&w[1]);
        bn254_fr_add(out, out, &BN254_FR_ONE);
        assert_false(r1cs_is_satisfied(&r, w, &bad, 1));
        assert_true(bad < r.num_constraints);
        free(w);
        free(labels);
        r1cs_free(&r);
    }
}

static void test_wrong_kind(void **state)
{
    (void)state;
    r1cs_t r;
    zkey_t z;
    circom_wtns_t w;
    assert_int_equal(
        circom_r1cs_load(&r, NULL, NULL, FIX "chain_bls12381.wtns", 1, msg, sizeof(msg)),
        CUZK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(msg, "not a .r1cs file"));
    assert_int_equal(zkey_open(&z, FIX "chain_bls12381.r1cs", FORMATS_CHECK_NONE, msg, sizeof(msg)),
                     CUZK_ERR_INVALID_ARGUMENT);
    assert_int_equal(circom_wtns_open(&w, FIX "chain_bls12381.zkey", msg, sizeof(msg)),
                     CUZK_ERR_INVALID_ARGUMENT);
    assert_int_equal(circom_wtns_open(&w, FIX "no_such_file.wtns", msg, sizeof(msg)), CUZK_ERR_IO);
    assert_non_null(strstr(msg, "no_such_file.wtns"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_r1cs_header), cmocka_unit_test(test_witness_satisfies),
        cmocka_unit_test(test_zkey),        cmocka_unit_test(test_zkey_section_order),
        cmocka_unit_test(test_bn128_files), cmocka_unit_test(test_wrong_kind),
        cmocka_unit_test(test_r1cs_terms),  cmocka_unit_test(test_bn128_r1cs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
