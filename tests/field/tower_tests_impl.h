/* The tests of the extension tower Fp2 ⊂ Fp6 ⊂ Fp12, written once for
 * BLS12-381 and BN254: known answers from tests/vectors and properties on
 * random inputs, each checked against a plain reference (schoolbook
 * products, exponentiation by p).
 *
 * A template: test_tower.c and test_bn254_tower.c each include it once,
 * after cmocka.h, <stdio.h>, <string.h>, the tower's header, "seed.h",
 * "vector_file.h" and the tower's names (src/field/tower_names_*.h), and
 * after defining
 *   TT_NAME                 "tower": names the test seeds
 *   TT_FILE_FP2, TT_FILE_FP12  the vector files ("fp2.txt", "fp12.txt")
 *   TT_XI_C0, TT_XI_C1      ξ = TT_XI_C0 + TT_XI_C1·u, small integers
 *   TT_X_ABS, TT_X_NEGATIVE the curve parameter x as |x| and its sign
 * and lists TOWER_TESTS among its cmocka tests. */

static void make_xi(F2_T *xi)
{
    F1_(from_u64)(&xi->c0, TT_XI_C0);
    F1_(from_u64)(&xi->c1, TT_XI_C1);
}

static rng_t rng;

/* ---- vector helpers ---------------------------------------------------- */

static void hex_fp(F1_T *r, const char *hex, int line)
{
    uint8_t buf[F1_BYTES];
    if (vec_hex(buf, sizeof buf, hex) != 0 || !F1_(from_bytes_be)(r, buf))
        fail_msg("line %d: bad Fp field", line);
}

static void hex_fp2(F2_T *r, const char *const *f, int line)
{
    hex_fp(&r->c0, f[0], line);
    hex_fp(&r->c1, f[1], line);
}

/* Twelve fields in the order c0.c0.c0 c0.c0.c1 c0.c1.c0 … c1.c2.c1. */
static void hex_fp12(F12_T *r, const char *const *f, int line)
{
    F6_T *h[2] = {&r->c0, &r->c1};
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
    vec_file *f = vec_open(TT_FILE_FP2);
    assert_non_null(f);
    op_count ops[] = {{"add", 0}, {"sub", 0},  {"mul", 0},    {"sqr", 0},  {"neg", 0},
                      {"inv", 0}, {"sqrt", 0}, {"nosqrt", 0}, {"frob", 0}, {NULL, 0}};
    vec_record rec;
    while (vec_next(f, &rec)) {
        op_count *o = find_op(ops, &rec);
        F2_T a, b, want, got;
        const char *op = rec.op;
        if (!strcmp(op, "add") || !strcmp(op, "sub") || !strcmp(op, "mul")) {
            need_fields(&rec, 6);
            hex_fp2(&a, rec.fields, rec.line);
            hex_fp2(&b, rec.fields + 2, rec.line);
            hex_fp2(&want, rec.fields + 4, rec.line);
            if (op[0] == 'a')
                F2_(add)(&got, &a, &b);
            else if (op[0] == 's')
                F2_(sub)(&got, &a, &b);
            else
                F2_(mul)(&got, &a, &b);
            if (!F2_(eq)(&got, &want))
                fail_msg(TT_FILE_FP2 " line %d: %s", rec.line, op);
        } else if (!strcmp(op, "nosqrt")) {
            need_fields(&rec, 2);
            hex_fp2(&a, rec.fields, rec.line);
            assert_false(F2_(is_square)(&a));
            if (F2_(sqrt)(&got, &a))
                fail_msg(TT_FILE_FP2 " line %d: sqrt of a non-square", rec.line);
        } else {
            need_fields(&rec, 4);
            hex_fp2(&a, rec.fields, rec.line);
            hex_fp2(&want, rec.fields + 2, rec.line);
            if (!strcmp(op, "sqr")) {
                F2_(sqr)(&got, &a);
            } else if (!strcmp(op, "neg")) {
                F2_(neg)(&got, &a);
            } else if (!strcmp(op, "inv")) {
                F2_(inv)(&got, &a);
                F2_(inv_var)(&b, &a);
                assert_true(F2_(eq)(&got, &b));
            } else if (!strcmp(op, "frob")) {
                F2_(conj)(&got, &a);
            } else { /* sqrt: either root */
                assert_true(F2_(is_square)(&a));
                if (!F2_(sqrt)(&got, &a))
                    fail_msg(TT_FILE_FP2 " line %d: no sqrt found", rec.line);
                F2_(neg)(&b, &got);
                if (!F2_(eq)(&got, &want) && !F2_(eq)(&b, &want))
                    fail_msg(TT_FILE_FP2 " line %d: sqrt is neither root", rec.line);
                got = want;
            }
            if (!F2_(eq)(&got, &want))
                fail_msg(TT_FILE_FP2 " line %d: %s", rec.line, op);
        }
        o->n++;
    }
    vec_close(f);
    check_counts(ops, TT_FILE_FP2);
}

static void test_fp2_properties(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed(TT_NAME "_fp2"));
    F2_T xi;
    make_xi(&xi);
    for (int it = 0; it < test_iters(100); it++) {
        F2_T a, b, c, x, y, z;
        F2_(random)(&a, &rng);
        F2_(random)(&b, &rng);
        F2_(random)(&c, &rng);
        /* schoolbook product */
        F1_T t;
        F1_(mul)(&x.c0, &a.c0, &b.c0);
        F1_(mul)(&t, &a.c1, &b.c1);
        F1_(sub)(&x.c0, &x.c0, &t);
        F1_(mul)(&x.c1, &a.c0, &b.c1);
        F1_(mul)(&t, &a.c1, &b.c0);
        F1_(add)(&x.c1, &x.c1, &t);
        F2_(mul)(&y, &a, &b);
        assert_true(F2_(eq)(&x, &y));
        /* distributivity, squaring, aliasing */
        F2_(add)(&x, &a, &b);
        F2_(mul)(&x, &x, &c);
        F2_(mul)(&y, &a, &c);
        F2_(mul)(&z, &b, &c);
        F2_(add)(&y, &y, &z);
        assert_true(F2_(eq)(&x, &y));
        F2_(mul)(&x, &a, &a);
        y = a;
        F2_(sqr)(&y, &y);
        assert_true(F2_(eq)(&x, &y));
        F2_(dbl)(&x, &a);
        F2_(add)(&y, &a, &a);
        assert_true(F2_(eq)(&x, &y));
        F2_(mul_small)(&x, &a, 7);
        F1_(from_u64)(&t, 7);
        F2_(mul_fp)(&y, &a, &t);
        assert_true(F2_(eq)(&x, &y));
        F2_(mul_nonresidue)(&x, &a);
        F2_(mul)(&y, &a, &xi);
        assert_true(F2_(eq)(&x, &y));
        /* inversion */
        F2_(inv)(&x, &a);
        F2_(mul)(&x, &x, &a);
        assert_true(F2_(is_one)(&x));
        /* conjugation is the Frobenius map */
        F2_(conj)(&x, &a);
        F2_(pow_var)(&y, &a, F1_MODULUS, F1_LIMBS);
        assert_true(F2_(eq)(&x, &y));
        /* square roots */
        F2_(sqr)(&x, &a);
        assert_true(F2_(is_square)(&x));
        assert_true(F2_(sqrt)(&y, &x));
        F2_(sqr)(&y, &y);
        assert_true(F2_(eq)(&x, &y));
        /* every element of Fp is a square in Fp2 (the a1 = 0 branch), and
         * so is every pure imaginary one */
        for (int k = 0; k < 2; k++) {
            x = F2_ZERO;
            if (k == 0)
                x.c0 = a.c0;
            else
                x.c1 = a.c1;
            assert_true(F2_(sqrt)(&y, &x));
            F2_(sqr)(&y, &y);
            assert_true(F2_(eq)(&x, &y));
        }
        F2_(sqr)(&x, &a);
        F2_(mul_nonresidue)(&x, &x); /* ξ is not a square, so ξa² is not */
        assert_false(F2_(is_square)(&x));
        assert_false(F2_(sqrt)(&y, &x));
        /* lexicographic sign: exactly one of ±a is the largest */
        F2_(neg)(&x, &a);
        assert_true(F2_(is_lex_largest)(&a) != F2_(is_lex_largest)(&x));
        x = a;
        x.c1 = F1_ZERO;
        F2_(neg)(&y, &x);
        assert_true(F2_(is_lex_largest)(&x) == F1_(is_lex_largest)(&a.c0));
        assert_true(F2_(is_lex_largest)(&y) != F2_(is_lex_largest)(&x));
        /* bytes: c1 first */
        uint8_t buf[2 * F1_BYTES], c1b[F1_BYTES];
        F2_(to_bytes_be)(buf, &a);
        F1_(to_bytes_be)(c1b, &a.c1);
        assert_memory_equal(buf, c1b, F1_BYTES);
        assert_true(F2_(from_bytes_be)(&x, buf));
        assert_true(F2_(eq)(&x, &a));
        memset(buf + F1_BYTES, 0xff, F1_BYTES);
        assert_false(F2_(from_bytes_be)(&x, buf));
        /* cmov */
        x = a;
        F2_(cmov)(&x, &b, false);
        assert_true(F2_(eq)(&x, &a));
        F2_(cmov)(&x, &b, true);
        assert_true(F2_(eq)(&x, &b));
    }
    F2_T r;
    assert_true(F2_(sqrt)(&r, &F2_ZERO));
    assert_true(F2_(is_zero)(&r));
    F2_(inv)(&r, &F2_ZERO);
    assert_true(F2_(is_zero)(&r));
    /* −1 = u² has the roots ±u (the α = −1 branch of the algorithm). */
    F2_T m1;
    F2_(neg)(&m1, &F2_ONE);
    assert_true(F2_(sqrt)(&r, &m1));
    assert_true(F1_(is_zero)(&r.c0));
}

static void test_fp2_batch_inv(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed(TT_NAME "_fp2_batch"));
    enum { N = 300 }; /* more than one internal block */
    static F2_T in[N], out[N], want[N];
    for (int i = 0; i < N; i++) {
        F2_(random)(&in[i], &rng);
        if (i % 37 == 5)
            in[i] = F2_ZERO;
        F2_(inv)(&want[i], &in[i]);
    }
    F2_(batch_inv_var)(out, in, N);
    for (int i = 0; i < N; i++)
        assert_true(F2_(eq)(&out[i], &want[i]));
    F2_(batch_inv_var)(in, in, N); /* in place */
    for (int i = 0; i < N; i++)
        assert_true(F2_(eq)(&in[i], &want[i]));
    F2_(batch_inv_var)(out, in, 0);
}

/* ---- Fp6 --------------------------------------------------------------- */

/* Schoolbook product with v³ = ξ. */
static void F6_(mul_ref)(F6_T *r, const F6_T *a, const F6_T *b)
{
    const F2_T *x[3] = {&a->c0, &a->c1, &a->c2}, *y[3] = {&b->c0, &b->c1, &b->c2};
    F2_T acc[5], t;
    for (int i = 0; i < 5; i++)
        acc[i] = F2_ZERO;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            F2_(mul)(&t, x[i], y[j]);
            F2_(add)(&acc[i + j], &acc[i + j], &t);
        }
    for (int k = 4; k >= 3; k--) {
        F2_(mul_nonresidue)(&t, &acc[k]);
        F2_(add)(&acc[k - 3], &acc[k - 3], &t);
    }
    r->c0 = acc[0];
    r->c1 = acc[1];
    r->c2 = acc[2];
}

static void test_fp6_properties(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed(TT_NAME "_fp6"));
    for (int it = 0; it < test_iters(50); it++) {
        F6_T a, b, x, y, sparse;
        F6_(random)(&a, &rng);
        F6_(random)(&b, &rng);
        F6_(mul)(&x, &a, &b);
        F6_(mul_ref)(&y, &a, &b);
        assert_true(F6_(eq)(&x, &y));
        x = a;
        F6_(sqr)(&x, &x);
        F6_(mul_ref)(&y, &a, &a);
        assert_true(F6_(eq)(&x, &y));
        F6_(inv)(&x, &a);
        F6_(mul)(&x, &x, &a);
        assert_true(F6_(is_one)(&x));
        /* sparse products */
        sparse = F6_ZERO;
        sparse.c0 = b.c0;
        sparse.c1 = b.c1;
        F6_(mul_by_01)(&x, &a, &b.c0, &b.c1);
        F6_(mul)(&y, &a, &sparse);
        assert_true(F6_(eq)(&x, &y));
        sparse.c0 = F2_ZERO;
        F6_(mul_by_1)(&x, &a, &b.c1);
        F6_(mul)(&y, &a, &sparse);
        assert_true(F6_(eq)(&x, &y));
        sparse.c1 = F2_ONE;
        F6_(mul_by_v)(&x, &a);
        F6_(mul)(&y, &a, &sparse);
        assert_true(F6_(eq)(&x, &y));
        sparse = F6_ZERO;
        sparse.c0 = b.c2;
        F6_(mul_fp2)(&x, &a, &b.c2);
        F6_(mul)(&y, &a, &sparse);
        assert_true(F6_(eq)(&x, &y));
        /* Frobenius: a^p through Fp12, then the composites */
        F12_T e = {a, F6_ZERO};
        F12_(pow_var)(&e, &e, F1_MODULUS, F1_LIMBS);
        F6_(frobenius)(&x, &a, 1);
        assert_true(F6_(eq)(&x, &e.c0));
        F6_(frobenius)(&y, &a, 2);
        F6_(frobenius)(&b, &x, 1);
        assert_true(F6_(eq)(&y, &b));
        F6_(frobenius)(&y, &a, 3);
        F6_(frobenius)(&b, &b, 1);
        assert_true(F6_(eq)(&y, &b));
        F6_(frobenius)(&y, &a, 0);
        assert_true(F6_(eq)(&y, &a));
        F6_(frobenius)(&y, &x, 5);
        assert_true(F6_(eq)(&y, &a));
    }
}

/* ---- Fp12 -------------------------------------------------------------- */

/* The coefficient of w^i over Fp2 (fp12.c): w^i sits at c(i%2).c(i/2). */
static F2_T *wcoef(F12_T *a, int i)
{
    F6_T *h = (i % 2) ? &a->c1 : &a->c0;
    return i / 2 == 0 ? &h->c0 : i / 2 == 1 ? &h->c1 : &h->c2;
}

/* Schoolbook product in Fp2[w] / (w⁶ − ξ). */
static void F12_(mul_ref)(F12_T *r, const F12_T *a, const F12_T *b)
{
    F12_T x = *a, y = *b;
    F2_T acc[11], t;
    for (int i = 0; i < 11; i++)
        acc[i] = F2_ZERO;
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++) {
            F2_(mul)(&t, wcoef(&x, i), wcoef(&y, j));
            F2_(add)(&acc[i + j], &acc[i + j], &t);
        }
    for (int k = 10; k >= 6; k--) {
        F2_(mul_nonresidue)(&t, &acc[k]);
        F2_(add)(&acc[k - 6], &acc[k - 6], &t);
    }
    for (int i = 0; i < 6; i++)
        *wcoef(r, i) = acc[i];
}

static void test_fp12_vectors(void **state)
{
    (void)state;
    vec_file *f = vec_open(TT_FILE_FP12);
    assert_non_null(f);
    op_count ops[] = {{"mul", 0},   {"sqr", 0},   {"inv", 0},       {"frob1", 0},
                      {"frob2", 0}, {"frob3", 0}, {"cyclo_sqr", 0}, {NULL, 0}};
    vec_record rec;
    while (vec_next(f, &rec)) {
        op_count *o = find_op(ops, &rec);
        F12_T a, b, want, got;
        if (!strcmp(rec.op, "mul")) {
            need_fields(&rec, 36);
            hex_fp12(&a, rec.fields, rec.line);
            hex_fp12(&b, rec.fields + 12, rec.line);
            hex_fp12(&want, rec.fields + 24, rec.line);
            F12_(mul)(&got, &a, &b);
        } else {
            need_fields(&rec, 24);
            hex_fp12(&a, rec.fields, rec.line);
            hex_fp12(&want, rec.fields + 12, rec.line);
            if (!strcmp(rec.op, "sqr"))
                F12_(sqr)(&got, &a);
            else if (!strcmp(rec.op, "inv"))
                F12_(inv)(&got, &a);
            else if (!strcmp(rec.op, "cyclo_sqr"))
                F12_(cyclotomic_sqr)(&got, &a);
            else
                F12_(frobenius)(&got, &a, (unsigned)(rec.op[4] - '0'));
            /* the encoding round trip on the way */
            uint8_t buf[F12_BYTES], raw[F12_BYTES];
            F12_(to_bytes_be)(buf, &a);
            for (int i = 0; i < 12; i++)
                assert_int_equal(vec_hex(raw + i * F1_BYTES, F1_BYTES, rec.fields[i]), 0);
            assert_memory_equal(buf, raw, F12_BYTES);
            assert_true(F12_(from_bytes_be)(&b, buf));
            assert_true(F12_(eq)(&a, &b));
        }
        if (!F12_(eq)(&got, &want))
            fail_msg(TT_FILE_FP12 " line %d: %s", rec.line, rec.op);
        o->n++;
    }
    vec_close(f);
    check_counts(ops, TT_FILE_FP12);
}

static void test_fp12_properties(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed(TT_NAME "_fp12"));
    for (int it = 0; it < test_iters(20); it++) {
        F12_T a, b, x, y;
        F12_(random)(&a, &rng);
        F12_(random)(&b, &rng);
        F12_(mul)(&x, &a, &b);
        F12_(mul_ref)(&y, &a, &b);
        assert_true(F12_(eq)(&x, &y));
        x = a;
        F12_(sqr)(&x, &x);
        F12_(mul_ref)(&y, &a, &a);
        assert_true(F12_(eq)(&x, &y));
        F12_(inv)(&x, &a);
        F12_(mul)(&x, &x, &a);
        assert_true(F12_(is_one)(&x));
        F12_(add)(&x, &a, &b);
        F12_(sub)(&x, &x, &b);
        assert_true(F12_(eq)(&x, &a));
        F12_(neg)(&x, &a);
        F12_(add)(&x, &x, &a);
        assert_true(F12_(is_zero)(&x));

        /* the line shape of the Miller loop */
        F12_T sparse = {F6_ZERO, F6_ZERO};
        sparse.c0.c0 = b.c0.c0;
        sparse.c0.c1 = b.c0.c1;
        sparse.c1.c1 = b.c1.c1;
        F12_(mul_by_014)(&x, &a, &b.c0.c0, &b.c0.c1, &b.c1.c1);
        F12_(mul)(&y, &a, &sparse);
        assert_true(F12_(eq)(&x, &y));
        /* the line shape of the D-type twist: coefficients 0, 3 and 4 */
        F12_T sparse34 = {F6_ZERO, F6_ZERO};
        sparse34.c0.c0 = b.c0.c0;
        sparse34.c1.c0 = b.c1.c0;
        sparse34.c1.c1 = b.c1.c1;
        F12_(mul_by_034)(&x, &a, &b.c0.c0, &b.c1.c0, &b.c1.c1);
        F12_(mul)(&y, &a, &sparse34);
        assert_true(F12_(eq)(&x, &y));

        /* Frobenius: a^p, composites, a^(p^6) = conj(a), period 12 */
        F12_T f1, f2, f3;
        F12_(pow_var)(&y, &a, F1_MODULUS, F1_LIMBS);
        F12_(frobenius)(&f1, &a, 1);
        assert_true(F12_(eq)(&f1, &y));
        F12_(frobenius)(&f2, &a, 2);
        F12_(frobenius)(&x, &f1, 1);
        assert_true(F12_(eq)(&f2, &x));
        F12_(frobenius)(&f3, &a, 3);
        F12_(frobenius)(&x, &f2, 1);
        assert_true(F12_(eq)(&f3, &x));
        F12_(frobenius)(&x, &a, 6);
        F12_(conj)(&y, &a);
        assert_true(F12_(eq)(&x, &y));
        x = a;
        for (int k = 0; k < 12; k++)
            F12_(frobenius)(&x, &x, 1);
        assert_true(F12_(eq)(&x, &a));
        F12_(mul)(&x, &a, &b); /* a ring homomorphism */
        F12_(frobenius)(&x, &x, 3);
        F12_(frobenius)(&y, &b, 3);
        F12_(mul)(&y, &y, &f3);
        assert_true(F12_(eq)(&x, &y));

        /* the cyclotomic subgroup */
        F12_T g;
        F12_(final_exp_easy)(&g, &a);
        F12_(cyclotomic_sqr)(&x, &g);
        F12_(sqr)(&y, &g);
        assert_true(F12_(eq)(&x, &y));
        F12_(conj)(&x, &g); /* conj is the inverse there */
        F12_(mul)(&x, &x, &g);
        assert_true(F12_(is_one)(&x));
        const uint64_t xabs = TT_X_ABS;
        F12_(cyclotomic_exp_x)(&x, &g);
        F12_(pow_var)(&y, &g, &xabs, 1);
        if (TT_X_NEGATIVE)
            F12_(conj)(&y, &y);
        assert_true(F12_(eq)(&x, &y));
        uint64_t e[2] = {rng_u64(&rng), rng_u64(&rng) >> (it % 64)};
        F12_(cyclotomic_pow_var)(&x, &g, e, 2);
        F12_(pow_var)(&y, &g, e, 2);
        assert_true(F12_(eq)(&x, &y));

        uint8_t buf[F12_BYTES];
        F12_(to_bytes_be)(buf, &a);
        assert_true(F12_(from_bytes_be)(&x, buf));
        assert_true(F12_(eq)(&x, &a));
        memset(buf + 11 * F1_BYTES, 0xff, F1_BYTES);
        assert_false(F12_(from_bytes_be)(&x, buf));
    }
    F12_T g, x;
    const uint64_t zero = 0, one = 1;
    F12_(random)(&g, &rng);
    F12_(final_exp_easy)(&g, &g);
    F12_(cyclotomic_pow_var)(&x, &g, &zero, 1);
    assert_true(F12_(is_one)(&x));
    F12_(cyclotomic_pow_var)(&x, &g, &one, 1);
    assert_true(F12_(eq)(&x, &g));
}

/* (p − 1)/6 · i as F1_LIMBS limbs (i ≤ 5, so it stays below p). */
static void frob_exponent(uint64_t e[F1_LIMBS], unsigned i)
{
    unsigned __int128 rem = 0;
    uint64_t q[F1_LIMBS];
    for (int k = F1_LIMBS - 1; k >= 0; k--) {
        unsigned __int128 cur = (rem << 64) | (k == 0 ? F1_MODULUS[0] - 1 : F1_MODULUS[k]);
        q[k] = (uint64_t)(cur / 6);
        rem = cur % 6;
    }
    assert_true(rem == 0);
    unsigned __int128 carry = 0;
    for (int k = 0; k < F1_LIMBS; k++) {
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
    F2_T xi;
    make_xi(&xi);
    for (unsigned i = 1; i < 6; i++) {
        uint64_t e[F1_LIMBS];
        F2_T g1, g2, g3, c;
        frob_exponent(e, i);
        F2_(pow_var)(&g1, &xi, e, F1_LIMBS);
        F2_(conj)(&c, &g1);
        F2_(mul)(&g2, &g1, &c);
        F2_(mul)(&g3, &g2, &g1);
        const F2_T *want[3] = {&g1, &g2, &g3};
        for (unsigned k = 1; k <= 3; k++) {
            F12_T wi = {F6_ZERO, F6_ZERO}, r;
            *wcoef(&wi, (int)i) = F2_ONE;
            F12_(frobenius)(&r, &wi, k);
            for (int j = 0; j < 6; j++) {
                if (j == (int)i)
                    assert_true(F2_(eq)(wcoef(&r, j), want[k - 1]));
                else
                    assert_true(F2_(is_zero)(wcoef(&r, j)));
            }
        }
    }
}

/* The tests above, for the including file's list of cmocka tests. */
#define TOWER_TESTS                                                                                \
    cmocka_unit_test(test_fp2_vectors), cmocka_unit_test(test_fp2_properties),                     \
        cmocka_unit_test(test_fp2_batch_inv), cmocka_unit_test(test_fp6_properties),               \
        cmocka_unit_test(test_fp12_vectors), cmocka_unit_test(test_fp12_properties),               \
        cmocka_unit_test(test_frobenius_constants)
