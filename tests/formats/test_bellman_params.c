/* bellman / bellperson parameter, verifying-key and proof files: round
 * trips of random keys, the byte layout, ranged and multi-threaded decoding
 * with each check level, and damaged files (every truncation, flipped
 * bytes, crafted counts) that must fail cleanly. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "read_file.h"
#include "formats/bellman_params.h"
#include "seed.h"

static char msg[512];
static rng_t rng;

static void expect_ok(cuzk_status st)
{
    if (st != CUZK_OK)
        fail_msg("status %s: %s", cuzk_status_str(st), msg);
}

static void random_scalar(uint64_t k[4])
{
    for (int i = 0; i < 4; i++)
        k[i] = rng_u64(&rng);
}

static void random_g1(g1_affine_t *r)
{
    uint64_t k[4];
    random_scalar(k);
    g1_jac_t g, p;
    g1_jac_from_affine(&g, &G1_GENERATOR);
    g1_jac_mul_var(&p, &g, k);
    g1_jac_to_affine(r, &p);
}

static void random_g2(g2_affine_t *r)
{
    uint64_t k[4];
    random_scalar(k);
    g2_jac_t g, p;
    g2_jac_from_affine(&g, &G2_GENERATOR);
    g2_jac_mul_var(&p, &g, k);
    g2_jac_to_affine(r, &p);
}

static g1_affine_t *random_g1s(size_t n)
{
    g1_affine_t *p = malloc((n ? n : 1) * sizeof(*p));
    assert_non_null(p);
    for (size_t i = 0; i < n; i++)
        random_g1(&p[i]);
    return p;
}

static void random_vk(groth16_vk_t *vk, size_t num_ic)
{
    random_g1(&vk->alpha_g1);
    random_g1(&vk->beta_g1);
    random_g2(&vk->beta_g2);
    random_g2(&vk->gamma_g2);
    random_g1(&vk->delta_g1);
    random_g2(&vk->delta_g2);
    vk->ic = random_g1s(num_ic);
    vk->num_ic = num_ic;
}

static void random_params(groth16_params_t *p, size_t h, size_t l, size_t a, size_t b)
{
    memset(p, 0, sizeof(*p));
    random_vk(&p->vk, 3);
    p->h = random_g1s(h);
    p->num_h = h;
    p->l = random_g1s(l);
    p->num_l = l;
    p->a = random_g1s(a);
    p->num_a = a;
    p->b_g1 = random_g1s(b);
    p->num_b_g1 = b;
    p->b_g2 = malloc((b ? b : 1) * sizeof(g2_affine_t));
    for (size_t i = 0; i < b; i++)
        random_g2(&p->b_g2[i]);
    p->num_b_g2 = b;
}

static void assert_vk_equal(const groth16_vk_t *x, const groth16_vk_t *y)
{
    assert_int_equal(x->num_ic, y->num_ic);
    assert_true(groth16_vk_eq(x, y));
}

static void assert_g1s_equal(const g1_affine_t *x, const g1_affine_t *y, size_t n)
{
    for (size_t i = 0; i < n; i++)
        assert_true(g1_affine_eq(&x[i], &y[i]));
}

static void assert_params_equal(const groth16_params_t *x, const groth16_params_t *y)
{
    assert_vk_equal(&x->vk, &y->vk);
    assert_int_equal(x->num_h, y->num_h);
    assert_int_equal(x->num_l, y->num_l);
    assert_int_equal(x->num_a, y->num_a);
    assert_int_equal(x->num_b_g1, y->num_b_g1);
    assert_int_equal(x->num_b_g2, y->num_b_g2);
    assert_g1s_equal(x->h, y->h, x->num_h);
    assert_g1s_equal(x->l, y->l, x->num_l);
    assert_g1s_equal(x->a, y->a, x->num_a);
    assert_g1s_equal(x->b_g1, y->b_g1, x->num_b_g1);
    for (size_t i = 0; i < x->num_b_g2; i++)
        assert_true(g2_affine_eq(&x->b_g2[i], &y->b_g2[i]));
}

static char tmp_path[64];

static void make_tmp(void)
{
    strcpy(tmp_path, "/tmp/cuzk_params_XXXXXX");
    int fd = mkstemp(tmp_path);
    assert_true(fd >= 0);
    close(fd);
}

#define VK_FIXED (3 * 96 + 3 * 192)

static void test_round_trip(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("bellman_round_trip"));
    groth16_params_t p, q;
    random_params(&p, 7, 5, 6, 4);
    make_tmp();
    expect_ok(bellman_params_save(&p, tmp_path, msg, sizeof(msg)));

    /* The layout, byte for byte: vk, then five (u32 BE count, points). */
    size_t len;
    uint8_t *file = test_read_file(tmp_path, &len);
    assert_int_equal(len, VK_FIXED + 4 + 3 * 96 + 5 * 4 + (7 + 5 + 6 + 4) * 96 + 4 * 192);
    uint8_t enc[192];
    g1_affine_to_uncompressed(enc, &p.vk.alpha_g1);
    assert_memory_equal(file, enc, 96);
    g2_affine_to_uncompressed(enc, &p.vk.beta_g2);
    assert_memory_equal(file + 2 * 96, enc, 192);
    g2_affine_to_uncompressed(enc, &p.vk.delta_g2);
    assert_memory_equal(file + 3 * 96 + 2 * 192, enc, 192);
    size_t off = VK_FIXED;
    assert_memory_equal(file + off, "\0\0\0\3", 4);
    off += 4 + 3 * 96;
    assert_memory_equal(file + off, "\0\0\0\7", 4);
    g1_affine_to_uncompressed(enc, &p.h[0]);
    assert_memory_equal(file + off + 4, enc, 96);
    off += 4 + 7 * 96 + 4 + 5 * 96 + 4 + 6 * 96 + 4 + 4 * 96;
    assert_memory_equal(file + off, "\0\0\0\4", 4);
    g2_affine_to_uncompressed(enc, &p.b_g2[3]);
    assert_memory_equal(file + len - 192, enc, 192);
    free(file);

    formats_check checks[3] = {FORMATS_CHECK_NONE, FORMATS_CHECK_CURVE, FORMATS_CHECK_SUBGROUP};
    for (int c = 0; c < 3; c++) {
        expect_ok(bellman_params_load(&q, tmp_path, checks[c], 3, msg, sizeof(msg)));
        assert_params_equal(&p, &q);
        groth16_params_free(&q);
    }

    /* Ranged decoding from the mapping. */
    bellman_params_map_t m;
    expect_ok(bellman_params_open(&m, tmp_path, FORMATS_CHECK_SUBGROUP, msg, sizeof(msg)));
    assert_vk_equal(&p.vk, &m.vk);
    assert_int_equal(m.count[BELLMAN_H], 7);
    assert_int_equal(m.count[BELLMAN_B_G2], 4);
    g1_affine_t g1[8];
    g2_affine_t g2[4];
    expect_ok(bellman_params_decode_g1(g1, &m, BELLMAN_A, 2, 3, FORMATS_CHECK_CURVE, 2, msg,
                                       sizeof(msg)));
    assert_g1s_equal(g1, p.a + 2, 3);
    expect_ok(bellman_params_decode_g2(g2, &m, 1, 3, FORMATS_CHECK_NONE, 0, msg, sizeof(msg)));
    for (int i = 0; i < 3; i++)
        assert_true(g2_affine_eq(&g2[i], &p.b_g2[1 + i]));
    assert_int_equal(
        bellman_params_decode_g1(g1, &m, BELLMAN_L, 3, 3, FORMATS_CHECK_NONE, 1, msg, sizeof(msg)),
        CUZK_ERR_INVALID_ARGUMENT);
    assert_int_equal(bellman_params_decode_g1(g1, &m, BELLMAN_B_G2, 0, 1, FORMATS_CHECK_NONE, 1,
                                              msg, sizeof(msg)),
                     CUZK_ERR_INVALID_ARGUMENT);
    bellman_params_close(&m);

    /* Empty queries are fine. */
    groth16_params_t e;
    random_params(&e, 0, 0, 0, 0);
    expect_ok(bellman_params_save(&e, tmp_path, msg, sizeof(msg)));
    expect_ok(bellman_params_load(&q, tmp_path, FORMATS_CHECK_SUBGROUP, 1, msg, sizeof(msg)));
    assert_params_equal(&e, &q);
    groth16_params_free(&q);
    groth16_params_free(&e);

    /* What bellman would refuse is not written: infinity in a query. */
    g1_affine_set_infinity(&p.l[4]);
    assert_int_equal(bellman_params_save(&p, tmp_path, msg, sizeof(msg)),
                     CUZK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(msg, "l[4]"));
    groth16_params_free(&p);
    remove(tmp_path);
}

/* Many points: the multi-threaded decoder reports the first bad one. */
static void test_parallel_decode(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("bellman_parallel_decode"));
    groth16_params_t p;
    random_params(&p, 3000, 1, 1, 1);
    make_tmp();
    expect_ok(bellman_params_save(&p, tmp_path, msg, sizeof(msg)));
    size_t len;
    uint8_t *file = test_read_file(tmp_path, &len);
    size_t h0 = VK_FIXED + 4 + 3 * 96 + 4;
    /* Points 2500 and 1700 off the curve (last byte of y changed). */
    file[h0 + 2500 * 96 + 95] ^= 1;
    file[h0 + 1700 * 96 + 95] ^= 1;
    bellman_params_map_t m;
    expect_ok(
        bellman_params_open_buffer(&m, file, len, "buf", FORMATS_CHECK_SUBGROUP, msg, sizeof(msg)));
    g1_affine_t *out = malloc(3000 * sizeof(g1_affine_t));
    assert_int_equal(bellman_params_decode_g1(out, &m, BELLMAN_H, 0, 3000, FORMATS_CHECK_CURVE, 4,
                                              msg, sizeof(msg)),
                     CUZK_ERR_NOT_ON_CURVE);
    assert_non_null(strstr(msg, "h point 1700"));
    /* Unchecked decoding takes them (coordinates are still < p). */
    expect_ok(bellman_params_decode_g1(out, &m, BELLMAN_H, 0, 3000, FORMATS_CHECK_NONE, 4, msg,
                                       sizeof(msg)));
    assert_g1s_equal(out, p.h, 1700);
    expect_ok(bellman_params_decode_g1(out, &m, BELLMAN_H, 0, 1700, FORMATS_CHECK_SUBGROUP, 4, msg,
                                       sizeof(msg)));
    assert_g1s_equal(out, p.h, 1700);
    bellman_params_close(&m);
    free(out);
    free(file);
    groth16_params_free(&p);
    remove(tmp_path);
}

static void test_vk_file(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("bellman_vk_file"));
    groth16_vk_t vk, back;
    random_vk(&vk, 5);
    make_tmp();
    expect_ok(bellman_vk_save(&vk, tmp_path, msg, sizeof(msg)));
    expect_ok(bellman_vk_load(&back, tmp_path, FORMATS_CHECK_SUBGROUP, msg, sizeof(msg)));
    assert_vk_equal(&vk, &back);
    groth16_vk_free(&back);
    /* The six single points may be infinity (bellman reads them so). */
    g1_affine_set_infinity(&vk.beta_g1);
    g2_affine_set_infinity(&vk.gamma_g2);
    expect_ok(bellman_vk_save(&vk, tmp_path, msg, sizeof(msg)));
    expect_ok(bellman_vk_load(&back, tmp_path, FORMATS_CHECK_SUBGROUP, msg, sizeof(msg)));
    assert_vk_equal(&vk, &back);
    groth16_vk_free(&back);
    /* A parameters file is not a verifying-key file: trailing bytes. */
    groth16_params_t p;
    random_params(&p, 1, 1, 1, 1);
    expect_ok(bellman_params_save(&p, tmp_path, msg, sizeof(msg)));
    assert_int_equal(bellman_vk_load(&back, tmp_path, FORMATS_CHECK_CURVE, msg, sizeof(msg)),
                     CUZK_ERR_CORRUPT);
    assert_null(back.ic);
    groth16_params_free(&p);
    groth16_vk_free(&vk);
    remove(tmp_path);
}

static void test_proofs(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("bellman_proofs"));
    groth16_proof_t pr[3], back[4];
    for (int i = 0; i < 3; i++) {
        random_g1(&pr[i].a);
        random_g2(&pr[i].b);
        random_g1(&pr[i].c);
    }
    uint8_t buf[3 * GROTH16_PROOF_BYTES];
    expect_ok(bellman_proofs_encode(buf, pr, 3));
    uint8_t enc[96];
    g2_affine_to_compressed(enc, &pr[1].b);
    assert_memory_equal(buf + GROTH16_PROOF_BYTES + 48, enc, 96);
    size_t n;
    expect_ok(bellman_proofs_decode(back, 4, &n, buf, sizeof(buf), msg, sizeof(msg)));
    assert_int_equal(n, 3);
    for (int i = 0; i < 3; i++)
        assert_true(g1_affine_eq(&pr[i].a, &back[i].a) && g2_affine_eq(&pr[i].b, &back[i].b) &&
                    g1_affine_eq(&pr[i].c, &back[i].c));
    assert_int_equal(bellman_proofs_decode(back, 2, &n, buf, sizeof(buf), msg, sizeof(msg)),
                     CUZK_ERR_INVALID_ARGUMENT);
    assert_int_equal(bellman_proofs_decode(back, 4, &n, buf, sizeof(buf) - 1, msg, sizeof(msg)),
                     CUZK_ERR_CORRUPT);
    assert_int_equal(bellman_proofs_decode(back, 4, &n, buf, 100, msg, sizeof(msg)),
                     CUZK_ERR_TRUNCATED);
    /* Damage in the second proof is reported there. */
    buf[GROTH16_PROOF_BYTES + 150] ^= 0x40;
    cuzk_status st = bellman_proofs_decode(back, 4, &n, buf, sizeof(buf), msg, sizeof(msg));
    assert_int_not_equal(st, CUZK_OK);
    assert_non_null(strstr(msg, "proof 1 of 3"));
    /* Infinity is neither written nor read. */
    g1_affine_set_infinity(&pr[0].c);
    assert_int_equal(bellman_proof_encode(buf, &pr[0]), CUZK_ERR_INVALID_ARGUMENT);
    g1_affine_to_compressed(buf + 144, &pr[0].c);
    assert_int_equal(bellman_proof_decode(back, buf, msg, sizeof(msg)), CUZK_ERR_CORRUPT);
    assert_non_null(strstr(msg, "C"));
}

/* Damaged files: every truncation, flipped bytes, crafted counts. */
static void test_corrupt(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("bellman_corrupt"));
    groth16_params_t p, q;
    random_params(&p, 4, 3, 3, 2);
    make_tmp();
    expect_ok(bellman_params_save(&p, tmp_path, msg, sizeof(msg)));
    size_t len;
    uint8_t *file = test_read_file(tmp_path, &len);
    uint8_t *copy = malloc(len);
    bellman_params_map_t m;
    for (size_t cut = 0; cut < len; cut++) {
        memcpy(copy, file, cut); /* an exact-size buffer: the sanitizer sees overreads */
        uint8_t *t = malloc(cut ? cut : 1);
        memcpy(t, copy, cut);
        cuzk_status st =
            bellman_params_open_buffer(&m, t, cut, "cut", FORMATS_CHECK_NONE, msg, sizeof(msg));
        if (st == CUZK_OK)
            fail_msg("truncated at %zu accepted", cut);
        assert_true(st == CUZK_ERR_TRUNCATED || st == CUZK_ERR_CORRUPT);
        groth16_vk_t vk;
        if (cut < bellman_vk_size(&p.vk)) {
            st = bellman_vk_decode(&vk, NULL, t, cut, "cut", FORMATS_CHECK_NONE, msg, sizeof(msg));
            assert_int_equal(st, CUZK_ERR_TRUNCATED);
        }
        free(t);
    }
    /* Any flipped byte is caught with full checks. */
    int iters = test_iters(300);
    for (int it = 0; it < iters; it++) {
        memcpy(copy, file, len);
        size_t pos = rng_u64(&rng) % len;
        copy[pos] ^= (uint8_t)(1 + rng_u64(&rng) % 255);
        cuzk_status st = bellman_params_open_buffer(&m, copy, len, "flip", FORMATS_CHECK_SUBGROUP,
                                                    msg, sizeof(msg));
        if (st == CUZK_OK) {
            st = bellman_params_decode_all(&q, &m, FORMATS_CHECK_SUBGROUP, 2, msg, sizeof(msg));
            bellman_params_close(&m);
            if (st == CUZK_OK)
                groth16_params_free(&q);
        }
        if (st == CUZK_OK)
            fail_msg("byte %zu flipped, accepted", pos);
        /* Weaker checks must not crash either. */
        if (bellman_params_open_buffer(&m, copy, len, "flip", FORMATS_CHECK_NONE, msg,
                                       sizeof(msg)) == CUZK_OK) {
            if (bellman_params_decode_all(&q, &m, FORMATS_CHECK_NONE, 1, msg, sizeof(msg)) ==
                CUZK_OK)
                groth16_params_free(&q);
            bellman_params_close(&m);
        }
    }
    /* Crafted counts: huge IC and query counts. */
    size_t ic_off = VK_FIXED, h_off = VK_FIXED + 4 + 3 * 96;
    uint32_t huge[3] = {0xffffffffu, 0x80000000u, 5};
    for (int k = 0; k < 3; k++) {
        memcpy(copy, file, len);
        uint8_t be[4] = {(uint8_t)(huge[k] >> 24), (uint8_t)(huge[k] >> 16),
                         (uint8_t)(huge[k] >> 8), (uint8_t)huge[k]};
        memcpy(copy + ic_off, be, 4);
        assert_int_not_equal(
            bellman_params_open_buffer(&m, copy, len, "ic", FORMATS_CHECK_NONE, msg, sizeof(msg)),
            CUZK_OK);
        memcpy(copy, file, len);
        memcpy(copy + h_off, be, 4);
        assert_int_not_equal(
            bellman_params_open_buffer(&m, copy, len, "h", FORMATS_CHECK_NONE, msg, sizeof(msg)),
            CUZK_OK);
    }
    /* Infinity in a query, as bellman refuses it. */
    memcpy(copy, file, len);
    memset(copy + h_off + 4 + 96, 0, 96);
    copy[h_off + 4 + 96] = 0x40;
    expect_ok(
        bellman_params_open_buffer(&m, copy, len, "inf", FORMATS_CHECK_SUBGROUP, msg, sizeof(msg)));
    assert_int_equal(bellman_params_decode_all(&q, &m, FORMATS_CHECK_NONE, 1, msg, sizeof(msg)),
                     CUZK_ERR_CORRUPT);
    assert_non_null(strstr(msg, "h point 1"));
    assert_null(q.h);
    bellman_params_close(&m);
    /* Trailing bytes. */
    uint8_t *longer = malloc(len + 1);
    memcpy(longer, file, len);
    longer[len] = 0;
    assert_int_equal(bellman_params_open_buffer(&m, longer, len + 1, "long", FORMATS_CHECK_NONE,
                                                msg, sizeof(msg)),
                     CUZK_ERR_CORRUPT);
    free(longer);
    free(copy);
    free(file);
    groth16_params_free(&p);
    remove(tmp_path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip), cmocka_unit_test(test_parallel_decode),
        cmocka_unit_test(test_vk_file),    cmocka_unit_test(test_proofs),
        cmocka_unit_test(test_corrupt),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
