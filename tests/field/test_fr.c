/* Fr: constants recomputed from r, field axioms, encodings, inversions, square
 * roots, powers and the known-answer vectors of tests/vectors/fr.txt. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "field/fr.h"
#include "field/fr_consts.h"
#include "field/limbs.h"
#include "seed.h"
#include "vector_file.h"

static rng_t rng;

static void fr_print(const char *what, const fr_t *a)
{
    uint8_t b[FR_BYTES];
    fr_to_bytes_be(b, a);
    printf("  %s = 0x", what);
    for (int i = 0; i < FR_BYTES; i++)
        printf("%02x", b[i]);
    printf("\n");
}

#define assert_fr_eq(a, b)                                                                         \
    do {                                                                                           \
        if (!fr_eq((a), (b))) {                                                                    \
            fr_print(#a, (a));                                                                     \
            fr_print(#b, (b));                                                                     \
            fail_msg("%s != %s", #a, #b);                                                          \
        }                                                                                          \
    } while (0)

/* Plain integers on six limbs, for recomputing the constants. */
static void raw_shr1(uint64_t x[FR_LIMBS])
{
    for (int i = 0; i < FR_LIMBS; i++)
        x[i] = (x[i] >> 1) | (i + 1 < FR_LIMBS ? x[i + 1] << 63 : 0);
}

/* x += d for a small signed d, as a 256-bit two's complement integer. */
static void raw_add_small(uint64_t x[FR_LIMBS], int64_t d)
{
    unsigned __int128 acc = 0;
    uint64_t ext = d < 0 ? ~UINT64_C(0) : 0;
    for (int i = 0; i < FR_LIMBS; i++) {
        acc += (unsigned __int128)x[i] + (i == 0 ? (uint64_t)d : ext);
        x[i] = (uint64_t)acc;
        acc >>= 64;
    }
}

static void test_constants(void **state)
{
    (void)state;
    /* r from its hex spelling in fr.h. */
    static const char *r_hex = "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001";
    uint8_t rb[FR_BYTES];
    assert_int_equal(vec_hex(rb, FR_BYTES, r_hex), 0);
    uint64_t r[FR_LIMBS];
    limbs_from_be(r, rb, FR_LIMBS);
    assert_memory_equal(r, FR_MODULUS, sizeof(r));

    /* R mod r and R² mod r by doubling 1 modulo r, 256 and 512 times. */
    uint64_t x[FR_LIMBS] = {1, 0, 0, 0};
    for (int i = 0; i < 512; i++) {
        add_mod_256_portable(x, x, x, r);
        if (i == 255)
            assert_memory_equal(x, FR_ONE.l, sizeof(x));
    }
    assert_memory_equal(x, FR_R2.l, sizeof(x));
    /* R³ = R²·R²/R. */
    mont_mul_256_portable(x, FR_R2.l, FR_R2.l, FR_MODULUS, FR_N0);
    assert_memory_equal(x, FR_R3.l, sizeof(x));

    /* -r^-1 mod 2^64 by Newton's iteration x <- x(2 - r x). */
    uint64_t inv = 1;
    for (int i = 0; i < 6; i++)
        inv *= 2 - r[0] * inv;
    assert_true(inv * r[0] == 1);
    assert_true(FR_N0 == 0 - inv);

    memcpy(x, r, sizeof(x));
    raw_add_small(x, -2);
    assert_memory_equal(x, FR_R_MINUS_2, sizeof(x));
    memcpy(x, r, sizeof(x));
    raw_shr1(x); /* (r - 1) / 2 = r >> 1 for odd r */
    assert_memory_equal(x, FR_R_MINUS_1_HALF, sizeof(x));

    /* r - 1 = 2^s · t with t odd: s = 32. */
    memcpy(x, r, sizeof(x));
    raw_add_small(x, -1);
    int s = 0;
    while ((x[0] & 1) == 0) {
        raw_shr1(x);
        s++;
    }
    assert_int_equal(s, FR_TWO_ADICITY);
    assert_memory_equal(x, FR_T, sizeof(x));
    raw_shr1(x);
    assert_memory_equal(x, FR_T_MINUS_1_HALF, sizeof(x));

    /* The root of unity is 7^t and has order exactly 2^32. */
    fr_t g, w, y;
    fr_from_u64(&g, FR_GENERATOR);
    fr_pow_var(&w, &g, FR_T, FR_LIMBS);
    assert_fr_eq(&w, &FR_ROOT_OF_UNITY);
    y = w;
    for (int i = 0; i < FR_TWO_ADICITY - 1; i++)
        fr_sqr(&y, &y);
    fr_t m1;
    fr_neg(&m1, &FR_ONE);
    assert_fr_eq(&y, &m1);
    /* 7 is a non-square, as a generator must be. */
    assert_false(fr_is_square(&g));

    uint64_t zero[FR_LIMBS] = {0};
    assert_memory_equal(FR_ZERO.l, zero, sizeof(zero));
    uint64_t raw[FR_LIMBS];
    fr_to_raw(raw, &FR_ONE);
    uint64_t one[FR_LIMBS] = {1, 0, 0, 0};
    assert_memory_equal(raw, one, sizeof(raw));
}

static void test_axioms(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("fr_axioms"));
    for (int it = 0; it < test_iters(1000); it++) {
        fr_t a, b, c, x, y, z;
        fr_random(&a, &rng);
        fr_random(&b, &rng);
        fr_random(&c, &rng);
        /* Commutativity. */
        fr_mul(&x, &a, &b);
        fr_mul(&y, &b, &a);
        assert_fr_eq(&x, &y);
        fr_add(&x, &a, &b);
        fr_add(&y, &b, &a);
        assert_fr_eq(&x, &y);
        /* Associativity. */
        fr_mul(&x, &a, &b);
        fr_mul(&x, &x, &c);
        fr_mul(&y, &b, &c);
        fr_mul(&y, &a, &y);
        assert_fr_eq(&x, &y);
        fr_add(&x, &a, &b);
        fr_add(&x, &x, &c);
        fr_add(&y, &b, &c);
        fr_add(&y, &a, &y);
        assert_fr_eq(&x, &y);
        /* Distributivity. */
        fr_add(&x, &a, &b);
        fr_mul(&x, &x, &c);
        fr_mul(&y, &a, &c);
        fr_mul(&z, &b, &c);
        fr_add(&y, &y, &z);
        assert_fr_eq(&x, &y);
        /* Identities and additive inverses. */
        fr_add(&x, &a, &FR_ZERO);
        assert_fr_eq(&x, &a);
        fr_mul(&x, &a, &FR_ONE);
        assert_fr_eq(&x, &a);
        fr_mul(&x, &a, &FR_ZERO);
        assert_true(fr_is_zero(&x));
        fr_neg(&x, &a);
        fr_add(&x, &x, &a);
        assert_true(fr_is_zero(&x));
        fr_sub(&x, &a, &b);
        fr_neg(&y, &b);
        fr_add(&y, &a, &y);
        assert_fr_eq(&x, &y);
        fr_sub(&x, &a, &b);
        fr_add(&x, &x, &b);
        assert_fr_eq(&x, &a);
        /* Doubling, squaring, small multiples. */
        fr_dbl(&x, &a);
        fr_add(&y, &a, &a);
        assert_fr_eq(&x, &y);
        fr_sqr(&x, &a);
        fr_mul(&y, &a, &a);
        assert_fr_eq(&x, &y);
        /* Aliasing of outputs and inputs. */
        x = a;
        fr_mul(&x, &x, &x);
        fr_sqr(&y, &a);
        assert_fr_eq(&x, &y);
        x = a;
        fr_sub(&x, &b, &x);
        fr_sub(&y, &b, &a);
        assert_fr_eq(&x, &y);
    }
    fr_t x, m1;
    fr_neg(&x, &FR_ZERO);
    assert_true(fr_is_zero(&x));
    for (unsigned k = 0; k < 40; k++) {
        fr_t y = FR_ZERO;
        for (unsigned i = 0; i < k; i++)
            fr_add(&y, &y, &FR_ONE);
        fr_from_u64(&x, k);
        assert_fr_eq(&x, &y);
    }
    /* (r - 1)² = 1. */
    fr_neg(&m1, &FR_ONE);
    fr_sqr(&x, &m1);
    assert_true(fr_is_one(&x));
}

static void test_raw_and_bytes(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("fr_raw_and_bytes"));
    for (int it = 0; it < test_iters(1000); it++) {
        fr_t a, b;
        uint64_t raw[FR_LIMBS], raw2[FR_LIMBS];
        uint8_t be[FR_BYTES], le[FR_BYTES];
        fr_random(&a, &rng);
        fr_to_raw(raw, &a);
        assert_true(limbs_lt(raw, FR_MODULUS, FR_LIMBS));
        fr_from_raw(&b, raw);
        assert_fr_eq(&a, &b);
        fr_to_bytes_be(be, &a);
        fr_to_bytes_le(le, &a);
        for (int i = 0; i < FR_BYTES; i++)
            assert_int_equal(be[i], le[FR_BYTES - 1 - i]);
        limbs_from_le(raw2, le, FR_LIMBS);
        assert_memory_equal(raw, raw2, sizeof(raw));
        assert_true(fr_from_bytes_be(&b, be));
        assert_fr_eq(&a, &b);
        assert_true(fr_from_bytes_le(&b, le));
        assert_fr_eq(&a, &b);
        /* from_u64 is a ring homomorphism on small values. */
        uint64_t u = rng_u64(&rng) >> 32, v = rng_u64(&rng) >> 32;
        fr_t fu, fv, fuv;
        fr_from_u64(&fu, u);
        fr_from_u64(&fv, v);
        fr_from_u64(&fuv, u * v);
        fr_mul(&fu, &fu, &fv);
        assert_fr_eq(&fu, &fuv);
    }
    uint64_t raw[FR_LIMBS];
    fr_t a;
    fr_from_u64(&a, 0x0102030405060708ULL);
    uint8_t be[FR_BYTES];
    fr_to_bytes_be(be, &a);
    for (int i = 0; i < 24; i++)
        assert_int_equal(be[i], 0);
    for (int i = 0; i < 8; i++)
        assert_int_equal(be[24 + i], i + 1);
    fr_to_raw(raw, &a);
    assert_true(raw[0] == 0x0102030405060708ULL);
}

/* r, r + 1, 2^256 - 1 and values above r are refused; r - 1 is accepted. */
static void test_noncanonical(void **state)
{
    (void)state;
    uint64_t vals[5][FR_LIMBS];
    memcpy(vals[0], FR_MODULUS, sizeof(vals[0]));
    memcpy(vals[1], FR_MODULUS, sizeof(vals[1]));
    raw_add_small(vals[1], 1);
    memset(vals[2], 0xff, sizeof(vals[2]));
    memcpy(vals[3], FR_MODULUS, sizeof(vals[3]));
    vals[3][3] += 1; /* r + 2^192 */
    memcpy(vals[4], FR_MODULUS, sizeof(vals[4]));
    raw_add_small(vals[4], -1);
    for (int i = 0; i < 5; i++) {
        uint8_t be[FR_BYTES], le[FR_BYTES];
        fr_t r;
        limbs_to_be(be, vals[i], FR_LIMBS);
        limbs_to_le(le, vals[i], FR_LIMBS);
        bool expect = i == 4;
        assert_int_equal(fr_from_bytes_be(&r, be), expect);
        assert_int_equal(fr_from_bytes_le(&r, le), expect);
        if (expect) {
            fr_t m1;
            fr_neg(&m1, &FR_ONE);
            assert_fr_eq(&r, &m1);
        }
    }
}

static void test_inversion(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("fr_inversion"));
    fr_t x, y;
    fr_inv(&x, &FR_ZERO);
    assert_true(fr_is_zero(&x));
    fr_inv_var(&x, &FR_ZERO);
    assert_true(fr_is_zero(&x));
    fr_inv(&x, &FR_ONE);
    assert_true(fr_is_one(&x));
    fr_inv_var(&x, &FR_ONE);
    assert_true(fr_is_one(&x));
    for (int it = 0; it < test_iters(300); it++) {
        fr_t a;
        if (it < 64) {
            fr_from_u64(&a, (uint64_t)it + 1); /* small values: short Euclid runs */
        } else if (it < 128) {
            fr_from_u64(&a, (uint64_t)it); /* r - small */
            fr_neg(&a, &a);
        } else {
            fr_random(&a, &rng);
        }
        fr_inv(&x, &a);
        fr_mul(&y, &x, &a);
        assert_true(fr_is_one(&y));
        fr_inv_var(&y, &a);
        assert_fr_eq(&x, &y);
        /* In place. */
        y = a;
        fr_inv_var(&y, &y);
        assert_fr_eq(&x, &y);
        y = a;
        fr_inv(&y, &y);
        assert_fr_eq(&x, &y);
    }
}

static void check_batch(size_t n, int zero_every, bool in_place)
{
    fr_t in[600], out[600], want;
    assert_true(n <= 600);
    for (size_t i = 0; i < n; i++) {
        if (zero_every && i % (size_t)zero_every == 1)
            in[i] = FR_ZERO;
        else
            fr_random(&in[i], &rng);
    }
    if (in_place) {
        memcpy(out, in, n * sizeof(fr_t));
        fr_batch_inv_var(out, out, n);
    } else {
        fr_batch_inv_var(out, in, n);
    }
    for (size_t i = 0; i < n; i++) {
        fr_inv(&want, &in[i]);
        assert_fr_eq(&out[i], &want);
    }
}

static void test_batch_inversion(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("fr_batch_inversion"));
    fr_batch_inv_var(NULL, NULL, 0);
    static const size_t sizes[] = {1, 2, 3, 17, 256, 257, 600};
    for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
        for (int zero_every = 0; zero_every <= 3; zero_every += 3)
            for (int in_place = 0; in_place < 2; in_place++)
                check_batch(sizes[s], zero_every, in_place != 0);
    /* All zeros. */
    fr_t z[5] = {FR_ZERO, FR_ZERO, FR_ZERO, FR_ZERO, FR_ZERO};
    fr_batch_inv_var(z, z, 5);
    for (int i = 0; i < 5; i++)
        assert_true(fr_is_zero(&z[i]));
}

static void test_sqrt(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("fr_sqrt"));
    fr_t r, x, m1, g;
    assert_true(fr_sqrt(&r, &FR_ZERO));
    assert_true(fr_is_zero(&r));
    assert_true(fr_is_square(&FR_ZERO));
    fr_neg(&m1, &FR_ONE); /* -1 is a square: r = 1 mod 4 */
    assert_true(fr_sqrt(&r, &m1));
    fr_sqr(&x, &r);
    assert_fr_eq(&x, &m1);
    fr_from_u64(&g, FR_GENERATOR);
    /* Powers of the 2^32-th root of unity: odd powers are non-squares, even
     * powers have every 2-adic order Tonelli-Shanks can meet. */
    fr_t w = FR_ROOT_OF_UNITY;
    for (int k = 0; k < 33; k++) {
        bool sq = k > 0;
        assert_int_equal(fr_is_square(&w), sq);
        assert_int_equal(fr_sqrt(&r, &w), sq);
        if (sq) {
            fr_sqr(&x, &r);
            assert_fr_eq(&x, &w);
        }
        fr_sqr(&w, &w);
    }
    int squares = 0, total = test_iters(200);
    for (int it = 0; it < total; it++) {
        fr_t a, s;
        fr_random(&a, &rng);
        fr_sqr(&s, &a);
        assert_true(fr_is_square(&s));
        assert_true(fr_sqrt(&r, &s));
        fr_sqr(&x, &r);
        assert_fr_eq(&x, &s);
        fr_neg(&x, &r);
        assert_true(fr_eq(&r, &a) || fr_eq(&x, &a));
        /* 7·a² is a non-square. */
        if (!fr_is_zero(&s)) {
            fr_mul(&s, &s, &g);
            assert_false(fr_is_square(&s));
            assert_false(fr_sqrt(&r, &s));
        }
        /* Random elements: sqrt succeeds exactly for squares. */
        bool sq = fr_is_square(&a);
        assert_int_equal(fr_sqrt(&r, &a), sq);
        squares += sq;
    }
    /* About half of the elements are squares. */
    assert_true(squares > total / 4 && squares < 3 * total / 4);
}

static void test_pow(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("fr_pow"));
    for (int it = 0; it < test_iters(50); it++) {
        fr_t a, x, y;
        fr_random(&a, &rng);
        y = FR_ONE;
        for (uint64_t e = 0; e < 40; e++) {
            fr_pow_var(&x, &a, &e, 1);
            assert_fr_eq(&x, &y);
            fr_mul(&y, &y, &a);
        }
        /* Square-and-multiply reference for a random 128-bit exponent. */
        uint64_t e[2] = {rng_u64(&rng), rng_u64(&rng)};
        y = FR_ONE;
        for (int bit = 127; bit >= 0; bit--) {
            fr_sqr(&y, &y);
            if ((e[bit / 64] >> (bit % 64)) & 1)
                fr_mul(&y, &y, &a);
        }
        fr_pow_var(&x, &a, e, 2);
        assert_fr_eq(&x, &y);
        /* Fermat: a^(r-1) = 1; zero-limb exponent. */
        uint64_t pm1[FR_LIMBS];
        memcpy(pm1, FR_MODULUS, sizeof(pm1));
        pm1[0] -= 1;
        fr_pow_var(&x, &a, pm1, FR_LIMBS);
        assert_true(fr_is_one(&x));
        fr_pow_var(&x, &a, NULL, 0);
        assert_true(fr_is_one(&x));
        x = a;
        fr_pow_var(&x, &x, e, 2); /* in place */
        assert_fr_eq(&x, &y);
    }
}

static void test_predicates(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("fr_predicates"));
    fr_t a, b;
    assert_true(fr_is_zero(&FR_ZERO));
    assert_false(fr_is_zero(&FR_ONE));
    assert_true(fr_is_one(&FR_ONE));
    assert_false(fr_is_one(&FR_ZERO));
    for (int it = 0; it < test_iters(500); it++) {
        fr_random(&a, &rng);
        b = a;
        b.l[it % FR_LIMBS] ^= UINT64_C(1) << (it % 64);
        assert_false(fr_eq(&a, &b));
        assert_true(fr_eq(&a, &a));
        fr_t c = a;
        fr_cmov(&c, &b, false);
        assert_true(fr_eq(&c, &a));
        fr_cmov(&c, &b, true);
        assert_true(fr_eq(&c, &b));
    }
}

static void test_random(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("fr_random"));
    int high = 0, total = test_iters(2000);
    for (int it = 0; it < total; it++) {
        fr_t a;
        uint64_t raw[FR_LIMBS];
        fr_random(&a, &rng);
        fr_to_raw(raw, &a);
        assert_true(limbs_lt(raw, FR_MODULUS, FR_LIMBS));
        assert_true(limbs_lt(a.l, FR_MODULUS, FR_LIMBS));
        high += limbs_lt(FR_R_MINUS_1_HALF, raw, FR_LIMBS) != 0;
    }
    /* Uniform on [0, r): the upper half of the range gets about half. */
    assert_true(high > total * 2 / 5 && high < total * 3 / 5);
    /* Same seed, same sequence. */
    rng_t r1, r2;
    rng_seed(&r1, 42);
    rng_seed(&r2, 42);
    fr_t x, y;
    fr_random(&x, &r1);
    fr_random(&y, &r2);
    assert_fr_eq(&x, &y);
}

/* ---- Known-answer vectors (tests/vectors/fr.txt, from @noble/curves). ---- */

static void kat_fr(fr_t *r, const vec_record *rec, size_t i)
{
    uint8_t b[FR_BYTES];
    if (i >= rec->nfields || vec_hex(b, FR_BYTES, rec->fields[i]) != 0)
        fail_msg("fr.txt line %d: field %zu is not %d hex bytes", rec->line, i, FR_BYTES);
    if (!fr_from_bytes_be(r, b))
        fail_msg("fr.txt line %d: field %zu is not below r", rec->line, i);
}

static void kat_expect(const vec_record *rec, const char *what, const fr_t *got, const fr_t *want)
{
    if (!fr_eq(got, want)) {
        fr_print("got ", got);
        fr_print("want", want);
        fail_msg("fr.txt line %d: %s %s", rec->line, rec->op, what);
    }
}

static void test_kat(void **state)
{
    (void)state;
    static const char *ops[] = {"add", "sub", "mul", "sqr", "neg", "inv", "sqrt", "nosqrt", "pow"};
    enum { NOPS = sizeof(ops) / sizeof(ops[0]) };
    int count[NOPS] = {0};
    vec_file *f = vec_open("fr.txt");
    if (f == NULL)
        fail_msg("tests/vectors/fr.txt is missing");
    vec_record rec;
    while (vec_next(f, &rec)) {
        fr_t a, b, want, got;
        int op = -1;
        for (int i = 0; i < NOPS; i++)
            if (strcmp(rec.op, ops[i]) == 0)
                op = i;
        if (op < 0) {
            fail_msg("fr.txt line %d: unknown op %s", rec.line, rec.op);
            continue;
        }
        count[op]++;
        kat_fr(&a, &rec, 0);
        switch (op) {
        case 0:
        case 1:
        case 2:
            kat_fr(&b, &rec, 1);
            kat_fr(&want, &rec, 2);
            if (op == 0)
                fr_add(&got, &a, &b);
            else if (op == 1)
                fr_sub(&got, &a, &b);
            else
                fr_mul(&got, &a, &b);
            kat_expect(&rec, "", &got, &want);
            break;
        case 3:
            kat_fr(&want, &rec, 1);
            fr_sqr(&got, &a);
            kat_expect(&rec, "", &got, &want);
            break;
        case 4:
            kat_fr(&want, &rec, 1);
            fr_neg(&got, &a);
            kat_expect(&rec, "", &got, &want);
            break;
        case 5:
            kat_fr(&want, &rec, 1);
            fr_inv(&got, &a);
            kat_expect(&rec, "(constant time)", &got, &want);
            fr_inv_var(&got, &a);
            kat_expect(&rec, "(variable time)", &got, &want);
            break;
        case 6: {
            kat_fr(&want, &rec, 1);
            if (!fr_sqrt(&got, &a) || !fr_is_square(&a))
                fail_msg("fr.txt line %d: sqrt refused a square", rec.line);
            fr_t neg;
            fr_neg(&neg, &got);
            if (!fr_eq(&got, &want) && !fr_eq(&neg, &want))
                kat_expect(&rec, "(neither root)", &got, &want);
            break;
        }
        case 7:
            if (fr_sqrt(&got, &a) || fr_is_square(&a))
                fail_msg("fr.txt line %d: non-square accepted", rec.line);
            break;
        default: {
            uint8_t eb[32];
            uint64_t e[4];
            if (rec.nfields < 3 || vec_hex(eb, 32, rec.fields[1]) != 0)
                fail_msg("fr.txt line %d: bad exponent", rec.line);
            limbs_from_be(e, eb, 4);
            kat_fr(&want, &rec, 2);
            fr_pow_var(&got, &a, e, 4);
            kat_expect(&rec, "", &got, &want);
            break;
        }
        }
    }
    vec_close(f);
    for (int i = 0; i < NOPS; i++) {
        printf("fr.txt: %d %s records\n", count[i], ops[i]);
        if (count[i] == 0)
            fail_msg("fr.txt has no %s records", ops[i]);
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
