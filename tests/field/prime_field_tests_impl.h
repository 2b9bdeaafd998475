/* The property and known-answer tests every prime field of the library
 * passes, written once for BLS12-381 Fp and Fr and BN254 Fp and Fr.
 *
 * A template: test_fp.c, test_fr.c, test_bn254_fp.c and test_bn254_fr.c each
 * include it once, after cmocka.h, <stdio.h>, <string.h>, the field's headers,
 * "field/limbs.h", "seed.h" and "vector_file.h", and after defining (through
 * the field's src/field/<field>_names.h)
 *   FE_(name)            field-level names:  FE_(mul) -> fp_mul
 *   FE_T, FE_LIMBS, FE_BYTES, FE_ZERO, FE_ONE, FE_MODULUS, FE_R2, FE_R3, FE_N0
 *   FE_MINUS_2           the limbs of modulus − 2
 *   FE_MINUS_1_HALF      the limbs of (modulus − 1) / 2
 *   FE_ADD_MOD_PORTABLE  add_mod_384_portable or add_mod_256_portable
 *   FE_MONT_MUL_PORTABLE mont_mul_384_portable or mont_mul_256_portable
 *   FE_NAME              "fp": names the test seeds and the vector file FE_NAME ".txt"
 *   FE_MODULUS_NAME      "p", as the messages call the modulus
 *   FE_MODULUS_HEX       the modulus as big-endian hex
 * and the macros of the modulus's shape and FE_BASE_FIELD described before
 * the hooks at the end. The including file lists PRIME_FIELD_TESTS among its
 * cmocka tests. */

#define fe_add FE_(add)
#define fe_sub FE_(sub)
#define fe_neg FE_(neg)
#define fe_dbl FE_(dbl)
#define fe_mul FE_(mul)
#define fe_sqr FE_(sqr)
#define fe_inv FE_(inv)
#define fe_inv_var FE_(inv_var)
#define fe_batch_inv_var FE_(batch_inv_var)
#define fe_sqrt FE_(sqrt)
#define fe_is_square FE_(is_square)
#define fe_pow_var FE_(pow_var)
#define fe_eq FE_(eq)
#define fe_is_zero FE_(is_zero)
#define fe_is_one FE_(is_one)
#define fe_cmov FE_(cmov)
#define fe_random FE_(random)
#define fe_from_u64 FE_(from_u64)
#define fe_from_raw FE_(from_raw)
#define fe_to_raw FE_(to_raw)
#define fe_to_bytes_be FE_(to_bytes_be)
#define fe_to_bytes_le FE_(to_bytes_le)
#define fe_from_bytes_be FE_(from_bytes_be)
#define fe_from_bytes_le FE_(from_bytes_le)
#define fe_mul_small FE_(mul_small)
#define fe_is_lex_largest FE_(is_lex_largest)

/* Hooks, defined at the end by the shape of the modulus: the constants only
 * this field has (called by test_constants with the modulus recomputed from
 * FE_MODULUS_HEX), the square-root special cases
 * (called by test_sqrt after those of zero), and a map from a nonzero square
 * to a non-square (−1 or a generator times it), for the random ones. */
static void check_field_constants(const uint64_t modulus[FE_LIMBS]);
static void check_sqrt_special_cases(void);
static void make_non_square(FE_T *square);

static rng_t rng;

static void fe_print(const char *what, const FE_T *a)
{
    uint8_t b[FE_BYTES];
    fe_to_bytes_be(b, a);
    printf("  %s = 0x", what);
    for (int i = 0; i < FE_BYTES; i++)
        printf("%02x", b[i]);
    printf("\n");
}

#define assert_fe_eq(a, b)                                                                         \
    do {                                                                                           \
        if (!fe_eq((a), (b))) {                                                                    \
            fe_print(#a, (a));                                                                     \
            fe_print(#b, (b));                                                                     \
            fail_msg("%s != %s", #a, #b);                                                          \
        }                                                                                          \
    } while (0)

/* Plain integers on FE_LIMBS limbs, for recomputing the constants. */
static void raw_shr1(uint64_t x[FE_LIMBS])
{
    for (int i = 0; i < FE_LIMBS; i++)
        x[i] = (x[i] >> 1) | (i + 1 < FE_LIMBS ? x[i + 1] << 63 : 0);
}

/* x += d for a small signed d, as a (64·FE_LIMBS)-bit two's complement integer. */
static void raw_add_small(uint64_t x[FE_LIMBS], int64_t d)
{
    unsigned __int128 acc = 0;
    uint64_t ext = d < 0 ? ~UINT64_C(0) : 0;
    for (int i = 0; i < FE_LIMBS; i++) {
        acc += (unsigned __int128)x[i] + (i == 0 ? (uint64_t)d : ext);
        x[i] = (uint64_t)acc;
        acc >>= 64;
    }
}

static void test_constants(void **state)
{
    (void)state;
    /* The modulus from its hex spelling in the field's header. */
    uint8_t mb[FE_BYTES];
    assert_int_equal(vec_hex(mb, FE_BYTES, FE_MODULUS_HEX), 0);
    uint64_t m[FE_LIMBS];
    limbs_from_be(m, mb, FE_LIMBS);
    assert_memory_equal(m, FE_MODULUS, sizeof(m));

    /* R and R² modulo the modulus by doubling 1, 64·FE_LIMBS and twice as many times. */
    enum { R_BITS = 64 * FE_LIMBS };
    uint64_t x[FE_LIMBS] = {1};
    for (int i = 0; i < 2 * R_BITS; i++) {
        FE_ADD_MOD_PORTABLE(x, x, x, m);
        if (i == R_BITS - 1)
            assert_memory_equal(x, FE_ONE.l, sizeof(x));
    }
    assert_memory_equal(x, FE_R2.l, sizeof(x));
    /* R³ = R²·R²/R. */
    FE_MONT_MUL_PORTABLE(x, FE_R2.l, FE_R2.l, FE_MODULUS, FE_N0);
    assert_memory_equal(x, FE_R3.l, sizeof(x));

    /* -m^-1 mod 2^64 by Newton's iteration x <- x(2 - m x), five doublings of precision. */
    uint64_t inv = 1;
    for (int i = 0; i < 6; i++)
        inv *= 2 - m[0] * inv;
    assert_true(inv * m[0] == 1);
    assert_true(FE_N0 == 0 - inv);

    memcpy(x, m, sizeof(x));
    raw_add_small(x, -2);
    assert_memory_equal(x, FE_MINUS_2, sizeof(x));
    memcpy(x, m, sizeof(x));
    raw_shr1(x); /* (m - 1) / 2 = m >> 1 for odd m */
    assert_memory_equal(x, FE_MINUS_1_HALF, sizeof(x));

    check_field_constants(m);

    uint64_t zero[FE_LIMBS] = {0};
    assert_memory_equal(FE_ZERO.l, zero, sizeof(zero));
    uint64_t raw[FE_LIMBS];
    fe_to_raw(raw, &FE_ONE);
    uint64_t one[FE_LIMBS] = {1};
    assert_memory_equal(raw, one, sizeof(raw));
}

static void test_axioms(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed(FE_NAME "_axioms"));
    for (int it = 0; it < test_iters(1000); it++) {
        FE_T a, b, c, x, y, z;
        fe_random(&a, &rng);
        fe_random(&b, &rng);
        fe_random(&c, &rng);
        /* Commutativity. */
        fe_mul(&x, &a, &b);
        fe_mul(&y, &b, &a);
        assert_fe_eq(&x, &y);
        fe_add(&x, &a, &b);
        fe_add(&y, &b, &a);
        assert_fe_eq(&x, &y);
        /* Associativity. */
        fe_mul(&x, &a, &b);
        fe_mul(&x, &x, &c);
        fe_mul(&y, &b, &c);
        fe_mul(&y, &a, &y);
        assert_fe_eq(&x, &y);
        fe_add(&x, &a, &b);
        fe_add(&x, &x, &c);
        fe_add(&y, &b, &c);
        fe_add(&y, &a, &y);
        assert_fe_eq(&x, &y);
        /* Distributivity. */
        fe_add(&x, &a, &b);
        fe_mul(&x, &x, &c);
        fe_mul(&y, &a, &c);
        fe_mul(&z, &b, &c);
        fe_add(&y, &y, &z);
        assert_fe_eq(&x, &y);
        /* Identities and additive inverses. */
        fe_add(&x, &a, &FE_ZERO);
        assert_fe_eq(&x, &a);
        fe_mul(&x, &a, &FE_ONE);
        assert_fe_eq(&x, &a);
        fe_mul(&x, &a, &FE_ZERO);
        assert_true(fe_is_zero(&x));
        fe_neg(&x, &a);
        fe_add(&x, &x, &a);
        assert_true(fe_is_zero(&x));
        fe_sub(&x, &a, &b);
        fe_neg(&y, &b);
        fe_add(&y, &a, &y);
        assert_fe_eq(&x, &y);
        fe_sub(&x, &a, &b);
        fe_add(&x, &x, &b);
        assert_fe_eq(&x, &a);
        /* Doubling and squaring. */
        fe_dbl(&x, &a);
        fe_add(&y, &a, &a);
        assert_fe_eq(&x, &y);
        fe_sqr(&x, &a);
        fe_mul(&y, &a, &a);
        assert_fe_eq(&x, &y);
        /* Aliasing of outputs and inputs. */
        x = a;
        fe_mul(&x, &x, &x);
        fe_sqr(&y, &a);
        assert_fe_eq(&x, &y);
        x = a;
        fe_sub(&x, &b, &x);
        fe_sub(&y, &b, &a);
        assert_fe_eq(&x, &y);
    }
    FE_T x, m1;
    fe_neg(&x, &FE_ZERO);
    assert_true(fe_is_zero(&x));
    for (unsigned k = 0; k < 40; k++) {
        FE_T y = FE_ZERO;
        for (unsigned i = 0; i < k; i++)
            fe_add(&y, &y, &FE_ONE);
        fe_from_u64(&x, k);
        assert_fe_eq(&x, &y);
    }
    /* (m - 1)² = 1. */
    fe_neg(&m1, &FE_ONE);
    fe_sqr(&x, &m1);
    assert_true(fe_is_one(&x));
}

static void test_raw_and_bytes(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed(FE_NAME "_raw_and_bytes"));
    for (int it = 0; it < test_iters(1000); it++) {
        FE_T a, b;
        uint64_t raw[FE_LIMBS], raw2[FE_LIMBS];
        uint8_t be[FE_BYTES], le[FE_BYTES];
        fe_random(&a, &rng);
        fe_to_raw(raw, &a);
        assert_true(limbs_lt(raw, FE_MODULUS, FE_LIMBS));
        fe_from_raw(&b, raw);
        assert_fe_eq(&a, &b);
        fe_to_bytes_be(be, &a);
        fe_to_bytes_le(le, &a);
        for (int i = 0; i < FE_BYTES; i++)
            assert_int_equal(be[i], le[FE_BYTES - 1 - i]);
        limbs_from_le(raw2, le, FE_LIMBS);
        assert_memory_equal(raw, raw2, sizeof(raw));
        assert_true(fe_from_bytes_be(&b, be));
        assert_fe_eq(&a, &b);
        assert_true(fe_from_bytes_le(&b, le));
        assert_fe_eq(&a, &b);
        /* from_u64 is a ring homomorphism on small values. */
        uint64_t u = rng_u64(&rng) >> 32, v = rng_u64(&rng) >> 32;
        FE_T fu, fv, fuv;
        fe_from_u64(&fu, u);
        fe_from_u64(&fv, v);
        fe_from_u64(&fuv, u * v);
        fe_mul(&fu, &fu, &fv);
        assert_fe_eq(&fu, &fuv);
    }
    uint64_t raw[FE_LIMBS];
    FE_T a;
    fe_from_u64(&a, 0x0102030405060708ULL);
    uint8_t be[FE_BYTES];
    fe_to_bytes_be(be, &a);
    for (int i = 0; i < FE_BYTES - 8; i++)
        assert_int_equal(be[i], 0);
    for (int i = 0; i < 8; i++)
        assert_int_equal(be[FE_BYTES - 8 + i], i + 1);
    fe_to_raw(raw, &a);
    assert_true(raw[0] == 0x0102030405060708ULL);
}

/* m, m + 1, 2^(64·FE_LIMBS) - 1 and values above m are refused; m - 1 is accepted. */
static void test_noncanonical(void **state)
{
    (void)state;
    uint64_t vals[5][FE_LIMBS];
    memcpy(vals[0], FE_MODULUS, sizeof(vals[0]));
    memcpy(vals[1], FE_MODULUS, sizeof(vals[1]));
    raw_add_small(vals[1], 1);
    memset(vals[2], 0xff, sizeof(vals[2]));
    memcpy(vals[3], FE_MODULUS, sizeof(vals[3]));
    vals[3][FE_LIMBS - 1] += 1; /* m + 2^(64·(FE_LIMBS − 1)) */
    memcpy(vals[4], FE_MODULUS, sizeof(vals[4]));
    raw_add_small(vals[4], -1);
    for (int i = 0; i < 5; i++) {
        uint8_t be[FE_BYTES], le[FE_BYTES];
        FE_T r;
        limbs_to_be(be, vals[i], FE_LIMBS);
        limbs_to_le(le, vals[i], FE_LIMBS);
        bool expect = i == 4;
        assert_int_equal(fe_from_bytes_be(&r, be), expect);
        assert_int_equal(fe_from_bytes_le(&r, le), expect);
        if (expect) {
            FE_T m1;
            fe_neg(&m1, &FE_ONE);
            assert_fe_eq(&r, &m1);
        }
    }
}

static void test_inversion(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed(FE_NAME "_inversion"));
    FE_T x, y;
    fe_inv(&x, &FE_ZERO);
    assert_true(fe_is_zero(&x));
    fe_inv_var(&x, &FE_ZERO);
    assert_true(fe_is_zero(&x));
    fe_inv(&x, &FE_ONE);
    assert_true(fe_is_one(&x));
    fe_inv_var(&x, &FE_ONE);
    assert_true(fe_is_one(&x));
    for (int it = 0; it < test_iters(300); it++) {
        FE_T a;
        if (it < 64) {
            fe_from_u64(&a, (uint64_t)it + 1); /* small values: short Euclid runs */
        } else if (it < 128) {
            fe_from_u64(&a, (uint64_t)it); /* m - small */
            fe_neg(&a, &a);
        } else {
            fe_random(&a, &rng);
        }
        fe_inv(&x, &a);
        fe_mul(&y, &x, &a);
        assert_true(fe_is_one(&y));
        fe_inv_var(&y, &a);
        assert_fe_eq(&x, &y);
        /* In place. */
        y = a;
        fe_inv_var(&y, &y);
        assert_fe_eq(&x, &y);
        y = a;
        fe_inv(&y, &y);
        assert_fe_eq(&x, &y);
    }
}

static void check_batch(size_t n, int zero_every, bool in_place)
{
    FE_T in[600], out[600], want;
    assert_true(n <= 600);
    for (size_t i = 0; i < n; i++) {
        if (zero_every && i % (size_t)zero_every == 1)
            in[i] = FE_ZERO;
        else
            fe_random(&in[i], &rng);
    }
    if (in_place) {
        memcpy(out, in, n * sizeof(FE_T));
        fe_batch_inv_var(out, out, n);
    } else {
        fe_batch_inv_var(out, in, n);
    }
    for (size_t i = 0; i < n; i++) {
        fe_inv(&want, &in[i]);
        assert_fe_eq(&out[i], &want);
    }
}

static void test_batch_inversion(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed(FE_NAME "_batch_inversion"));
    fe_batch_inv_var(NULL, NULL, 0);
    static const size_t sizes[] = {1, 2, 3, 17, 256, 257, 600};
    for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
        for (int zero_every = 0; zero_every <= 3; zero_every += 3)
            for (int in_place = 0; in_place < 2; in_place++)
                check_batch(sizes[s], zero_every, in_place != 0);
    /* All zeros. */
    FE_T z[5] = {FE_ZERO, FE_ZERO, FE_ZERO, FE_ZERO, FE_ZERO};
    fe_batch_inv_var(z, z, 5);
    for (int i = 0; i < 5; i++)
        assert_true(fe_is_zero(&z[i]));
}

static void test_sqrt(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed(FE_NAME "_sqrt"));
    FE_T r, x;
    assert_true(fe_sqrt(&r, &FE_ZERO));
    assert_true(fe_is_zero(&r));
    assert_true(fe_is_square(&FE_ZERO));
    check_sqrt_special_cases();
    int squares = 0, total = test_iters(200);
    for (int it = 0; it < total; it++) {
        FE_T a, s;
        fe_random(&a, &rng);
        fe_sqr(&s, &a);
        assert_true(fe_is_square(&s));
        assert_true(fe_sqrt(&r, &s));
        fe_sqr(&x, &r);
        assert_fe_eq(&x, &s);
        fe_neg(&x, &r);
        assert_true(fe_eq(&r, &a) || fe_eq(&x, &a));
        if (!fe_is_zero(&s)) {
            make_non_square(&s);
            assert_false(fe_is_square(&s));
            assert_false(fe_sqrt(&r, &s));
        }
        /* Random elements: sqrt succeeds exactly for squares. */
        bool sq = fe_is_square(&a);
        assert_int_equal(fe_sqrt(&r, &a), sq);
        squares += sq;
    }
    /* About half of the elements are squares. */
    assert_true(squares > total / 4 && squares < 3 * total / 4);
}

static void test_pow(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed(FE_NAME "_pow"));
    for (int it = 0; it < test_iters(50); it++) {
        FE_T a, x, y;
        fe_random(&a, &rng);
        y = FE_ONE;
        for (uint64_t e = 0; e < 40; e++) {
            fe_pow_var(&x, &a, &e, 1);
            assert_fe_eq(&x, &y);
            fe_mul(&y, &y, &a);
        }
        /* Square-and-multiply reference for a random 128-bit exponent. */
        uint64_t e[2] = {rng_u64(&rng), rng_u64(&rng)};
        y = FE_ONE;
        for (int bit = 127; bit >= 0; bit--) {
            fe_sqr(&y, &y);
            if ((e[bit / 64] >> (bit % 64)) & 1)
                fe_mul(&y, &y, &a);
        }
        fe_pow_var(&x, &a, e, 2);
        assert_fe_eq(&x, &y);
        /* Fermat: a^(m-1) = 1; zero-limb exponent. */
        uint64_t mm1[FE_LIMBS];
        memcpy(mm1, FE_MODULUS, sizeof(mm1));
        mm1[0] -= 1;
        fe_pow_var(&x, &a, mm1, FE_LIMBS);
        assert_true(fe_is_one(&x));
        fe_pow_var(&x, &a, NULL, 0);
        assert_true(fe_is_one(&x));
        x = a;
        fe_pow_var(&x, &x, e, 2); /* in place */
        assert_fe_eq(&x, &y);
    }
}

static void test_predicates(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed(FE_NAME "_predicates"));
    FE_T a, b;
    assert_true(fe_is_zero(&FE_ZERO));
    assert_false(fe_is_zero(&FE_ONE));
    assert_true(fe_is_one(&FE_ONE));
    assert_false(fe_is_one(&FE_ZERO));
    for (int it = 0; it < test_iters(500); it++) {
        fe_random(&a, &rng);
        b = a;
        b.l[it % FE_LIMBS] ^= UINT64_C(1) << (it % 64);
        assert_false(fe_eq(&a, &b));
        assert_true(fe_eq(&a, &a));
        FE_T c = a;
        fe_cmov(&c, &b, false);
        assert_true(fe_eq(&c, &a));
        fe_cmov(&c, &b, true);
        assert_true(fe_eq(&c, &b));
    }
}

static void test_random(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed(FE_NAME "_random"));
    int high = 0, total = test_iters(2000);
    for (int it = 0; it < total; it++) {
        FE_T a;
        uint64_t raw[FE_LIMBS];
        fe_random(&a, &rng);
        fe_to_raw(raw, &a);
        assert_true(limbs_lt(raw, FE_MODULUS, FE_LIMBS));
        assert_true(limbs_lt(a.l, FE_MODULUS, FE_LIMBS));
        high += limbs_lt(FE_MINUS_1_HALF, raw, FE_LIMBS) != 0;
    }
    /* Uniform on [0, m): the upper half of the range gets about half. */
    assert_true(high > total * 2 / 5 && high < total * 3 / 5);
    /* Same seed, same sequence. */
    rng_t r1, r2;
    rng_seed(&r1, 42);
    rng_seed(&r2, 42);
    FE_T x, y;
    fe_random(&x, &r1);
    fe_random(&y, &r2);
    assert_fe_eq(&x, &y);
}

/* ---- Known-answer vectors (tests/vectors/FE_NAME.txt, from @noble/curves). ---- */

#define KAT_FILE FE_NAME ".txt"

static void kat_fe(FE_T *r, const vec_record *rec, size_t i)
{
    uint8_t b[FE_BYTES];
    if (i >= rec->nfields || vec_hex(b, FE_BYTES, rec->fields[i]) != 0)
        fail_msg(KAT_FILE " line %d: field %zu is not %d hex bytes", rec->line, i, FE_BYTES);
    if (!fe_from_bytes_be(r, b))
        fail_msg(KAT_FILE " line %d: field %zu is not below " FE_MODULUS_NAME, rec->line, i);
}

static void kat_expect(const vec_record *rec, const char *what, const FE_T *got, const FE_T *want)
{
    if (!fe_eq(got, want)) {
        fe_print("got ", got);
        fe_print("want", want);
        fail_msg(KAT_FILE " line %d: %s %s", rec->line, rec->op, what);
    }
}

static void test_kat(void **state)
{
    (void)state;
    static const char *ops[] = {"add", "sub", "mul", "sqr", "neg", "inv", "sqrt", "nosqrt", "pow"};
    enum { NOPS = sizeof(ops) / sizeof(ops[0]) };
    int count[NOPS] = {0};
    vec_file *f = vec_open(KAT_FILE);
    if (f == NULL)
        fail_msg("tests/vectors/" KAT_FILE " is missing");
    vec_record rec;
    while (vec_next(f, &rec)) {
        FE_T a, b, want, got;
        int op = -1;
        for (int i = 0; i < NOPS; i++)
            if (strcmp(rec.op, ops[i]) == 0)
                op = i;
        if (op < 0) {
            fail_msg(KAT_FILE " line %d: unknown op %s", rec.line, rec.op);
            continue;
        }
        count[op]++;
        kat_fe(&a, &rec, 0);
        switch (op) {
        case 0:
        case 1:
        case 2:
            kat_fe(&b, &rec, 1);
            kat_fe(&want, &rec, 2);
            if (op == 0)
                fe_add(&got, &a, &b);
            else if (op == 1)
                fe_sub(&got, &a, &b);
            else
                fe_mul(&got, &a, &b);
            kat_expect(&rec, "", &got, &want);
            break;
        case 3:
            kat_fe(&want, &rec, 1);
            fe_sqr(&got, &a);
            kat_expect(&rec, "", &got, &want);
            break;
        case 4:
            kat_fe(&want, &rec, 1);
            fe_neg(&got, &a);
            kat_expect(&rec, "", &got, &want);
            break;
        case 5:
            kat_fe(&want, &rec, 1);
            fe_inv(&got, &a);
            kat_expect(&rec, "(constant time)", &got, &want);
            fe_inv_var(&got, &a);
            kat_expect(&rec, "(variable time)", &got, &want);
            break;
        case 6: {
            kat_fe(&want, &rec, 1);
            if (!fe_sqrt(&got, &a) || !fe_is_square(&a))
                fail_msg(KAT_FILE " line %d: sqrt refused a square", rec.line);
            FE_T neg;
            fe_neg(&neg, &got);
            if (!fe_eq(&got, &want) && !fe_eq(&neg, &want))
                kat_expect(&rec, "(neither root)", &got, &want);
            break;
        }
        case 7:
            if (fe_sqrt(&got, &a) || fe_is_square(&a))
                fail_msg(KAT_FILE " line %d: non-square accepted", rec.line);
            break;
        default: {
            uint8_t eb[32];
            uint64_t e[4];
            if (rec.nfields < 3 || vec_hex(eb, 32, rec.fields[1]) != 0)
                fail_msg(KAT_FILE " line %d: bad exponent", rec.line);
            limbs_from_be(e, eb, 4);
            kat_fe(&want, &rec, 2);
            fe_pow_var(&got, &a, e, 4);
            kat_expect(&rec, "", &got, &want);
            break;
        }
        }
    }
    vec_close(f);
    for (int i = 0; i < NOPS; i++) {
        printf(KAT_FILE ": %d %s records\n", count[i], ops[i]);
        if (count[i] == 0)
            fail_msg(KAT_FILE " has no %s records", ops[i]);
    }
}

/* The hooks by the shape of the modulus: m = 3 mod 4 (FE_PLUS_1_QUARTER
 * defined, a^((m+1)/4) roots) or the 2-adic structure of Tonelli-Shanks
 * (FE_TWO_ADICITY, FE_GENERATOR, FE_ODD_T = t, FE_T_MINUS_1_HALF,
 * FE_ROOT_OF_UNITY). */
#ifdef FE_PLUS_1_QUARTER
static void check_field_constants(const uint64_t m[FE_LIMBS])
{
    assert_int_equal(m[0] & 3, 3); /* m = 3 mod 4, for the square root */
    uint64_t x[FE_LIMBS];
    memcpy(x, m, sizeof(x));
    raw_add_small(x, 1);
    raw_shr1(x);
    raw_shr1(x);
    assert_memory_equal(x, FE_PLUS_1_QUARTER, sizeof(x));
}

static void check_sqrt_special_cases(void)
{
    FE_T r, m1;
    fe_neg(&m1, &FE_ONE); /* -1 is not a square: m = 3 mod 4 */
    assert_false(fe_sqrt(&r, &m1));
    assert_false(fe_is_square(&m1));
}

/* -1 is a non-square, so -a² is one. */
static void make_non_square(FE_T *square)
{
    fe_neg(square, square);
}
#else
static void check_field_constants(const uint64_t m[FE_LIMBS])
{
    /* r - 1 = 2^s · t with t odd, s the 2-adicity. */
    uint64_t x[FE_LIMBS];
    memcpy(x, m, sizeof(x));
    raw_add_small(x, -1);
    int s = 0;
    while ((x[0] & 1) == 0) {
        raw_shr1(x);
        s++;
    }
    assert_int_equal(s, FE_TWO_ADICITY);
    assert_memory_equal(x, FE_ODD_T, sizeof(x));
    raw_shr1(x);
    assert_memory_equal(x, FE_T_MINUS_1_HALF, sizeof(x));

    /* The root of unity is g^t and has order exactly 2^s. */
    FE_T g, w, y;
    fe_from_u64(&g, FE_GENERATOR);
    fe_pow_var(&w, &g, FE_ODD_T, FE_LIMBS);
    assert_fe_eq(&w, &FE_ROOT_OF_UNITY);
    y = w;
    for (int i = 0; i < FE_TWO_ADICITY - 1; i++)
        fe_sqr(&y, &y);
    FE_T m1;
    fe_neg(&m1, &FE_ONE);
    assert_fe_eq(&y, &m1);
    /* g is a non-square, as a generator must be. */
    assert_false(fe_is_square(&g));
}

static void check_sqrt_special_cases(void)
{
    FE_T r, x, m1;
    fe_neg(&m1, &FE_ONE); /* -1 is a square: m = 1 mod 4 */
    assert_true(fe_sqrt(&r, &m1));
    fe_sqr(&x, &r);
    assert_fe_eq(&x, &m1);
    /* Powers of the 2^s-th root of unity: odd powers are non-squares, even
     * powers have every 2-adic order Tonelli-Shanks can meet. */
    FE_T w = FE_ROOT_OF_UNITY;
    for (int k = 0; k <= FE_TWO_ADICITY; k++) {
        bool sq = k > 0;
        assert_int_equal(fe_is_square(&w), sq);
        assert_int_equal(fe_sqrt(&r, &w), sq);
        if (sq) {
            fe_sqr(&x, &r);
            assert_fe_eq(&x, &w);
        }
        fe_sqr(&w, &w);
    }
}

/* The generator g is a non-square, so g·a² is one. */
static void make_non_square(FE_T *square)
{
    FE_T g;
    fe_from_u64(&g, FE_GENERATOR);
    fe_mul(square, square, &g);
}
#endif

/* What a base field (FE_BASE_FIELD) adds: small multiples and the
 * lexicographic order. */
#ifdef FE_BASE_FIELD
static void test_mul_small(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed(FE_NAME "_mul_small"));
    for (int it = 0; it < test_iters(1000); it++) {
        FE_T a, x, y;
        fe_random(&a, &rng);
        unsigned k = (unsigned)(rng_u64(&rng) % 1000);
        fe_mul_small(&x, &a, k);
        fe_from_u64(&y, k);
        fe_mul(&y, &y, &a);
        assert_fe_eq(&x, &y);
    }
    FE_T x;
    for (unsigned k = 0; k < 40; k++) {
        FE_T y = FE_ZERO;
        for (unsigned i = 0; i < k; i++)
            fe_add(&y, &y, &FE_ONE);
        fe_mul_small(&x, &FE_ONE, k);
        assert_fe_eq(&x, &y);
    }
    static const unsigned big[] = {0x80000000u, 0xffffffffu, 12345678u, 255u, 256u};
    for (size_t i = 0; i < sizeof(big) / sizeof(big[0]); i++) {
        FE_T y, a;
        fe_random(&a, &rng);
        fe_mul_small(&x, &a, big[i]);
        fe_from_u64(&y, big[i]);
        fe_mul(&y, &y, &a);
        assert_fe_eq(&x, &y);
    }
}

static void test_lex_largest(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed(FE_NAME "_lex_largest"));
    FE_T a, b, half, m1;
    assert_false(fe_is_lex_largest(&FE_ZERO));
    assert_false(fe_is_lex_largest(&FE_ONE));
    fe_neg(&m1, &FE_ONE);
    assert_true(fe_is_lex_largest(&m1));
    fe_from_raw(&half, FE_MINUS_1_HALF);
    assert_false(fe_is_lex_largest(&half));
    fe_add(&half, &half, &FE_ONE);
    assert_true(fe_is_lex_largest(&half));
    /* Exactly one of a and -a is the larger, for a nonzero. */
    for (int it = 0; it < test_iters(500); it++) {
        fe_random(&a, &rng);
        fe_neg(&b, &a);
        if (!fe_is_zero(&a))
            assert_int_equal(fe_is_lex_largest(&a), !fe_is_lex_largest(&b));
    }
}
#define BASE_FIELD_TESTS , cmocka_unit_test(test_mul_small), cmocka_unit_test(test_lex_largest)
#else
#define BASE_FIELD_TESTS
#endif

/* The tests above, for the including file's list of cmocka tests. */
#define PRIME_FIELD_TESTS                                                                          \
    cmocka_unit_test(test_constants), cmocka_unit_test(test_axioms),                               \
        cmocka_unit_test(test_raw_and_bytes), cmocka_unit_test(test_noncanonical),                 \
        cmocka_unit_test(test_inversion), cmocka_unit_test(test_batch_inversion),                  \
        cmocka_unit_test(test_sqrt), cmocka_unit_test(test_pow),                                   \
        cmocka_unit_test(test_predicates), cmocka_unit_test(test_random),                          \
        cmocka_unit_test(test_kat) BASE_FIELD_TESTS
