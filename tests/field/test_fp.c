/* Fp: constants recomputed from p, field axioms, encodings, inversions, square
 * roots, powers and the known-answer vectors of tests/vectors/fp.txt. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "field/fp.h"
#include "field/fp_consts.h"
#include "field/limbs.h"
#include "seed.h"
#include "vector_file.h"

static rng_t rng;

static void fp_print(const char *what, const fp_t *a)
{
    uint8_t b[FP_BYTES];
    fp_to_bytes_be(b, a);
    printf("  %s = 0x", what);
    for (int i = 0; i < FP_BYTES; i++)
        printf("%02x", b[i]);
    printf("\n");
}

#define assert_fp_eq(a, b)                                                                         \
    do {                                                                                           \
        if (!fp_eq((a), (b))) {                                                                    \
            fp_print(#a, (a));                                                                     \
            fp_print(#b, (b));                                                                     \
            fail_msg("%s != %s", #a, #b);                                                          \
        }                                                                                          \
    } while (0)

/* Plain integers on six limbs, for recomputing the constants. */
static void raw_shr1(uint64_t x[FP_LIMBS])
{
    for (int i = 0; i < FP_LIMBS; i++)
        x[i] = (x[i] >> 1) | (i + 1 < FP_LIMBS ? x[i + 1] << 63 : 0);
}

/* x += d for a small signed d, as a 384-bit two's complement integer. */
static void raw_add_small(uint64_t x[FP_LIMBS], int64_t d)
{
    unsigned __int128 acc = 0;
    uint64_t ext = d < 0 ? ~UINT64_C(0) : 0;
    for (int i = 0; i < FP_LIMBS; i++) {
        acc += (unsigned __int128)x[i] + (i == 0 ? (uint64_t)d : ext);
        x[i] = (uint64_t)acc;
        acc >>= 64;
    }
}

static void test_constants(void **state)
{
    (void)state;
    /* p from its hex spelling in fp.h. */
    static const char *p_hex = "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f624"
                               "1eabfffeb153ffffb9feffffffffaaab";
    uint8_t pb[FP_BYTES];
    assert_int_equal(vec_hex(pb, FP_BYTES, p_hex), 0);
    uint64_t p[FP_LIMBS];
    limbs_from_be(p, pb, FP_LIMBS);
    assert_memory_equal(p, FP_MODULUS, sizeof(p));
    assert_int_equal(p[0] & 3, 3); /* p = 3 mod 4, for the square root */

    /* R mod p and R² mod p by doubling 1 modulo p, 384 and 768 times. */
    uint64_t x[FP_LIMBS] = {1, 0, 0, 0, 0, 0};
    for (int i = 0; i < 768; i++) {
        add_mod_384_portable(x, x, x, p);
        if (i == 383)
            assert_memory_equal(x, FP_ONE.l, sizeof(x));
    }
    assert_memory_equal(x, FP_R2.l, sizeof(x));
    /* R³ = R²·R²/R. */
    mont_mul_384_portable(x, FP_R2.l, FP_R2.l, FP_MODULUS, FP_N0);
    assert_memory_equal(x, FP_R3.l, sizeof(x));

    /* -p^-1 mod 2^64 by Newton's iteration x <- x(2 - p x), five doublings of precision. */
    uint64_t inv = 1;
    for (int i = 0; i < 6; i++)
        inv *= 2 - p[0] * inv;
    assert_true(inv * p[0] == 1);
    assert_true(FP_N0 == 0 - inv);

    memcpy(x, p, sizeof(x));
    raw_add_small(x, -2);
    assert_memory_equal(x, FP_P_MINUS_2, sizeof(x));
    memcpy(x, p, sizeof(x));
    raw_shr1(x); /* (p - 1) / 2 = p >> 1 for odd p */
    assert_memory_equal(x, FP_P_MINUS_1_HALF, sizeof(x));
    memcpy(x, p, sizeof(x));
    raw_add_small(x, 1);
    raw_shr1(x);
    raw_shr1(x);
    assert_memory_equal(x, FP_P_PLUS_1_QUARTER, sizeof(x));

    uint64_t zero[FP_LIMBS] = {0};
    assert_memory_equal(FP_ZERO.l, zero, sizeof(zero));
    uint64_t raw[FP_LIMBS];
    fp_to_raw(raw, &FP_ONE);
    uint64_t one[FP_LIMBS] = {1, 0, 0, 0, 0, 0};
    assert_memory_equal(raw, one, sizeof(raw));
}

static void test_axioms(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("fp_axioms"));
    for (int it = 0; it < test_iters(1000); it++) {
        fp_t a, b, c, x, y, z;
        fp_random(&a, &rng);
        fp_random(&b, &rng);
        fp_random(&c, &rng);
        /* Commutativity. */
        fp_mul(&x, &a, &b);
        fp_mul(&y, &b, &a);
        assert_fp_eq(&x, &y);
        fp_add(&x, &a, &b);
        fp_add(&y, &b, &a);
        assert_fp_eq(&x, &y);
        /* Associativity. */
        fp_mul(&x, &a, &b);
        fp_mul(&x, &x, &c);
        fp_mul(&y, &b, &c);
        fp_mul(&y, &a, &y);
        assert_fp_eq(&x, &y);
        fp_add(&x, &a, &b);
        fp_add(&x, &x, &c);
        fp_add(&y, &b, &c);
        fp_add(&y, &a, &y);
        assert_fp_eq(&x, &y);
        /* Distributivity. */
        fp_add(&x, &a, &b);
        fp_mul(&x, &x, &c);
        fp_mul(&y, &a, &c);
        fp_mul(&z, &b, &c);
        fp_add(&y, &y, &z);
        assert_fp_eq(&x, &y);
        /* Identities and additive inverses. */
        fp_add(&x, &a, &FP_ZERO);
        assert_fp_eq(&x, &a);
        fp_mul(&x, &a, &FP_ONE);
        assert_fp_eq(&x, &a);
        fp_mul(&x, &a, &FP_ZERO);
        assert_true(fp_is_zero(&x));
        fp_neg(&x, &a);
        fp_add(&x, &x, &a);
        assert_true(fp_is_zero(&x));
        fp_sub(&x, &a, &b);
        fp_neg(&y, &b);
        fp_add(&y, &a, &y);
        assert_fp_eq(&x, &y);
        fp_sub(&x, &a, &b);
        fp_add(&x, &x, &b);
        assert_fp_eq(&x, &a);
        /* Doubling, squaring, small multiples. */
        fp_dbl(&x, &a);
        fp_add(&y, &a, &a);
        assert_fp_eq(&x, &y);
        fp_sqr(&x, &a);
        fp_mul(&y, &a, &a);
        assert_fp_eq(&x, &y);
        unsigned k = (unsigned)(rng_u64(&rng) % 1000);
        fp_mul_small(&x, &a, k);
        fp_from_u64(&y, k);
        fp_mul(&y, &y, &a);
        assert_fp_eq(&x, &y);
        /* Aliasing of outputs and inputs. */
        x = a;
        fp_mul(&x, &x, &x);
        fp_sqr(&y, &a);
        assert_fp_eq(&x, &y);
        x = a;
        fp_sub(&x, &b, &x);
        fp_sub(&y, &b, &a);
        assert_fp_eq(&x, &y);
    }
    fp_t x, m1;
    fp_neg(&x, &FP_ZERO);
    assert_true(fp_is_zero(&x));
    for (unsigned k = 0; k < 40; k++) {
        fp_t y = FP_ZERO;
        for (unsigned i = 0; i < k; i++)
            fp_add(&y, &y, &FP_ONE);
        fp_mul_small(&x, &FP_ONE, k);
        assert_fp_eq(&x, &y);
        fp_from_u64(&x, k);
        assert_fp_eq(&x, &y);
    }
    static const unsigned big[] = {0x80000000u, 0xffffffffu, 12345678u, 255u, 256u};
    for (size_t i = 0; i < sizeof(big) / sizeof(big[0]); i++) {
        fp_t y, a;
        fp_random(&a, &rng);
        fp_mul_small(&x, &a, big[i]);
        fp_from_u64(&y, big[i]);
        fp_mul(&y, &y, &a);
        assert_fp_eq(&x, &y);
    }
    /* (p - 1)² = 1. */
    fp_neg(&m1, &FP_ONE);
    fp_sqr(&x, &m1);
    assert_true(fp_is_one(&x));
}

static void test_raw_and_bytes(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("fp_raw_and_bytes"));
    for (int it = 0; it < test_iters(1000); it++) {
        fp_t a, b;
        uint64_t raw[FP_LIMBS], raw2[FP_LIMBS];
        uint8_t be[FP_BYTES], le[FP_BYTES];
        fp_random(&a, &rng);
        fp_to_raw(raw, &a);
        assert_true(limbs_lt(raw, FP_MODULUS, FP_LIMBS));
        fp_from_raw(&b, raw);
        assert_fp_eq(&a, &b);
        fp_to_bytes_be(be, &a);
        fp_to_bytes_le(le, &a);
        for (int i = 0; i < FP_BYTES; i++)
            assert_int_equal(be[i], le[FP_BYTES - 1 - i]);
        limbs_from_le(raw2, le, FP_LIMBS);
        assert_memory_equal(raw, raw2, sizeof(raw));
        assert_true(fp_from_bytes_be(&b, be));
        assert_fp_eq(&a, &b);
        assert_true(fp_from_bytes_le(&b, le));
        assert_fp_eq(&a, &b);
        /* from_u64 is a ring homomorphism on small values. */
        uint64_t u = rng_u64(&rng) >> 32, v = rng_u64(&rng) >> 32;
        fp_t fu, fv, fuv;
        fp_from_u64(&fu, u);
        fp_from_u64(&fv, v);
        fp_from_u64(&fuv, u * v);
        fp_mul(&fu, &fu, &fv);
        assert_fp_eq(&fu, &fuv);
    }
    uint64_t raw[FP_LIMBS];
    fp_t a;
    fp_from_u64(&a, 0x0102030405060708ULL);
    uint8_t be[FP_BYTES];
    fp_to_bytes_be(be, &a);
    for (int i = 0; i < 40; i++)
        assert_int_equal(be[i], 0);
    for (int i = 0; i < 8; i++)
        assert_int_equal(be[40 + i], i + 1);
    fp_to_raw(raw, &a);
    assert_true(raw[0] == 0x0102030405060708ULL);
}

/* p, p + 1, 2^384 - 1 and values above p are refused; p - 1 is accepted. */
static void test_noncanonical(void **state)
{
    (void)state;
    uint64_t vals[5][FP_LIMBS];
    memcpy(vals[0], FP_MODULUS, sizeof(vals[0]));
    memcpy(vals[1], FP_MODULUS, sizeof(vals[1]));
    raw_add_small(vals[1], 1);
    memset(vals[2], 0xff, sizeof(vals[2]));
    memcpy(vals[3], FP_MODULUS, sizeof(vals[3]));
    vals[3][5] += 1; /* p + 2^320 */
    memcpy(vals[4], FP_MODULUS, sizeof(vals[4]));
    raw_add_small(vals[4], -1);
    for (int i = 0; i < 5; i++) {
        uint8_t be[FP_BYTES], le[FP_BYTES];
        fp_t r;
        limbs_to_be(be, vals[i], FP_LIMBS);
        limbs_to_le(le, vals[i], FP_LIMBS);
        bool expect = i == 4;
        assert_int_equal(fp_from_bytes_be(&r, be), expect);
        assert_int_equal(fp_from_bytes_le(&r, le), expect);
        if (expect) {
            fp_t m1;
            fp_neg(&m1, &FP_ONE);
            assert_fp_eq(&r, &m1);
        }
    }
}

static void test_inversion(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("fp_inversion"));
    fp_t x, y;
    fp_inv(&x, &FP_ZERO);
    assert_true(fp_is_zero(&x));
    fp_inv_var(&x, &FP_ZERO);
    assert_true(fp_is_zero(&x));
    fp_inv(&x, &FP_ONE);
    assert_true(fp_is_one(&x));
    fp_inv_var(&x, &FP_ONE);
    assert_true(fp_is_one(&x));
    for (int it = 0; it < test_iters(300); it++) {
        fp_t a;
        if (it < 64) {
            fp_from_u64(&a, (uint64_t)it + 1); /* small values: short Euclid runs */
        } else if (it < 128) {
            fp_from_u64(&a, (uint64_t)it); /* p - small */
            fp_neg(&a, &a);
        } else {
            fp_random(&a, &rng);
        }
        fp_inv(&x, &a);
        fp_mul(&y, &x, &a);
        assert_true(fp_is_one(&y));
        fp_inv_var(&y, &a);
        assert_fp_eq(&x, &y);
        /* In place. */
        y = a;
        fp_inv_var(&y, &y);
        assert_fp_eq(&x, &y);
        y = a;
        fp_inv(&y, &y);
        assert_fp_eq(&x, &y);
    }
}

static void check_batch(size_t n, int zero_every, bool in_place)
{
    fp_t in[600], out[600], want;
    assert_true(n <= 600);
    for (size_t i = 0; i < n; i++) {
        if (zero_every && i % (size_t)zero_every == 1)
            in[i] = FP_ZERO;
        else
            fp_random(&in[i], &rng);
    }
    if (in_place) {
        memcpy(out, in, n * sizeof(fp_t));
        fp_batch_inv_var(out, out, n);
    } else {
        fp_batch_inv_var(out, in, n);
    }
    for (size_t i = 0; i < n; i++) {
        fp_inv(&want, &in[i]);
        assert_fp_eq(&out[i], &want);
    }
}

static void test_batch_inversion(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("fp_batch_inversion"));
    fp_batch_inv_var(NULL, NULL, 0);
    static const size_t sizes[] = {1, 2, 3, 17, 256, 257, 600};
    for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
        for (int zero_every = 0; zero_every <= 3; zero_every += 3)
            for (int in_place = 0; in_place < 2; in_place++)
                check_batch(sizes[s], zero_every, in_place != 0);
    /* All zeros. */
    fp_t z[5] = {FP_ZERO, FP_ZERO, FP_ZERO, FP_ZERO, FP_ZERO};
    fp_batch_inv_var(z, z, 5);
    for (int i = 0; i < 5; i++)
        assert_true(fp_is_zero(&z[i]));
}

static void test_sqrt(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("fp_sqrt"));
    fp_t r, x, m1;
    assert_true(fp_sqrt(&r, &FP_ZERO));
    assert_true(fp_is_zero(&r));
    assert_true(fp_is_square(&FP_ZERO));
    fp_neg(&m1, &FP_ONE); /* -1 is not a square: p = 3 mod 4 */
    assert_false(fp_sqrt(&r, &m1));
    assert_false(fp_is_square(&m1));
    int squares = 0, total = test_iters(200);
    for (int it = 0; it < total; it++) {
        fp_t a, s;
        fp_random(&a, &rng);
        fp_sqr(&s, &a);
        assert_true(fp_is_square(&s));
        assert_true(fp_sqrt(&r, &s));
        fp_sqr(&x, &r);
        assert_fp_eq(&x, &s);
        fp_neg(&x, &r);
        assert_true(fp_eq(&r, &a) || fp_eq(&x, &a));
        /* -a² is a non-square. */
        if (!fp_is_zero(&s)) {
            fp_neg(&s, &s);
            assert_false(fp_is_square(&s));
            assert_false(fp_sqrt(&r, &s));
        }
        /* Random elements: sqrt succeeds exactly for squares. */
        bool sq = fp_is_square(&a);
        assert_int_equal(fp_sqrt(&r, &a), sq);
        squares += sq;
    }
    /* About half of the elements are squares. */
    assert_true(squares > total / 4 && squares < 3 * total / 4);
}

static void test_pow(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("fp_pow"));
    for (int it = 0; it < test_iters(50); it++) {
        fp_t a, x, y;
        fp_random(&a, &rng);
        y = FP_ONE;
        for (uint64_t e = 0; e < 40; e++) {
            fp_pow_var(&x, &a, &e, 1);
            assert_fp_eq(&x, &y);
            fp_mul(&y, &y, &a);
        }
        /* Square-and-multiply reference for a random 128-bit exponent. */
        uint64_t e[2] = {rng_u64(&rng), rng_u64(&rng)};
        y = FP_ONE;
        for (int bit = 127; bit >= 0; bit--) {
            fp_sqr(&y, &y);
            if ((e[bit / 64] >> (bit % 64)) & 1)
                fp_mul(&y, &y, &a);
        }
        fp_pow_var(&x, &a, e, 2);
        assert_fp_eq(&x, &y);
        /* Fermat: a^(p-1) = 1; zero-limb exponent. */
        uint64_t pm1[FP_LIMBS];
        memcpy(pm1, FP_MODULUS, sizeof(pm1));
        pm1[0] -= 1;
        fp_pow_var(&x, &a, pm1, FP_LIMBS);
        assert_true(fp_is_one(&x));
        fp_pow_var(&x, &a, NULL, 0);
        assert_true(fp_is_one(&x));
        x = a;
        fp_pow_var(&x, &x, e, 2); /* in place */
        assert_fp_eq(&x, &y);
    }
}

static void test_predicates(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("fp_predicates"));
    fp_t a, b, half, m1;
    assert_true(fp_is_zero(&FP_ZERO));
    assert_false(fp_is_zero(&FP_ONE));
    assert_true(fp_is_one(&FP_ONE));
    assert_false(fp_is_one(&FP_ZERO));
    assert_false(fp_is_lex_largest(&FP_ZERO));
    assert_false(fp_is_lex_largest(&FP_ONE));
    fp_neg(&m1, &FP_ONE);
    assert_true(fp_is_lex_largest(&m1));
    fp_from_raw(&half, FP_P_MINUS_1_HALF);
    assert_false(fp_is_lex_largest(&half));
    fp_add(&half, &half, &FP_ONE);
    assert_true(fp_is_lex_largest(&half));
    for (int it = 0; it < test_iters(500); it++) {
        fp_random(&a, &rng);
        fp_neg(&b, &a);
        if (!fp_is_zero(&a))
            assert_int_equal(fp_is_lex_largest(&a), !fp_is_lex_largest(&b));
        b = a;
        b.l[it % FP_LIMBS] ^= UINT64_C(1) << (it % 64);
        assert_false(fp_eq(&a, &b));
        assert_true(fp_eq(&a, &a));
        fp_t c = a;
        fp_cmov(&c, &b, false);
        assert_true(fp_eq(&c, &a));
        fp_cmov(&c, &b, true);
        assert_true(fp_eq(&c, &b));
    }
}

static void test_random(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("fp_random"));
    int high = 0, total = test_iters(2000);
    for (int it = 0; it < total; it++) {
        fp_t a;
        uint64_t raw[FP_LIMBS];
        fp_random(&a, &rng);
        fp_to_raw(raw, &a);
        assert_true(limbs_lt(raw, FP_MODULUS, FP_LIMBS));
        assert_true(limbs_lt(a.l, FP_MODULUS, FP_LIMBS));
        high += limbs_lt(FP_P_MINUS_1_HALF, raw, FP_LIMBS) != 0;
    }
    /* Uniform on [0, p): the upper half of the range gets about half. */
    assert_true(high > total * 2 / 5 && high < total * 3 / 5);
    /* Same seed, same sequence. */
    rng_t r1, r2;
    rng_seed(&r1, 42);
    rng_seed(&r2, 42);
    fp_t x, y;
    fp_random(&x, &r1);
    fp_random(&y, &r2);
    assert_fp_eq(&x, &y);
}

/* ---- Known-answer vectors (tests/vectors/fp.txt, from @noble/curves). ---- */

static void kat_fp(fp_t *r, const vec_record *rec, size_t i)
{
    uint8_t b[FP_BYTES];
    if (i >= rec->nfields || vec_hex(b, FP_BYTES, rec->fields[i]) != 0)
        fail_msg("fp.txt line %d: field %zu is not %d hex bytes", rec->line, i, FP_BYTES);
    if (!fp_from_bytes_be(r, b))
        fail_msg("fp.txt line %d: field %zu is not below p", rec->line, i);
}

static void kat_expect(const vec_record *rec, const char *what, const fp_t *got, const fp_t *want)
{
    if (!fp_eq(got, want)) {
        fp_print("got ", got);
        fp_print("want", want);
        fail_msg("fp.txt line %d: %s %s", rec->line, rec->op, what);
    }
}

static void test_kat(void **state)
{
    (void)state;
    static const char *ops[] = {"add", "sub", "mul", "sqr", "neg", "inv", "sqrt", "nosqrt", "pow"};
    enum { NOPS = sizeof(ops) / sizeof(ops[0]) };
    int count[NOPS] = {0};
    vec_file *f = vec_open("fp.txt");
    if (f == NULL)
        fail_msg("tests/vectors/fp.txt is missing");
    vec_record rec;
    while (vec_next(f, &rec)) {
        fp_t a, b, want, got;
        int op = -1;
        for (int i = 0; i < NOPS; i++)
            if (strcmp(rec.op, ops[i]) == 0)
                op = i;
        if (op < 0) {
            fail_msg("fp.txt line %d: unknown op %s", rec.line, rec.op);
            continue;
        }
        count[op]++;
        kat_fp(&a, &rec, 0);
        switch (op) {
        case 0:
        case 1:
        case 2:
            kat_fp(&b, &rec, 1);
            kat_fp(&want, &rec, 2);
            if (op == 0)
                fp_add(&got, &a, &b);
            else if (op == 1)
                fp_sub(&got, &a, &b);
            else
                fp_mul(&got, &a, &b);
            kat_expect(&rec, "", &got, &want);
            break;
        case 3:
            kat_fp(&want, &rec, 1);
            fp_sqr(&got, &a);
            kat_expect(&rec, "", &got, &want);
            break;
        case 4:
            kat_fp(&want, &rec, 1);
            fp_neg(&got, &a);
            kat_expect(&rec, "", &got, &want);
            break;
        case 5:
            kat_fp(&want, &rec, 1);
            fp_inv(&got, &a);
            kat_expect(&rec, "(constant time)", &got, &want);
            fp_inv_var(&got, &a);
            kat_expect(&rec, "(variable time)", &got, &want);
            break;
        case 6: {
            kat_fp(&want, &rec, 1);
            if (!fp_sqrt(&got, &a) || !fp_is_square(&a))
                fail_msg("fp.txt line %d: sqrt refused a square", rec.line);
            fp_t neg;
            fp_neg(&neg, &got);
            if (!fp_eq(&got, &want) && !fp_eq(&neg, &want))
                kat_expect(&rec, "(neither root)", &got, &want);
            break;
        }
        case 7:
            if (fp_sqrt(&got, &a) || fp_is_square(&a))
                fail_msg("fp.txt line %d: non-square accepted", rec.line);
            break;
        default: {
            uint8_t eb[32];
            uint64_t e[4];
            if (rec.nfields < 3 || vec_hex(eb, 32, rec.fields[1]) != 0)
                fail_msg("fp.txt line %d: bad exponent", rec.line);
            limbs_from_be(e, eb, 4);
            kat_fp(&want, &rec, 2);
            fp_pow_var(&got, &a, e, 4);
            kat_expect(&rec, "", &got, &want);
            break;
        }
        }
    }
    vec_close(f);
    for (int i = 0; i < NOPS; i++) {
        printf("fp.txt: %d %s records\n", count[i], ops[i]);
        if (count[i] == 0)
            fail_msg("fp.txt has no %s records", ops[i]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_constants),     cmocka_unit_test(test_axioms),
        cmocka_unit_test(test_raw_and_bytes), cmocka_unit_test(test_noncanonical),
        cmocka_unit_test(test_inversion),     cmocka_unit_test(test_batch_inversion),
        cmocka_unit_test(test_sqrt),          cmocka_unit_test(test_pow),
        cmocka_unit_test(test_predicates),    cmocka_unit_test(test_random),
        cmocka_unit_test(test_kat),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
