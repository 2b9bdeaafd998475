/* The extension tower Fp2 ⊂ Fp6 ⊂ Fp12: known answers from tests/vectors
 * (fp2.txt, fp12.txt) and properties on random inputs, each checked against
 * a plain reference (schoolbook products, exponentiation by p). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "field/fp12.h"
#include "seed.h"
#include "vector_file.h"

static rng_t rng;

/* ---- vector helpers ---------------------------------------------------- */

static void hex_fp(fp_t *r, const char *hex, int line)
{
    uint8_t buf[FP_BYTES];
    if (vec_hex(buf, sizeof buf, hex) != 0 || !fp_from_bytes_be(r, buf))
        fail_msg("line %d: bad Fp field", line);
}

static void hex_fp2(fp2_t *r, const char *const *f, int line)
{
    hex_fp(&r->c0, f[0], line);
    hex_fp(&r->c1, f[1], line);
}

/* Twelve fields in the order c0.c0.c0 c0.c0.c1 c0.c1.c0 … c1.c2.c1. */
static void hex_fp12(fp12_t *r, const char *const *f, int line)
{
    fp6_t *h[2] = {&r->c0, &r->c1};
    for (int i = 0; i < 2; i++) {
        hex_fp2(&h[i]->c0, f + 6 * i, line);
        hex_fp2(&h[i]->c1, f + 6 * i + 2, line);
        hex_fp2(&h[i]->c2, f + 6 * i + 4, line);
    }
}

static void need_fields(const vec_record *rec, size_t n)
{
    if (rec->nfields != n)
        fail_msg("line %d: %s has %zu fields, expected %zu", rec->line, rec->op, rec->nfields, n);
}

/* Counts records per expected op; fails on an unknown op. */
typedef struct op_count {
    const char *op;
    int n;
} op_count;

static op_count *find_op(op_count *ops, const vec_record *rec)
{
    for (op_count *o = ops; o->op; o++)
        if (strcmp(o->op, rec->op) == 0)
            return o;
    fail_msg("line %d: unknown op %s", rec->line, rec->op);
    return NULL;
}

static void check_counts(const op_count *ops, const char *file)
{
    for (const op_count *o = ops; o->op; o++) {
        printf("%s: %d %s records\n", file, o->n, o->op);
        if (o->n == 0)
            fail_msg("%s: no %s records", file, o->op);
    }
}

/* ---- Fp2 --------------------------------------------------------------- */

static void test_fp2_vectors(void **state)
{
    (void)state;
    vec_file *f = vec_open("fp2.txt");
    assert_non_null(f);
    op_count ops[] = {{"add", 0}, {"sub", 0},  {"mul", 0},    {"sqr", 0},  {"neg", 0},
                      {"inv", 0}, {"sqrt", 0}, {"nosqrt", 0}, {"frob", 0}, {NULL, 0}};
    vec_record rec;
    while (vec_next(f, &rec)) {
        op_count *o = find_op(ops, &rec);
        fp2_t a, b, want, got;
        const char *op = rec.op;
        if (!strcmp(op, "add") || !strcmp(op, "sub") || !strcmp(op, "mul")) {
            need_fields(&rec, 6);
            hex_fp2(&a, rec.fields, rec.line);
            hex_fp2(&b, rec.fields + 2, rec.line);
            hex_fp2(&want, rec.fields + 4, rec.line);
            if (op[0] == 'a')
                fp2_add(&got, &a, &b);
            else if (op[0] == 's')
                fp2_sub(&got, &a, &b);
            else
                fp2_mul(&got, &a, &b);
            if (!fp2_eq(&got, &want))
                fail_msg("fp2.txt line %d: %s", rec.line, op);
        } else if (!strcmp(op, "nosqrt")) {
            need_fields(&rec, 2);
            hex_fp2(&a, rec.fields, rec.line);
            assert_false(fp2_is_square(&a));
            if (fp2_sqrt(&got, &a))
                fail_msg("fp2.txt line %d: sqrt of a non-square", rec.line);
        } else {
            need_fields(&rec, 4);
            hex_fp2(&a, rec.fields, rec.line);
            hex_fp2(&want, rec.fields + 2, rec.line);
            if (!strcmp(op, "sqr")) {
                fp2_sqr(&got, &a);
            } else if (!strcmp(op, "neg")) {
                fp2_neg(&got, &a);
            } else if (!strcmp(op, "inv")) {
                fp2_inv(&got, &a);
                fp2_inv_var(&b, &a);
                assert_true(fp2_eq(&got, &b));
            } else if (!strcmp(op, "frob")) {
                fp2_conj(&got, &a);
            } else { /* sqrt: either root */
                assert_true(fp2_is_square(&a));
                if (!fp2_sqrt(&got, &a))
                    fail_msg("fp2.txt line %d: no sqrt found", rec.line);
                fp2_neg(&b, &got);
                if (!fp2_eq(&got, &want) && !fp2_eq(&b, &want))
                    fail_msg("fp2.txt line %d: sqrt is neither root", rec.line);
                got = want;
            }
            if (!fp2_eq(&got, &want))
                fail_msg("fp2.txt line %d: %s", rec.line, op);
        }
        o->n++;
    }
    vec_close(f);
    check_counts(ops, "fp2.txt");
}

static void test_fp2_properties(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("tower_fp2"));
    const fp2_t xi = {FP_ONE, FP_ONE};
    for (int it = 0; it < test_iters(100); it++) {
        fp2_t a, b, c, x, y, z;
        fp2_random(&a, &rng);
        fp2_random(&b, &rng);
        fp2_random(&c, &rng);
        /* schoolbook product */
        fp_t t;
        fp_mul(&x.c0, &a.c0, &b.c0);
        fp_mul(&t, &a.c1, &b.c1);
        fp_sub(&x.c0, &x.c0, &t);
        fp_mul(&x.c1, &a.c0, &b.c1);
        fp_mul(&t, &a.c1, &b.c0);
        fp_add(&x.c1, &x.c1, &t);
        fp2_mul(&y, &a, &b);
        assert_true(fp2_eq(&x, &y));
        /* distributivity, squaring, aliasing */
        fp2_add(&x, &a, &b);
        fp2_mul(&x, &x, &c);
        fp2_mul(&y, &a, &c);
        fp2_mul(&z, &b, &c);
        fp2_add(&y, &y, &z);
        assert_true(fp2_eq(&x, &y));
        fp2_mul(&x, &a, &a);
        y = a;
        fp2_sqr(&y, &y);
        assert_true(fp2_eq(&x, &y));
        fp2_dbl(&x, &a);
        fp2_add(&y, &a, &a);
        assert_true(fp2_eq(&x, &y));
        fp2_mul_small(&x, &a, 7);
        fp_from_u64(&t, 7);
        fp2_mul_fp(&y, &a, &t);
        assert_true(fp2_eq(&x, &y));
        fp2_mul_nonresidue(&x, &a);
        fp2_mul(&y, &a, &xi);
        assert_true(fp2_eq(&x, &y));
        /* inversion */
        fp2_inv(&x, &a);
        fp2_mul(&x, &x, &a);
        assert_true(fp2_is_one(&x));
        /* conjugation is the Frobenius map */
        fp2_conj(&x, &a);
        fp2_pow_var(&y, &a, FP_MODULUS, FP_LIMBS);
        assert_true(fp2_eq(&x, &y));
        /* square roots */
        fp2_sqr(&x, &a);
        assert_true(fp2_is_square(&x));
        assert_true(fp2_sqrt(&y, &x));
        fp2_sqr(&y, &y);
        assert_true(fp2_eq(&x, &y));
        /* every element of Fp is a square in Fp2 (the a1 = 0 branch), and
         * so is every pure imaginary one */
        for (int k = 0; k < 2; k++) {
            x = FP2_ZERO;
            if (k == 0)
                x.c0 = a.c0;
            else
                x.c1 = a.c1;
            assert_true(fp2_sqrt(&y, &x));
            fp2_sqr(&y, &y);
            assert_true(fp2_eq(&x, &y));
        }
        fp2_sqr(&x, &a);
        fp2_mul_nonresidue(&x, &x); /* ξ is not a square, so ξa² is not */
        assert_false(fp2_is_square(&x));
        assert_false(fp2_sqrt(&y, &x));
        /* lexicographic sign: exactly one of ±a is the largest */
        fp2_neg(&x, &a);
        assert_true(fp2_is_lex_largest(&a) != fp2_is_lex_largest(&x));
        x = a;
        x.c1 = FP_ZERO;
        fp2_neg(&y, &x);
        assert_true(fp2_is_lex_largest(&x) == fp_is_lex_largest(&a.c0));
        assert_true(fp2_is_lex_largest(&y) != fp2_is_lex_largest(&x));
        /* bytes: c1 first */
        uint8_t buf[2 * FP_BYTES], c1b[FP_BYTES];
        fp2_to_bytes_be(buf, &a);
        fp_to_bytes_be(c1b, &a.c1);
        assert_memory_equal(buf, c1b, FP_BYTES);
        assert_true(fp2_from_bytes_be(&x, buf));
        assert_true(fp2_eq(&x, &a));
        memset(buf + FP_BYTES, 0xff, FP_BYTES);
        assert_false(fp2_from_bytes_be(&x, buf));
        /* cmov */
        x = a;
        fp2_cmov(&x, &b, false);
        assert_true(fp2_eq(&x, &a));
        fp2_cmov(&x, &b, true);
        assert_true(fp2_eq(&x, &b));
    }
    fp2_t r;
    assert_true(fp2_sqrt(&r, &FP2_ZERO));
    assert_true(fp2_is_zero(&r));
    fp2_inv(&r, &FP2_ZERO);
    assert_true(fp2_is_zero(&r));
    /* −1 = u² has the roots ±u (the α = −1 branch of the algorithm). */
    fp2_t m1;
    fp2_neg(&m1, &FP2_ONE);
    assert_true(fp2_sqrt(&r, &m1));
    assert_true(fp_is_zero(&r.c0));
}

static void test_fp2_batch_inv(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("tower_fp2_batch"));
    enum { N = 300 }; /* more than one internal block */
    static fp2_t in[N], out[N], want[N];
    for (int i = 0; i < N; i++) {
        fp2_random(&in[i], &rng);
        if (i % 37 == 5)
            in[i] = FP2_ZERO;
        fp2_inv(&want[i], &in[i]);
    }
    fp2_batch_inv_var(out, in, N);
    for (int i = 0; i < N; i++)
        assert_true(fp2_eq(&out[i], &want[i]));
    fp2_batch_inv_var(in, in, N); /* in place */
    for (int i = 0; i < N; i++)
        assert_true(fp2_eq(&in[i], &want[i]));
    fp2_batch_inv_var(out, in, 0);
}

/* ---- Fp6 --------------------------------------------------------------- */

/* Schoolbook product with v³ = ξ. */
static void fp6_mul_ref(fp6_t *r, const fp6_t *a, const fp6_t *b)
{
    const fp2_t *x[3] = {&a->c0, &a->c1, &a->c2}, *y[3] = {&b->c0, &b->c1, &b->c2};
    fp2_t acc[5], t;
    for (int i = 0; i < 5; i++)
        acc[i] = FP2_ZERO;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            fp2_mul(&t, x[i], y[j]);
            fp2_add(&acc[i + j], &acc[i + j], &t);
        }
    for (int k = 4; k >= 3; k--) {
        fp2_mul_nonresidue(&t, &acc[k]);
        fp2_add(&acc[k - 3], &acc[k - 3], &t);
    }
    r->c0 = acc[0];
    r->c1 = acc[1];
    r->c2 = acc[2];
}

static void test_fp6_properties(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("tower_fp6"));
    for (int it = 0; it < test_iters(50); it++) {
        fp6_t a, b, x, y, sparse;
        fp6_random(&a, &rng);
        fp6_random(&b, &rng);
        fp6_mul(&x, &a, &b);
        fp6_mul_ref(&y, &a, &b);
        assert_true(fp6_eq(&x, &y));
        x = a;
        fp6_sqr(&x, &x);
        fp6_mul_ref(&y, &a, &a);
        assert_true(fp6_eq(&x, &y));
        fp6_inv(&x, &a);
        fp6_mul(&x, &x, &a);
        assert_true(fp6_is_one(&x));
        /* sparse products */
        sparse = FP6_ZERO;
        sparse.c0 = b.c0;
        sparse.c1 = b.c1;
        fp6_mul_by_01(&x, &a, &b.c0, &b.c1);
        fp6_mul(&y, &a, &sparse);
        assert_true(fp6_eq(&x, &y));
        sparse.c0 = FP2_ZERO;
        fp6_mul_by_1(&x, &a, &b.c1);
        fp6_mul(&y, &a, &sparse);
        assert_true(fp6_eq(&x, &y));
        sparse.c1 = FP2_ONE;
        fp6_mul_by_v(&x, &a);
        fp6_mul(&y, &a, &sparse);
        assert_true(fp6_eq(&x, &y));
        sparse = FP6_ZERO;
        sparse.c0 = b.c2;
        fp6_mul_fp2(&x, &a, &b.c2);
        fp6_mul(&y, &a, &sparse);
        assert_true(fp6_eq(&x, &y));
        /* Frobenius: a^p through Fp12, then the composites */
        fp12_t e = {a, FP6_ZERO};
        fp12_pow_var(&e, &e, FP_MODULUS, FP_LIMBS);
        fp6_frobenius(&x, &a, 1);
        assert_true(fp6_eq(&x, &e.c0));
        fp6_frobenius(&y, &a, 2);
        fp6_frobenius(&b, &x, 1);
        assert_true(fp6_eq(&y, &b));
        fp6_frobenius(&y, &a, 3);
        fp6_frobenius(&b, &b, 1);
        assert_true(fp6_eq(&y, &b));
        fp6_frobenius(&y, &a, 0);
        assert_true(fp6_eq(&y, &a));
        fp6_frobenius(&y, &x, 5);
        assert_true(fp6_eq(&y, &a));
    }
}

/* ---- Fp12 -------------------------------------------------------------- */

/* The coefficient of w^i over Fp2 (fp12.c): w^i sits at c(i%2).c(i/2). */
static fp2_t *wcoef(fp12_t *a, int i)
{
    fp6_t *h = (i % 2) ? &a->c1 : &a->c0;
    return i / 2 == 0 ? &h->c0 : i / 2 == 1 ? &h->c1 : &h->c2;
}

/* Schoolbook product in Fp2[w] / (w⁶ − ξ). */
static void fp12_mul_ref(fp12_t *r, const fp12_t *a, const fp12_t *b)
{
    fp12_t x = *a, y = *b;
    fp2_t acc[11], t;
    for (int i = 0; i < 11; i++)
        acc[i] = FP2_ZERO;
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++) {
            fp2_mul(&t, wcoef(&x, i), wcoef(&y, j));
            fp2_add(&acc[i + j], &acc[i + j], &t);
        }
    for (int k = 10; k >= 6; k--) {
        fp2_mul_nonresidue(&t, &acc[k]);
        fp2_add(&acc[k - 6], &acc[k - 6], &t);
    }
    for (int i = 0; i < 6; i++)
        *wcoef(r, i) = acc[i];
}

/* f^((p^6 − 1)(p^2 + 1)): an element of the cyclotomic subgroup. */
static void easy_part(fp12_t *r, const fp12_t *f)
{
    fp12_t t0, t1;
    fp12_inv(&t1, f);
    fp12_conj(&t0, f);
    fp12_mul(&t0, &t0, &t1);
    fp12_frobenius(&t1, &t0, 2);
    fp12_mul(r, &t1, &t0);
}

static void test_fp12_vectors(void **state)
{
    (void)state;
    vec_file *f = vec_open("fp12.txt");
    assert_non_null(f);
    op_count ops[] = {{"mul", 0},   {"sqr", 0},   {"inv", 0},       {"frob1", 0},
                      {"frob2", 0}, {"frob3", 0}, {"cyclo_sqr", 0}, {NULL, 0}};
    vec_record rec;
    while (vec_next(f, &rec)) {
        op_count *o = find_op(ops, &rec);
        fp12_t a, b, want, got;
        if (!strcmp(rec.op, "mul")) {
            need_fields(&rec, 36);
            hex_fp12(&a, rec.fields, rec.line);
            hex_fp12(&b, rec.fields + 12, rec.line);
            hex_fp12(&want, rec.fields + 24, rec.line);
            fp12_mul(&got, &a, &b);
        } else {
            need_fields(&rec, 24);
            hex_fp12(&a, rec.fields, rec.line);
            hex_fp12(&want, rec.fields + 12, rec.line);
            if (!strcmp(rec.op, "sqr"))
                fp12_sqr(&got, &a);
            else if (!strcmp(rec.op, "inv"))
                fp12_inv(&got, &a);
            else if (!strcmp(rec.op, "cyclo_sqr"))
                fp12_cyclotomic_sqr(&got, &a);
            else
                fp12_frobenius(&got, &a, (unsigned)(rec.op[4] - '0'));
            /* the encoding round trip on the way */
            uint8_t buf[FP12_BYTES], raw[FP12_BYTES];
            fp12_to_bytes_be(buf, &a);
            for (int i = 0; i < 12; i++)
                assert_int_equal(vec_hex(raw + i * FP_BYTES, FP_BYTES, rec.fields[i]), 0);
            assert_memory_equal(buf, raw, FP12_BYTES);
            assert_true(fp12_from_bytes_be(&b, buf));
            assert_true(fp12_eq(&a, &b));
        }
        if (!fp12_eq(&got, &want))
            fail_msg("fp12.txt line %d: %s", rec.line, rec.op);
        o->n++;
    }
    vec_close(f);
    check_counts(ops, "fp12.txt");
}

static void test_fp12_properties(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("tower_fp12"));
    for (int it = 0; it < test_iters(20); it++) {
        fp12_t a, b, x, y;
        fp12_random(&a, &rng);
        fp12_random(&b, &rng);
        fp12_mul(&x, &a, &b);
        fp12_mul_ref(&y, &a, &b);
        assert_true(fp12_eq(&x, &y));
        x = a;
        fp12_sqr(&x, &x);
        fp12_mul_ref(&y, &a, &a);
        assert_true(fp12_eq(&x, &y));
        fp12_inv(&x, &a);
        fp12_mul(&x, &x, &a);
        assert_true(fp12_is_one(&x));
        fp12_add(&x, &a, &b);
        fp12_sub(&x, &x, &b);
        assert_true(fp12_eq(&x, &a));
        fp12_neg(&x, &a);
        fp12_add(&x, &x, &a);
        assert_true(fp12_is_zero(&x));

        /* the line shape of the Miller loop */
        fp12_t sparse = {FP6_ZERO, FP6_ZERO};
        sparse.c0.c0 = b.c0.c0;
        sparse.c0.c1 = b.c0.c1;
        sparse.c1.c1 = b.c1.c1;
        fp12_mul_by_014(&x, &a, &b.c0.c0, &b.c0.c1, &b.c1.c1);
        fp12_mul(&y, &a, &sparse);
        assert_true(fp12_eq(&x, &y));

        /* Frobenius: a^p, composites, a^(p^6) = conj(a), period 12 */
        fp12_t f1, f2, f3;
        fp12_pow_var(&y, &a, FP_MODULUS, FP_LIMBS);
        fp12_frobenius(&f1, &a, 1);
        assert_true(fp12_eq(&f1, &y));
        fp12_frobenius(&f2, &a, 2);
        fp12_frobenius(&x, &f1, 1);
        assert_true(fp12_eq(&f2, &x));
        fp12_frobenius(&f3, &a, 3);
        fp12_frobenius(&x, &f2, 1);
        assert_true(fp12_eq(&f3, &x));
        fp12_frobenius(&x, &a, 6);
        fp12_conj(&y, &a);
        assert_true(fp12_eq(&x, &y));
        x = a;
        for (int k = 0; k < 12; k++)
            fp12_frobenius(&x, &x, 1);
        assert_true(fp12_eq(&x, &a));
        fp12_mul(&x, &a, &b); /* a ring homomorphism */
        fp12_frobenius(&x, &x, 3);
        fp12_frobenius(&y, &b, 3);
        fp12_mul(&y, &y, &f3);
        assert_true(fp12_eq(&x, &y));

        /* the cyclotomic subgroup */
        fp12_t g;
        easy_part(&g, &a);
        fp12_cyclotomic_sqr(&x, &g);
        fp12_sqr(&y, &g);
        assert_true(fp12_eq(&x, &y));
        fp12_conj(&x, &g); /* conj is the inverse there */
        fp12_mul(&x, &x, &g);
        assert_true(fp12_is_one(&x));
        const uint64_t xabs = 0xd201000000010000ULL;
        fp12_cyclotomic_exp_x(&x, &g);
        fp12_pow_var(&y, &g, &xabs, 1);
        fp12_conj(&y, &y);
        assert_true(fp12_eq(&x, &y));
        uint64_t e[2] = {rng_u64(&rng), rng_u64(&rng) >> (it % 64)};
        fp12_cyclotomic_pow_var(&x, &g, e, 2);
        fp12_pow_var(&y, &g, e, 2);
        assert_true(fp12_eq(&x, &y));

        uint8_t buf[FP12_BYTES];
        fp12_to_bytes_be(buf, &a);
        assert_true(fp12_from_bytes_be(&x, buf));
        assert_true(fp12_eq(&x, &a));
        memset(buf + 11 * FP_BYTES, 0xff, FP_BYTES);
        assert_false(fp12_from_bytes_be(&x, buf));
    }
    fp12_t g, x;
    const uint64_t zero = 0, one = 1;
    fp12_random(&g, &rng);
    easy_part(&g, &g);
    fp12_cyclotomic_pow_var(&x, &g, &zero, 1);
    assert_true(fp12_is_one(&x));
    fp12_cyclotomic_pow_var(&x, &g, &one, 1);
    assert_true(fp12_eq(&x, &g));
}

/* (p − 1)/6 · i as six limbs (i ≤ 5, so it stays below p). */
static void frob_exponent(uint64_t e[FP_LIMBS], unsigned i)
{
    unsigned __int128 rem = 0;
    uint64_t q[FP_LIMBS];
    for (int k = FP_LIMBS - 1; k >= 0; k--) {
        unsigned __int128 cur = (rem << 64) | (k == 0 ? FP_MODULUS[0] - 1 : FP_MODULUS[k]);
        q[k] = (uint64_t)(cur / 6);
        rem = cur % 6;
    }
    assert_true(rem == 0);
    unsigned __int128 carry = 0;
    for (int k = 0; k < FP_LIMBS; k++) {
        carry += (unsigned __int128)q[k] * i;
        e[k] = (uint64_t)carry;
        carry >>= 64;
    }
}

/* The hard-coded Frobenius constants γ_{k,i} = ξ^(i(p^k − 1)/6), recomputed:
 * γ_{1,i} by exponentiation, γ_{2,i} = γ_{1,i}^(p+1), γ_{3,i} = γ_{1,i}^(p²+p+1),
 * and read back from the maps applied to the basis element w^i. */
static void test_frobenius_constants(void **state)
{
    (void)state;
    const fp2_t xi = {FP_ONE, FP_ONE};
    for (unsigned i = 1; i < 6; i++) {
        uint64_t e[FP_LIMBS];
        fp2_t g1, g2, g3, c;
        frob_exponent(e, i);
        fp2_pow_var(&g1, &xi, e, FP_LIMBS);
        fp2_conj(&c, &g1);
        fp2_mul(&g2, &g1, &c);
        fp2_mul(&g3, &g2, &g1);
        const fp2_t *want[3] = {&g1, &g2, &g3};
        for (unsigned k = 1; k <= 3; k++) {
            fp12_t wi = {FP6_ZERO, FP6_ZERO}, r;
            *wcoef(&wi, (int)i) = FP2_ONE;
            fp12_frobenius(&r, &wi, k);
            for (int j = 0; j < 6; j++) {
                if (j == (int)i)
                    assert_true(fp2_eq(wcoef(&r, j), want[k - 1]));
                else
                    assert_true(fp2_is_zero(wcoef(&r, j)));
            }
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fp2_vectors),         cmocka_unit_test(test_fp2_properties),
        cmocka_unit_test(test_fp2_batch_inv),       cmocka_unit_test(test_fp6_properties),
        cmocka_unit_test(test_fp12_vectors),        cmocka_unit_test(test_fp12_properties),
        cmocka_unit_test(test_frobenius_constants),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
