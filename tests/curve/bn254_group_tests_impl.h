/* The tests of a BN254 group, written once for G1 and G2: constants, the
 * group law against its own identities, scalar multiplication, the subgroup
 * test, the plain affine encodings (big-endian, zkey), and the known answers of
 * tests/vectors/bn254_g1.txt / bn254_g2.txt (add, dbl, mul, bad).
 *
 * A template: test_bn254_curve.c includes it once per group, after defining
 *   BG_(name)   the test names:      BG_(vectors) -> g1_vectors
 *   PT_(name)   the group's names:   PT_(jac_add) -> bn254_g1_jac_add
 *   FT_(name), FT_T                  the coordinate field
 *   BG_GENERATOR, BG_BYTES, BG_VECTORS ("bn254_g1.txt")
 *   bg_curve_b(b)                    a function giving the curve's b
 *   BG_HAS_COFACTOR                  1 for G2 (off-subgroup points exist)
 * The including file undefines them before the next group. */

typedef PT_(affine_t) BG_(aff_t);
typedef PT_(jac_t) BG_(jac_t);
typedef PT_(xyzz_t) BG_(xyzz_t);

static void BG_(random_jac)(BG_(jac_t) * p)
{
    uint64_t k[4];
    BG_(jac_t) g;
    for (int i = 0; i < 4; i++)
        k[i] = rng_u64(&rng);
    PT_(jac_from_affine)(&g, &BG_GENERATOR);
    PT_(jac_mul_var)(p, &g, k);
}

static void BG_(constants)(void **state)
{
    (void)state;
    BG_(jac_t) g, t;
    assert_true(PT_(affine_is_on_curve)(&BG_GENERATOR));
    assert_true(PT_(affine_in_subgroup)(&BG_GENERATOR));
    PT_(jac_from_affine)(&g, &BG_GENERATOR);
    PT_(jac_mul_var)(&t, &g, BN254_FR_MODULUS);
    assert_true(PT_(jac_is_infinity)(&t));
    PT_(jac_mul)(&t, &g, BN254_FR_MODULUS);
    assert_true(PT_(jac_is_infinity)(&t));
    /* b = y² − x³ at the generator. */
    FT_T b, x3, want;
    FT_(sqr)(&b, &BG_GENERATOR.y);
    FT_(sqr)(&x3, &BG_GENERATOR.x);
    FT_(mul)(&x3, &x3, &BG_GENERATOR.x);
    FT_(sub)(&b, &b, &x3);
    bg_curve_b(&want);
    assert_true(FT_(eq)(&b, &want));
}

static void BG_(group_law)(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed(BG_VECTORS " group law"));
    for (int it = 0; it < test_iters(16); it++) {
        BG_(jac_t) p, q, s, t, u, o;
        BG_(aff_t) qa;
        BG_(xyzz_t) x, y;
        BG_(random_jac)(&p);
        BG_(random_jac)(&q);
        BG_(random_jac)(&s);
        PT_(jac_set_infinity)(&o);
        PT_(jac_add)(&t, &p, &q); /* associativity, commutativity */
        PT_(jac_add)(&t, &t, &s);
        PT_(jac_add)(&u, &q, &s);
        PT_(jac_add)(&u, &u, &p);
        assert_true(PT_(jac_eq)(&t, &u));
        PT_(jac_add)(&t, &p, &o); /* identity, inverse */
        assert_true(PT_(jac_eq)(&t, &p));
        PT_(jac_neg)(&u, &p);
        PT_(jac_add)(&t, &p, &u);
        assert_true(PT_(jac_is_infinity)(&t));
        PT_(jac_add_var)(&t, &p, &u);
        assert_true(PT_(jac_is_infinity)(&t));
        PT_(jac_add)(&t, &p, &p); /* doubling */
        PT_(jac_dbl)(&u, &p);
        assert_true(PT_(jac_eq)(&t, &u));
        PT_(jac_add)(&t, &p, &q); /* the variants agree */
        PT_(jac_add_var)(&u, &p, &q);
        assert_true(PT_(jac_eq)(&t, &u));
        PT_(jac_to_affine)(&qa, &q);
        PT_(jac_add_mixed)(&u, &p, &qa);
        assert_true(PT_(jac_eq)(&t, &u));
        PT_(jac_add_mixed_var)(&u, &p, &qa);
        assert_true(PT_(jac_eq)(&t, &u));
        BG_(aff_t) pa;
        PT_(jac_to_affine)(&pa, &p);
        PT_(xyzz_from_affine)(&x, &pa);
        PT_(xyzz_add_mixed_var)(&y, &x, &qa);
        PT_(xyzz_to_jac)(&u, &y);
        assert_true(PT_(jac_eq)(&t, &u));
        PT_(xyzz_add_mixed)(&y, &x, &qa);
        PT_(xyzz_to_jac)(&u, &y);
        assert_true(PT_(jac_eq)(&t, &u));
        /* [a]P + [b]P = [a + b]P, constant-time and variable-time */
        uint64_t a[4] = {rng_u64(&rng), rng_u64(&rng), rng_u64(&rng), rng_u64(&rng) >> 2};
        uint64_t b[4] = {rng_u64(&rng), rng_u64(&rng), rng_u64(&rng), rng_u64(&rng) >> 2};
        uint64_t c[4];
        unsigned __int128 carry = 0;
        for (int i = 0; i < 4; i++) {
            carry += (unsigned __int128)a[i] + b[i];
            c[i] = (uint64_t)carry;
            carry >>= 64;
        }
        PT_(jac_mul)(&t, &p, a);
        PT_(jac_mul_var)(&u, &p, b);
        PT_(jac_add)(&t, &t, &u);
        PT_(jac_mul_var)(&u, &p, c);
        assert_true(PT_(jac_eq)(&t, &u));
        PT_(jac_mul)(&s, &p, c);
        assert_true(PT_(jac_eq)(&s, &u));
    }
}

static void BG_(encoding)(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed(BG_VECTORS " encoding"));
    uint8_t buf[BG_BYTES], zero[BG_BYTES] = {0};
    BG_(aff_t) a, b;
    PT_(affine_set_infinity)(&a);
    PT_(affine_to_bytes)(buf, &a);
    assert_memory_equal(buf, zero, sizeof(buf));
    assert_int_equal(PT_(affine_decode)(&b, buf, sizeof(buf), true), CUZK_OK);
    assert_true(b.infinity);
    assert_int_equal(PT_(affine_decode)(&b, buf, sizeof(buf) - 1, true), CUZK_ERR_ENCODING_LENGTH);
    for (int it = 0; it < test_iters(16); it++) {
        BG_(jac_t) p;
        BG_(random_jac)(&p);
        PT_(jac_to_affine)(&a, &p);
        PT_(affine_to_bytes)(buf, &a);
        assert_int_equal(PT_(affine_decode)(&b, buf, sizeof(buf), true), CUZK_OK);
        assert_true(PT_(affine_eq)(&a, &b));
        buf[sizeof(buf) - 1] ^= 1; /* y changed: off the curve */
        assert_int_equal(PT_(affine_decode)(&b, buf, sizeof(buf), true), CUZK_ERR_NOT_ON_CURVE);
        assert_true(b.infinity);
        /* the zkey layout: the Montgomery limbs, little-endian */
        PT_(affine_to_zkey)(buf, &a);
        assert_memory_equal(buf, &a.x, sizeof(a.x));
        assert_int_equal(PT_(affine_decode_zkey)(&b, buf, sizeof(buf), true), CUZK_OK);
        assert_true(PT_(affine_eq)(&a, &b));
        memset(buf + sizeof(buf) - 8, 0xff, 8); /* the top limb of y.c1 (y) above p */
        assert_int_equal(PT_(affine_decode_zkey)(&b, buf, sizeof(buf), true),
                         CUZK_ERR_NOT_CANONICAL);
    }
}

static void BG_(decode)(BG_(aff_t) * a, const vec_record *rec, size_t i)
{
    uint8_t buf[BG_BYTES];
    assert_int_equal(vec_hex(buf, sizeof(buf), rec->fields[i]), 0);
    cuzk_status st = PT_(affine_decode)(a, buf, sizeof(buf), true);
    if (st != CUZK_OK)
        fail_msg("line %d field %zu: %s", rec->line, i, cuzk_status_str(st));
}

static void BG_(expect)(const BG_(jac_t) * p, const vec_record *rec, size_t i)
{
    uint8_t want[BG_BYTES], got[BG_BYTES];
    BG_(aff_t) a;
    assert_int_equal(vec_hex(want, sizeof(want), rec->fields[i]), 0);
    PT_(jac_to_affine)(&a, p);
    PT_(affine_to_bytes)(got, &a);
    if (memcmp(got, want, sizeof(want)) != 0)
        fail_msg("line %d: %s gives a different point", rec->line, rec->op);
}

static void BG_(vectors)(void **state)
{
    (void)state;
    enum { ADD, DBL, MUL, BAD, NOPS };
    static const char *const ops[NOPS] = {"add", "dbl", "mul", "bad"};
    static const size_t nfields[NOPS] = {3, 2, 3, 2};
    int count[NOPS] = {0};
    vec_file *f = vec_open(BG_VECTORS);
    assert_non_null(f);
    vec_record rec;
    while (vec_next(f, &rec)) {
        int op = 0;
        while (op < NOPS && strcmp(rec.op, ops[op]) != 0)
            op++;
        if (op == NOPS || rec.nfields != nfields[op])
            fail_msg("%s line %d: unknown op %s or wrong field count", BG_VECTORS, rec.line,
                     rec.op);
        count[op]++;
        BG_(aff_t) a, b;
        BG_(jac_t) p, q, t;
        uint64_t k[4];
        uint8_t be[32];
        switch (op) {
        case ADD:
            BG_(decode)(&a, &rec, 0);
            BG_(decode)(&b, &rec, 1);
            PT_(jac_from_affine)(&p, &a);
            PT_(jac_from_affine)(&q, &b);
            PT_(jac_add)(&t, &p, &q);
            BG_(expect)(&t, &rec, 2);
            PT_(jac_add_var)(&t, &q, &p);
            BG_(expect)(&t, &rec, 2);
            PT_(jac_add_mixed)(&t, &p, &b);
            BG_(expect)(&t, &rec, 2);
            break;
        case DBL:
            BG_(decode)(&a, &rec, 0);
            PT_(jac_from_affine)(&p, &a);
            PT_(jac_dbl)(&t, &p);
            BG_(expect)(&t, &rec, 1);
            break;
        case MUL:
            BG_(decode)(&a, &rec, 0);
            assert_int_equal(vec_hex(be, sizeof(be), rec.fields[1]), 0);
            limbs_from_be(k, be, 4);
            PT_(jac_from_affine)(&p, &a);
            PT_(jac_mul)(&t, &p, k);
            BG_(expect)(&t, &rec, 2);
            PT_(jac_mul_var)(&t, &p, k);
            BG_(expect)(&t, &rec, 2);
            break;
        case BAD: {
            uint8_t buf[BG_BYTES];
            cuzk_status want = !strcmp(rec.fields[0], "noncanonical")   ? CUZK_ERR_NOT_CANONICAL
                               : !strcmp(rec.fields[0], "not_on_curve") ? CUZK_ERR_NOT_ON_CURVE
                                                                        : CUZK_ERR_NOT_IN_SUBGROUP;
            assert_int_equal(vec_hex(buf, sizeof(buf), rec.fields[1]), 0);
            if (PT_(affine_decode)(&a, buf, sizeof(buf), true) != want)
                fail_msg("%s line %d: not rejected as %s", BG_VECTORS, rec.line, rec.fields[0]);
            if (want == CUZK_ERR_NOT_IN_SUBGROUP)
                assert_int_equal(PT_(affine_decode)(&a, buf, sizeof(buf), false), CUZK_OK);
            break;
        }
        }
    }
    vec_close(f);
    for (int op = 0; op < NOPS; op++) {
        printf("%s: %d %s records\n", BG_VECTORS, count[op], ops[op]);
        if (count[op] == 0 && (op != BAD || BG_HAS_COFACTOR))
            fail_msg("%s has no %s records", BG_VECTORS, ops[op]);
    }
}
