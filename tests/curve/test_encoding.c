/* ZCash encodings of G1 and G2 points: round trips, every record of
 * bad_g1.txt / bad_g2.txt, and hand-made inputs for each decoding error.
 * The tests are written once over a table of per-group operations. */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "curve/g1.h"
#include "curve/g2.h"
#include "seed.h"
#include "vector_file.h"

static rng_t rng;

/* The operations a test needs from a group, on encodings only. */
typedef struct group {
    const char *name;
    const char *bad_file;
    size_t clen, ulen;
    /* Decodes; on success writes both encodings of the result. */
    cuzk_status (*decode)(const uint8_t *in, size_t len, bool check_subgroup, uint8_t *c,
                          uint8_t *u);
    /* Left at infinity after a failed decode? */
    bool (*decode_leaves_infinity)(const uint8_t *in, size_t len);
    /* Encodings of a random subgroup point, of its negation, of a random
     * curve point outside the subgroup; a compressed x with no y. */
    void (*random_in)(uint8_t *c, uint8_t *u, uint8_t *neg_c, uint8_t *neg_u);
    void (*random_off)(uint8_t *c, uint8_t *u);
    void (*random_no_y)(uint8_t *c);
} group;

/* Per-group wrappers: prefixes G (g1/g2), F (fp/fp2), the generator, 1. */
#define GROUP_OPS(G, F, GEN, ONE)                                                                  \
    static cuzk_status G##_dec(const uint8_t *in, size_t len, bool sub, uint8_t *c, uint8_t *u)    \
    {                                                                                              \
        G##_affine_t a;                                                                            \
        cuzk_status st = G##_affine_decode(&a, in, len, sub);                                      \
        if (st == CUZK_OK) {                                                                       \
            G##_affine_to_compressed(c, &a);                                                       \
            G##_affine_to_uncompressed(u, &a);                                                     \
        }                                                                                          \
        return st;                                                                                 \
    }                                                                                              \
    static bool G##_dec_inf(const uint8_t *in, size_t len)                                         \
    {                                                                                              \
        G##_affine_t a = GEN;                                                                      \
        return G##_affine_decode(&a, in, len, true) != CUZK_OK && a.infinity;                      \
    }                                                                                              \
    static void G##_rand_in(uint8_t *c, uint8_t *u, uint8_t *nc, uint8_t *nu)                      \
    {                                                                                              \
        G##_jac_t p;                                                                               \
        G##_affine_t a;                                                                            \
        uint64_t k[4];                                                                             \
        for (int i = 0; i < 4; i++)                                                                \
            k[i] = rng_u64(&rng);                                                                  \
        G##_jac_from_affine(&p, &GEN);                                                             \
        G##_jac_mul_var(&p, &p, k);                                                                \
        G##_jac_to_affine(&a, &p);                                                                 \
        G##_affine_to_compressed(c, &a);                                                           \
        G##_affine_to_uncompressed(u, &a);                                                         \
        G##_affine_neg(&a, &a);                                                                    \
        G##_affine_to_compressed(nc, &a);                                                          \
        G##_affine_to_uncompressed(nu, &a);                                                        \
    }                                                                                              \
    /* x with x³ + b a square (want_y) or not; b = y² − x³ at the generator. */               \
    static void G##_rand_x(G##_affine_t *a, bool want_y)                                           \
    {                                                                                              \
        F##_t b, t;                                                                                \
        F##_sqr(&b, &GEN.y);                                                                       \
        F##_sqr(&t, &GEN.x);                                                                       \
        F##_mul(&t, &t, &GEN.x);                                                                   \
        F##_sub(&b, &b, &t);                                                                       \
        do {                                                                                       \
            F##_random(&a->x, &rng);                                                               \
            F##_sqr(&t, &a->x);                                                                    \
            F##_mul(&t, &t, &a->x);                                                                \
            F##_add(&t, &t, &b);                                                                   \
        } while (F##_sqrt(&a->y, &t) != want_y);                                                   \
        a->infinity = false;                                                                       \
    }                                                                                              \
    static void G##_rand_off(uint8_t *c, uint8_t *u)                                               \
    {                                                                                              \
        G##_affine_t a;                                                                            \
        G##_rand_x(&a, true);                                                                      \
        G##_affine_to_compressed(c, &a);                                                           \
        G##_affine_to_uncompressed(u, &a);                                                         \
    }                                                                                              \
    static void G##_rand_no_y(uint8_t *c)                                                          \
    {                                                                                              \
        G##_affine_t a;                                                                            \
        G##_rand_x(&a, false);                                                                     \
        a.y = ONE;                                                                                 \
        G##_affine_to_compressed(c, &a);                                                           \
    }

GROUP_OPS(g1, fp, G1_GENERATOR, FP_ONE)
GROUP_OPS(g2, fp2, G2_GENERATOR, FP2_ONE)

static const group G1 = {"G1",        "bad_g1.txt", G1_COMPRESSED_BYTES, G1_UNCOMPRESSED_BYTES,
                         g1_dec,      g1_dec_inf,   g1_rand_in,          g1_rand_off,
                         g1_rand_no_y};
static const group G2 = {"G2",        "bad_g2.txt", G2_COMPRESSED_BYTES, G2_UNCOMPRESSED_BYTES,
                         g2_dec,      g2_dec_inf,   g2_rand_in,          g2_rand_off,
                         g2_rand_no_y};

#define MAX_LEN 512

/* ---------------------------------------------------------------- round trips */

static void roundtrip(const group *g)
{
    uint8_t c[MAX_LEN], u[MAX_LEN], nc[MAX_LEN], nu[MAX_LEN], c2[MAX_LEN], u2[MAX_LEN];
    int iters = test_iters(8);
    for (int it = 0; it < iters; it++) {
        g->random_in(c, u, nc, nu);
        assert_int_equal(c[0] & 0xc0, 0x80);
        assert_int_equal(u[0] & 0xe0, 0x00);
        /* P and −P differ only in the sign flag */
        assert_int_equal(c[0] ^ nc[0], 0x20);
        assert_memory_equal(c + 1, nc + 1, g->clen - 1);
        assert_memory_equal(u, nu, g->clen);
        assert_int_equal(g->decode(c, g->clen, true, c2, u2), CUZK_OK);
        assert_memory_equal(c2, c, g->clen);
        assert_memory_equal(u2, u, g->ulen);
        assert_int_equal(g->decode(u, g->ulen, true, c2, u2), CUZK_OK);
        assert_memory_equal(c2, c, g->clen);
        assert_memory_equal(u2, u, g->ulen);
        assert_int_equal(g->decode(nc, g->clen, false, c2, u2), CUZK_OK);
        assert_memory_equal(u2, nu, g->ulen);
    }
    /* infinity */
    memset(c, 0, g->clen);
    c[0] = 0xc0;
    memset(u, 0, g->ulen);
    u[0] = 0x40;
    assert_int_equal(g->decode(c, g->clen, true, c2, u2), CUZK_OK);
    assert_memory_equal(c2, c, g->clen);
    assert_memory_equal(u2, u, g->ulen);
    assert_int_equal(g->decode(u, g->ulen, true, c2, u2), CUZK_OK);
    assert_memory_equal(c2, c, g->clen);
    assert_memory_equal(u2, u, g->ulen);
}

static void test_roundtrip(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("encoding round trip"));
    roundtrip(&G1);
    roundtrip(&G2);
}

/* ---------------------------------------------------------------- bad vectors */

static const struct {
    const char *kind;
    cuzk_status status;
} KINDS[] = {
    {"length", CUZK_ERR_ENCODING_LENGTH},
    {"flags", CUZK_ERR_ENCODING_FLAGS},
    {"noncanonical", CUZK_ERR_NOT_CANONICAL},
    {"not_on_curve", CUZK_ERR_NOT_ON_CURVE},
    {"not_in_subgroup", CUZK_ERR_NOT_IN_SUBGROUP},
    {"infinity_noncanonical", CUZK_ERR_INFINITY_NOT_CANONICAL},
};
#define NKINDS (sizeof(KINDS) / sizeof(KINDS[0]))

static void bad_vectors(const group *g)
{
    int count[NKINDS] = {0};
    uint8_t buf[MAX_LEN], c[MAX_LEN], u[MAX_LEN];
    vec_file *f = vec_open(g->bad_file);
    if (!f) {
        fail_msg("missing vector file %s", g->bad_file);
        return;
    }
    vec_record rec;
    while (vec_next(f, &rec)) {
        if (strcmp(rec.op, "bad") != 0 || rec.nfields != 2) {
            fail_msg("%s line %d: expected \"bad KIND hex\"", vec_path(f), rec.line);
            break;
        }
        size_t kind = 0;
        while (kind < NKINDS && strcmp(rec.fields[0], KINDS[kind].kind) != 0)
            kind++;
        size_t len = strlen(rec.fields[1]) / 2;
        if (kind == NKINDS || len > MAX_LEN || vec_hex(buf, len, rec.fields[1]) != 0) {
            fail_msg("%s line %d: unknown kind or bad hex", vec_path(f), rec.line);
            break;
        }
        count[kind]++;
        cuzk_status st = g->decode(buf, len, true, c, u);
        if (st != KINDS[kind].status)
            fail_msg("%s line %d (%s): got %s, want %s", vec_path(f), rec.line, KINDS[kind].kind,
                     cuzk_status_str(st), cuzk_status_str(KINDS[kind].status));
        assert_true(g->decode_leaves_infinity(buf, len));
        /* Off-subgroup points are fine when the subgroup is not checked. */
        if (KINDS[kind].status == CUZK_ERR_NOT_IN_SUBGROUP)
            assert_int_equal(g->decode(buf, len, false, c, u), CUZK_OK);
    }
    vec_close(f);
    for (size_t k = 0; k < NKINDS; k++) {
        printf("%s: %d %s records\n", g->bad_file, count[k], KINDS[k].kind);
        if (count[k] == 0)
            fail_msg("%s has no %s records", g->bad_file, KINDS[k].kind);
    }
}

static void test_bad_vectors(void **state)
{
    (void)state;
    bad_vectors(&G1);
    bad_vectors(&G2);
}

/* ---------------------------------------------------------------- hand-made */

static void expect(const group *g, const uint8_t *in, size_t len, cuzk_status want)
{
    uint8_t c[MAX_LEN], u[MAX_LEN];
    cuzk_status st = g->decode(in, len, true, c, u);
    if (st != want)
        fail_msg("%s, %zu bytes, byte 0 = 0x%02x: got %s, want %s", g->name, len,
                 in && len ? in[0] : 0, cuzk_status_str(st), cuzk_status_str(want));
}

/* Writes p as a 48-byte big-endian integer. */
static void modulus_be(uint8_t out[FP_BYTES])
{
    for (int i = 0; i < FP_BYTES; i++)
        out[FP_BYTES - 1 - i] = (uint8_t)(FP_MODULUS[i / 8] >> (8 * (i % 8)));
}

static void handmade(const group *g)
{
    uint8_t c[MAX_LEN], u[MAX_LEN], nc[MAX_LEN], nu[MAX_LEN], t[MAX_LEN];
    uint8_t p_be[FP_BYTES];
    size_t clen = g->clen, ulen = g->ulen;
    modulus_be(p_be);
    g->random_in(c, u, nc, nu);

    /* length */
    static const int deltas[] = {-1, 1};
    for (int i = 0; i < 2; i++) {
        expect(g, c, (size_t)((int)clen + deltas[i]), CUZK_ERR_ENCODING_LENGTH);
        expect(g, u, (size_t)((int)ulen + deltas[i]), CUZK_ERR_ENCODING_LENGTH);
    }
    expect(g, c, 0, CUZK_ERR_ENCODING_LENGTH);
    expect(g, c, 1, CUZK_ERR_ENCODING_LENGTH);
    expect(g, NULL, 0, CUZK_ERR_ENCODING_LENGTH);
    expect(g, NULL, clen, CUZK_ERR_INVALID_ARGUMENT);

    /* flags */
    memcpy(t, c, clen);
    t[0] &= 0x7f;
    expect(g, t, clen, CUZK_ERR_ENCODING_FLAGS);
    memcpy(t, u, ulen);
    t[0] |= 0x80;
    expect(g, t, ulen, CUZK_ERR_ENCODING_FLAGS);
    t[0] = (uint8_t)((u[0] & 0x1f) | 0x20);
    expect(g, t, ulen, CUZK_ERR_ENCODING_FLAGS);
    memset(t, 0, ulen);
    t[0] = 0xe0;
    expect(g, t, clen, CUZK_ERR_ENCODING_FLAGS);
    t[0] = 0x60;
    expect(g, t, ulen, CUZK_ERR_ENCODING_FLAGS);
    t[0] = 0x40;
    expect(g, t, clen, CUZK_ERR_ENCODING_FLAGS);

    /* infinity not canonical */
    memset(t, 0, ulen);
    t[0] = 0xc1;
    expect(g, t, clen, CUZK_ERR_INFINITY_NOT_CANONICAL);
    t[0] = 0xc0;
    t[clen - 1] = 0x01;
    expect(g, t, clen, CUZK_ERR_INFINITY_NOT_CANONICAL);
    t[clen - 1] = 0;
    t[0] = 0x40;
    t[ulen - 1] = 0x80;
    expect(g, t, ulen, CUZK_ERR_INFINITY_NOT_CANONICAL);
    memcpy(t, c, clen);
    t[0] = (uint8_t)((t[0] & 0x1f) | 0xc0);
    expect(g, t, clen, CUZK_ERR_INFINITY_NOT_CANONICAL);

    /* not canonical: each coordinate word set to p in turn */
    for (size_t off = 0; off < clen; off += FP_BYTES) {
        memcpy(t, c, clen);
        memcpy(t + off, p_be, FP_BYTES);
        t[0] |= (uint8_t)(c[0] & 0xe0);
        expect(g, t, clen, CUZK_ERR_NOT_CANONICAL);
    }
    for (size_t off = 0; off < ulen; off += FP_BYTES) {
        memcpy(t, u, ulen);
        memcpy(t + off, p_be, FP_BYTES);
        expect(g, t, ulen, CUZK_ERR_NOT_CANONICAL);
    }

    /* not on the curve */
    memcpy(t, u, ulen);
    t[ulen - 1] ^= 0x02;
    expect(g, t, ulen, CUZK_ERR_NOT_ON_CURVE);
    memset(t, 0, ulen);
    expect(g, t, ulen, CUZK_ERR_NOT_ON_CURVE);
    g->random_no_y(t);
    expect(g, t, clen, CUZK_ERR_NOT_ON_CURVE);
    t[0] ^= 0x20;
    expect(g, t, clen, CUZK_ERR_NOT_ON_CURVE);

    /* not in the subgroup */
    g->random_off(c, u);
    expect(g, c, clen, CUZK_ERR_NOT_IN_SUBGROUP);
    expect(g, u, ulen, CUZK_ERR_NOT_IN_SUBGROUP);
    assert_int_equal(g->decode(c, clen, false, nc, nu), CUZK_OK);
    assert_memory_equal(nu, u, ulen);
    assert_true(g->decode_leaves_infinity(u, ulen));
}

static void test_handmade(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("encoding hand-made errors"));
    int iters = test_iters(2);
    for (int i = 0; i < iters; i++) {
        handmade(&G1);
        handmade(&G2);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_roundtrip),
        cmocka_unit_test(test_bad_vectors),
        cmocka_unit_test(test_handmade),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
