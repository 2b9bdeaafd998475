/* Development snarkjs keys (groth16/zkey_setup.h, formats/zkey_write.h)
 * for the circom fixtures, over BLS12-381 and BN254 (the fixtures compiled
 * for bn128): the written key reads back with zkey_open
 * (every point checked for the subgroup), its counts, coefficient section
 * and points at infinity are those of the key snarkjs made for the same
 * .r1cs, and a proof made with it verifies with groth16_verify while a
 * wrong public input or a wrong witness does not (groth16_verify,
 * bn254_groth16_verify). The keys are a function of the random source
 * alone (not of the thread count). The setup hands
 * its parts to the sink in order and stops at the sink's first failure.
 * Bad inputs and misuse of the writer fail with a message and leave no
 * file behind. */
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

#include "field/scalar_slots.h"
#include "formats/circom_r1cs.h"
#include "formats/circom_wtns.h"
#include "formats/zkey_write.h"
#include "groth16/verifier.h"
#include "circuits/zkey.h"
#include "groth16/zkey_setup.h"
#include "seed.h"

#define FIX CUZK_VECTOR_DIR "/../fixtures/circom/"

static char msg[512];
static char dir[64];
static char path[128];

static void expect_ok(cuzk_status st)
{
    if (st != CUZK_OK)
        fail_msg("status %s: %s", cuzk_status_str(st), msg);
}

static int make_dir(void **state)
{
    (void)state;
    strcpy(dir, "/tmp/cuzk_zkey_setup_XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    snprintf(path, sizeof(path), "%s/k.zkey", dir);
    return 0;
}

static int remove_dir(void **state)
{
    (void)state;
    char tmp[160];
    snprintf(tmp, sizeof(tmp), "%s.tmp", path);
    remove(path);
    remove(tmp);
    return rmdir(dir);
}

static bool exists(const char *p)
{
    return access(p, F_OK) == 0;
}

/* Neither the key nor its temporary file is there. */
static void expect_no_file(void)
{
    char tmp[160];
    snprintf(tmp, sizeof(tmp), "%s.tmp", path);
    assert_false(exists(path));
    assert_false(exists(tmp));
}

/* The .r1cs mapped and parsed. */
static void load_r1cs(mapped_file_t *f, r1cs_t *r, circom_r1cs_header *h, const char *p)
{
    expect_ok(mapped_file_open(f, p, msg, sizeof(msg)));
    expect_ok(circom_r1cs_parse(r, h, NULL, f, 2, msg, sizeof(msg)));
}

static void unload_r1cs(mapped_file_t *f, r1cs_t *r)
{
    r1cs_free(r);
    mapped_file_close(f);
}

static uint8_t *read_all(const char *p, size_t *len)
{
    FILE *f = fopen(p, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    *len = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc(*len + 1);
    assert_non_null(b);
    assert_int_equal(fread(b, 1, *len, f), *len);
    fclose(f);
    return b;
}

static void infinity_pattern(bool *out, const zkey_t *z, zkey_points which)
{
    uint64_t n = z->num_points[which];
    if (z->curve == CURVE_BN254) {
        bool g2 = which == ZKEY_POINTS_B2;
        size_t size = g2 ? sizeof(bn254_g2_affine_t) : sizeof(bn254_g1_affine_t);
        uint8_t *p = malloc((n + 1) * size);
        assert_non_null(p);
        if (g2)
            expect_ok(bn254_zkey_decode_g2((bn254_g2_affine_t *)p, z, 0, n, FORMATS_CHECK_NONE, 1,
                                           msg, sizeof(msg)));
        else
            expect_ok(bn254_zkey_decode_g1((bn254_g1_affine_t *)p, z, which, 0, n,
                                           FORMATS_CHECK_NONE, 1, msg, sizeof(msg)));
        for (uint64_t i = 0; i < n; i++)
            out[i] =
                g2 ? ((bn254_g2_affine_t *)p)[i].infinity : ((bn254_g1_affine_t *)p)[i].infinity;
        free(p);
    } else if (which == ZKEY_POINTS_B2) {
        g2_affine_t *p = malloc((n + 1) * sizeof(*p));
        assert_non_null(p);
        expect_ok(zkey_decode_g2(p, z, 0, n, FORMATS_CHECK_NONE, 1, msg, sizeof(msg)));
        for (uint64_t i = 0; i < n; i++)
            out[i] = p[i].infinity;
        free(p);
    } else {
        g1_affine_t *p = malloc((n + 1) * sizeof(*p));
        assert_non_null(p);
        expect_ok(zkey_decode_g1(p, z, which, 0, n, FORMATS_CHECK_NONE, 1, msg, sizeof(msg)));
        for (uint64_t i = 0; i < n; i++)
            out[i] = p[i].infinity;
        free(p);
    }
}

/* Proves w with the key and verifies against its own verifying key. */
static cuzk_status prove_verify(const zkey_t *z, const fr_t *w, const fr_t *pub, rng_t *rng)
{
    zkey_circuit_t c;
    expect_ok(zkey_circuit_init(&c, z, FORMATS_CHECK_CURVE, 2, msg, sizeof(msg)));
    void *scratch = malloc(zkey_circuit_scratch_bytes(&c));
    assert_non_null(scratch);
    groth16_proof_t proof;
    expect_ok(zkey_circuit_prove(&proof, &c, w, rng, scratch, 2));
    groth16_pvk_t pvk;
    expect_ok(groth16_prepare_vk(&pvk, &z->vk));
    cuzk_status st = groth16_verify(&pvk, &proof, pub, z->num_public);
    groth16_pvk_free(&pvk);
    free(scratch);
    zkey_circuit_free(&c);
    return st;
}

/* The same over BN254 (w and pub: BN254's elements). */
static cuzk_status bn254_prove_verify(const zkey_t *z, const bn254_fr_t *w, const bn254_fr_t *pub,
                                      rng_t *rng)
{
    bn254_zkey_circuit_t c;
    expect_ok(bn254_zkey_circuit_init(&c, z, FORMATS_CHECK_CURVE, 2, msg, sizeof(msg)));
    void *scratch = malloc(bn254_zkey_circuit_scratch_bytes(&c));
    assert_non_null(scratch);
    bn254_groth16_proof_t proof;
    expect_ok(bn254_zkey_circuit_prove(&proof, &c, w, rng, scratch, 2));
    cuzk_status st = bn254_groth16_verify(&z->bn254_vk, &proof, pub, z->num_public);
    free(scratch);
    bn254_zkey_circuit_free(&c);
    return st;
}

/* The shape, coefficients and points at infinity of a fresh key against
 * snarkjs's key for the same .r1cs (either curve). */
static void compare_with_snarkjs(const zkey_t *mine, const zkey_t *theirs,
                                 const circom_r1cs_header *h)
{
    assert_int_equal(mine->curve, theirs->curve);
    assert_int_equal(mine->n8q, theirs->n8q);
    assert_int_equal(mine->num_vars, theirs->num_vars);
    assert_int_equal(mine->num_public, theirs->num_public);
    assert_int_equal(mine->domain_size, theirs->domain_size);
    assert_int_equal(mine->domain_size, groth16_zkey_domain_size_over(h->curve, h->num_constraints,
                                                                      circom_r1cs_num_public(h)));
    assert_int_equal(mine->num_coeffs, theirs->num_coeffs);
    assert_memory_equal(mine->coeffs, theirs->coeffs, (size_t)mine->num_coeffs * ZKEY_COEFF_BYTES);
    /* Points at infinity in the same places (signals absent from A or B);
     * C and H have none. */
    for (int k = 0; k < ZKEY_POINTS_COUNT; k++) {
        uint64_t n = mine->num_points[k];
        assert_int_equal(n, theirs->num_points[k]);
        bool *a = calloc(n + 1, 1), *b = calloc(n + 1, 1);
        assert_true(a && b);
        infinity_pattern(a, mine, (zkey_points)k);
        infinity_pattern(b, theirs, (zkey_points)k);
        assert_memory_equal(a, b, n);
        if (k == ZKEY_POINTS_C || k == ZKEY_POINTS_H)
            for (uint64_t i = 0; i < n; i++)
                assert_false(a[i]);
        free(a);
        free(b);
    }
}

static void check_fixture(const char *name, rng_t *rng)
{
    char r1cs_path[256], wtns_path[256], zkey_path[256];
    snprintf(r1cs_path, sizeof(r1cs_path), FIX "%s_bls12381.r1cs", name);
    snprintf(wtns_path, sizeof(wtns_path), FIX "%s_bls12381.wtns", name);
    snprintf(zkey_path, sizeof(zkey_path), FIX "%s_bls12381.zkey", name);
    mapped_file_t f;
    r1cs_t r;
    circom_r1cs_header h;
    load_r1cs(&f, &r, &h, r1cs_path);
    groth16_setup_opts opts = {.threads = 2};
    expect_ok(zkey_write_dev(path, &f, &r, rng, &opts, msg, sizeof(msg)));

    zkey_t mine, theirs;
    expect_ok(zkey_open(&mine, path, FORMATS_CHECK_SUBGROUP, msg, sizeof(msg)));
    expect_ok(zkey_open(&theirs, zkey_path, FORMATS_CHECK_CURVE, msg, sizeof(msg)));
    /* The shape and the coefficient section are snarkjs's, byte for byte. */
    compare_with_snarkjs(&mine, &theirs, &h);
    assert_int_equal(mine.vk.num_ic, theirs.vk.num_ic);
    /* A fresh key: its δ is not snarkjs's. */
    assert_false(g2_affine_eq(&mine.vk.delta_g2, &theirs.vk.delta_g2));

    fr_t *w;
    uint64_t nw;
    expect_ok(circom_wtns_load(&w, &nw, wtns_path, msg, sizeof(msg)));
    assert_int_equal(nw, mine.num_vars);
    fr_t *pub = malloc((mine.num_public + 1) * sizeof(fr_t));
    assert_non_null(pub);
    memcpy(pub, w + 1, mine.num_public * sizeof(fr_t));
    expect_ok(prove_verify(&mine, w, pub, rng));
    /* Another public input: refused. */
    fr_add(&pub[0], &pub[0], &FR_ONE);
    assert_int_equal(prove_verify(&mine, w, pub, rng), CUZK_ERR_VERIFY_FAILED);
    fr_sub(&pub[0], &pub[0], &FR_ONE);
    /* A witness that breaks a constraint (its last, internal signal): the
     * proof made from it does not verify. */
    fr_add(&w[nw - 1], &w[nw - 1], &FR_ONE);
    assert_int_equal(prove_verify(&mine, w, pub, rng), CUZK_ERR_VERIFY_FAILED);
    free(pub);
    free(w);
    zkey_close(&mine);
    zkey_close(&theirs);
    unload_r1cs(&f, &r);
}

static void test_fixtures(void **state)
{
    (void)state;
    rng_t rng;
    rng_seed(&rng, test_seed("zkey_setup_fixtures"));
    check_fixture("chain", &rng);
    check_fixture("manypub", &rng);
    check_fixture("poseidon", &rng);
}

/* check_fixture over BN254: the fixtures compiled for bn128 and snarkjs's
 * keys for them. */
static void check_bn254_fixture(const char *name, rng_t *rng)
{
    char r1cs_path[256], wtns_path[256], zkey_path[256];
    snprintf(r1cs_path, sizeof(r1cs_path), FIX "%s_bn128.r1cs", name);
    snprintf(wtns_path, sizeof(wtns_path), FIX "%s_bn128.wtns", name);
    snprintf(zkey_path, sizeof(zkey_path), FIX "%s_bn128.zkey", name);
    mapped_file_t f;
    r1cs_t r;
    circom_r1cs_header h;
    load_r1cs(&f, &r, &h, r1cs_path);
    assert_int_equal(r.curve, CURVE_BN254);
    groth16_setup_opts opts = {.threads = 2};
    expect_ok(zkey_write_dev(path, &f, &r, rng, &opts, msg, sizeof(msg)));

    zkey_t mine, theirs;
    expect_ok(zkey_open(&mine, path, FORMATS_CHECK_SUBGROUP, msg, sizeof(msg)));
    expect_ok(zkey_open(&theirs, zkey_path, FORMATS_CHECK_CURVE, msg, sizeof(msg)));
    assert_int_equal(mine.curve, CURVE_BN254);
    assert_int_equal(mine.n8q, 32);
    compare_with_snarkjs(&mine, &theirs, &h);
    assert_int_equal(mine.bn254_vk.num_ic, theirs.bn254_vk.num_ic);
    assert_false(bn254_g2_affine_eq(&mine.bn254_vk.delta_g2, &theirs.bn254_vk.delta_g2));

    circom_wtns_t wt;
    expect_ok(circom_wtns_open(&wt, wtns_path, msg, sizeof(msg)));
    uint64_t nw = wt.num_values;
    assert_int_equal(nw, mine.num_vars);
    bn254_fr_t *w = malloc(sizeof(bn254_fr_t) * nw);
    bn254_fr_t *pub = malloc(sizeof(bn254_fr_t) * (mine.num_public + 1));
    assert_true(w && pub);
    expect_ok(circom_wtns_decode(bn254_fr_as_slots(w), &wt, 0, nw, msg, sizeof(msg)));
    circom_wtns_close(&wt);
    memcpy(pub, w + 1, mine.num_public * sizeof(bn254_fr_t));
    expect_ok(bn254_prove_verify(&mine, w, pub, rng));
    /* Another public input: refused. */
    bn254_fr_add(&pub[0], &pub[0], &BN254_FR_ONE);
    assert_int_equal(bn254_prove_verify(&mine, w, pub, rng), CUZK_ERR_VERIFY_FAILED);
    bn254_fr_sub(&pub[0], &pub[0], &BN254_FR_ONE);
    /* A witness that breaks a constraint: its proof does not verify. */
    bn254_fr_add(&w[nw - 1], &w[nw - 1], &BN254_FR_ONE);
    assert_int_equal(bn254_prove_verify(&mine, w, pub, rng), CUZK_ERR_VERIFY_FAILED);
    free(pub);
    free(w);
    zkey_close(&mine);
    zkey_close(&theirs);
    unload_r1cs(&f, &r);
}

static void test_bn254_fixtures(void **state)
{
    (void)state;
    rng_t rng;
    rng_seed(&rng, test_seed("zkey_setup_bn254_fixtures"));
    check_bn254_fixture("chain", &rng);
    check_bn254_fixture("manypub", &rng);
    check_bn254_fixture("poseidon", &rng);
}

/* The same random source gives the same key on 1 and 3 threads; another
 * one another key. */
static void check_deterministic(const char *r1cs_path)
{
    uint64_t seed = test_seed("zkey_setup_deterministic");
    mapped_file_t f;
    r1cs_t r;
    circom_r1cs_header h;
    load_r1cs(&f, &r, &h, r1cs_path);
    uint8_t *k[3];
    size_t len[3];
    const unsigned threads[3] = {1, 3, 1};
    for (int i = 0; i < 3; i++) {
        rng_t rng;
        rng_seed(&rng, i < 2 ? seed : seed + 1);
        groth16_setup_opts opts = {.threads = threads[i]};
        expect_ok(zkey_write_dev(path, &f, &r, &rng, &opts, msg, sizeof(msg)));
        k[i] = read_all(path, &len[i]);
    }
    assert_int_equal(len[0], len[1]);
    assert_memory_equal(k[0], k[1], len[0]);
    assert_int_equal(len[0], len[2]);
    assert_memory_not_equal(k[0], k[2], len[0]);
    for (int i = 0; i < 3; i++)
        free(k[i]);
    unload_r1cs(&f, &r);
    remove(path);
}

static void test_deterministic(void **state)
{
    (void)state;
    check_deterministic(FIX "chain_bls12381.r1cs");
    check_deterministic(FIX "chain_bn128.r1cs");
}

/* A sink that records the calls: begin once, then the parts in order,
 * each complete; it can fail at a given call. */
typedef struct recorder {
    int begins;
    int last_part;
    uint64_t got[GROTH16_ZKEY_PART_COUNT];
    groth16_zkey_shape shape;
    int calls, fail_at;
} recorder;

static cuzk_status rec_begin(void *ctx, const groth16_zkey_shape *shape, const groth16_vk_t *vk)
{
    recorder *r = ctx;
    assert_int_equal(r->begins, 0);
    assert_int_equal(vk->num_ic, shape->num_public + 1);
    r->begins++;
    r->shape = *shape;
    return r->calls++ == r->fail_at ? CUZK_ERR_IO : CUZK_OK;
}

static cuzk_status rec_points(void *ctx, groth16_zkey_part part, const void *points, size_t count)
{
    recorder *r = ctx;
    assert_int_equal(r->begins, 1);
    assert_true((int)part >= r->last_part);
    assert_non_null(points);
    assert_true(count > 0);
    r->last_part = (int)part;
    r->got[part] += count;
    return r->calls++ == r->fail_at ? CUZK_ERR_IO : CUZK_OK;
}

static void test_sink(void **state)
{
    (void)state;
    rng_t rng;
    rng_seed(&rng, test_seed("zkey_setup_sink"));
    mapped_file_t f;
    r1cs_t r;
    circom_r1cs_header h;
    load_r1cs(&f, &r, &h, FIX "manypub_bls12381.r1cs");
    recorder rec = {.fail_at = -1};
    groth16_zkey_sink sink = {.begin = rec_begin, .points = rec_points, .ctx = &rec};
    expect_ok(groth16_zkey_setup_dev(&r, &rng, NULL, &sink));
    assert_int_equal(rec.shape.num_vars, 74);
    assert_int_equal(rec.shape.num_public, 56);
    assert_int_equal(rec.shape.domain_size, 128);
    const uint64_t want[GROTH16_ZKEY_PART_COUNT] = {74, 74, 74, 74 - 56 - 1, 128};
    assert_memory_equal(rec.got, want, sizeof(want));
    assert_int_equal(rec.calls, 6);
    /* The sink's failure stops the setup, at begin or at a part. */
    for (int at = 0; at < 3; at++) {
        rec = (recorder){.fail_at = at};
        assert_int_equal(groth16_zkey_setup_dev(&r, &rng, NULL, &sink), CUZK_ERR_IO);
        assert_int_equal(rec.calls, at + 1);
    }
    /* No inputs (not even ONE): refused before any call. */
    r1cs_t none = r;
    none.num_aux += none.num_inputs;
    none.num_inputs = 0;
    rec = (recorder){.fail_at = -1};
    assert_int_equal(groth16_zkey_setup_dev(&none, &rng, NULL, &sink), CUZK_ERR_INVALID_ARGUMENT);
    assert_int_equal(rec.calls, 0);
    unload_r1cs(&f, &r);
}

static void test_domain_size(void **state)
{
    (void)state;
    /* 2^(floor(log2(nConstraints + nPublic)) + 1), at least 2 */
    assert_int_equal(groth16_zkey_domain_size(0, 0), 2);
    assert_int_equal(groth16_zkey_domain_size(1, 0), 2);
    assert_int_equal(groth16_zkey_domain_size(2, 0), 4);
    assert_int_equal(groth16_zkey_domain_size(3, 0), 4);
    assert_int_equal(groth16_zkey_domain_size(3, 1), 8);
    assert_int_equal(groth16_zkey_domain_size(36, 4), 64);
    assert_int_equal(groth16_zkey_domain_size(32, 56), 128);
    assert_int_equal(groth16_zkey_domain_size(1u << 20, 0), 1u << 21);
    assert_int_equal(groth16_zkey_domain_size((1u << 20) - 1, 0), 1u << 20);
    assert_int_equal(groth16_zkey_domain_size((1ull << 31) - 1, 0), 1ull << 31);
    assert_int_equal(groth16_zkey_domain_size(1ull << 31, 0), 0);
    assert_int_equal(groth16_zkey_domain_size(UINT32_MAX, 5), 0);
    /* BN254's two-adicity is 28: H's 2n-th roots stop the domain at 2^27. */
    assert_int_equal(groth16_zkey_max_log_domain(CURVE_BLS12_381), 31);
    assert_int_equal(groth16_zkey_max_log_domain(CURVE_BN254), 27);
    assert_int_equal(groth16_zkey_domain_size_over(CURVE_BN254, 36, 4), 64);
    assert_int_equal(groth16_zkey_domain_size_over(CURVE_BN254, (1ull << 27) - 1, 0), 1ull << 27);
    assert_int_equal(groth16_zkey_domain_size_over(CURVE_BN254, 1ull << 27, 0), 0);
    assert_int_equal(groth16_zkey_domain_size_over(CURVE_BLS12_381, 1ull << 27, 0), 1ull << 28);
}

/* Truncated .r1cs files are refused before any setup. */
static void test_corrupt_r1cs(void **state)
{
    (void)state;
    size_t len;
    uint8_t *b = read_all(FIX "chain_bls12381.r1cs", &len);
    mapped_file_t f;
    r1cs_t r;
    for (size_t cut = 0; cut < len; cut += len / 7 + 1) {
        mapped_file_from_buffer(&f, b, cut, "short.r1cs");
        msg[0] = 0;
        assert_int_not_equal(circom_r1cs_parse(&r, NULL, NULL, &f, 1, msg, sizeof(msg)), CUZK_OK);
        assert_non_null(strstr(msg, "short.r1cs"));
        assert_null(r.a.row_ptr);
    }
    free(b);
}

/* Bad arguments and misuse of the writer: an error with a message, and no
 * file at the path or its temporary name. */
static void test_bad_use(void **state)
{
    (void)state;
    rng_t rng;
    rng_seed(&rng, test_seed("zkey_setup_bad_use"));
    mapped_file_t f, g;
    r1cs_t r, other;
    circom_r1cs_header h;
    load_r1cs(&f, &r, &h, FIX "chain_bls12381.r1cs");
    load_r1cs(&g, &other, &h, FIX "manypub_bls12381.r1cs");

    /* A constraint system that is not the file's. */
    assert_int_equal(zkey_write_dev(path, &f, &other, &rng, NULL, msg, sizeof(msg)),
                     CUZK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(msg, "chain_bls12381.r1cs"));
    expect_no_file();
    /* A wtns where the .r1cs should be. */
    mapped_file_t wt;
    expect_ok(mapped_file_open(&wt, FIX "chain_bls12381.wtns", msg, sizeof(msg)));
    assert_int_equal(zkey_write_dev(path, &wt, &r, &rng, NULL, msg, sizeof(msg)),
                     CUZK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(msg, "chain_bls12381.wtns"));
    mapped_file_close(&wt);
    expect_no_file();

    /* A folder that does not exist. */
    char bad[192];
    snprintf(bad, sizeof(bad), "%s/no/such/k.zkey", dir);
    assert_int_equal(zkey_write_dev(bad, &f, &r, &rng, NULL, msg, sizeof(msg)), CUZK_ERR_IO);
    assert_non_null(strstr(msg, "no/such/k.zkey"));

    /* The writer by hand: a verifying key of the wrong IC count, points out
     * of order, too many points, a section left short. */
    groth16_vk_t vk;
    memset(&vk, 0, sizeof(vk));
    g1_affine_t pts[64];
    for (int i = 0; i < 64; i++)
        g1_affine_set_infinity(&pts[i]);
    vk.ic = pts;
    vk.num_ic = r.num_inputs + 1;
    zkey_writer w;
    assert_int_equal(zkey_writer_open(&w, path, &f, 64, &vk, msg, sizeof(msg)),
                     CUZK_ERR_INVALID_ARGUMENT);
    expect_no_file();
    vk.num_ic = r.num_inputs;
    assert_int_equal(zkey_writer_open(&w, path, &f, 32, &vk, msg, sizeof(msg)),
                     CUZK_ERR_INVALID_ARGUMENT); /* 32 is not above 36 + 4 */
    expect_no_file();

    expect_ok(zkey_writer_open(&w, path, &f, 64, &vk, msg, sizeof(msg)));
    /* B1 while A is still empty */
    assert_int_equal(zkey_writer_points(&w, ZKEY_POINTS_B1, pts, 0, msg, sizeof(msg)),
                     CUZK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(msg, "section 5 (A)"));
    assert_int_equal(zkey_writer_finish(&w, CUZK_ERR_INVALID_ARGUMENT, msg, sizeof(msg)),
                     CUZK_ERR_INVALID_ARGUMENT);
    expect_no_file();

    expect_ok(zkey_writer_open(&w, path, &f, 64, &vk, msg, sizeof(msg)));
    expect_ok(zkey_writer_points(&w, ZKEY_POINTS_A, pts, 39, msg, sizeof(msg)));
    assert_int_equal(zkey_writer_points(&w, ZKEY_POINTS_A, pts, 1, msg, sizeof(msg)),
                     CUZK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(msg, "section 5 (A)"));
    expect_ok(zkey_writer_points(&w, ZKEY_POINTS_B1, pts, 39, msg, sizeof(msg)));
    assert_int_equal(zkey_writer_points(&w, ZKEY_POINTS_A, pts, 1, msg, sizeof(msg)),
                     CUZK_ERR_INVALID_ARGUMENT);
    /* Finishing with B2, C and H missing. */
    assert_int_equal(zkey_writer_finish(&w, CUZK_OK, msg, sizeof(msg)), CUZK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(msg, "section 7 (B2)"));
    expect_no_file();

    /* Curves crossed: a BN254 system for a BLS12-381 file, a BLS12-381 key
     * for a BN254 file; a BN254 system with the caller's batches (they are
     * BLS12-381's) or a sink that takes BLS12-381 keys only. */
    mapped_file_t fb;
    r1cs_t rb;
    circom_r1cs_header hb;
    load_r1cs(&fb, &rb, &hb, FIX "chain_bn128.r1cs");
    assert_int_equal(zkey_write_dev(path, &f, &rb, &rng, NULL, msg, sizeof(msg)),
                     CUZK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(msg, "chain_bls12381.r1cs"));
    expect_no_file();
    vk.num_ic = r.num_inputs;
    assert_int_equal(zkey_writer_open(&w, path, &fb, 64, &vk, msg, sizeof(msg)),
                     CUZK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(msg, "bn128"));
    expect_no_file();
    groth16_fixed_base_ops ops = {0};
    groth16_setup_opts with_ops = {.fixed_base = &ops};
    assert_int_equal(zkey_write_dev(path, &fb, &rb, &rng, &with_ops, msg, sizeof(msg)),
                     CUZK_ERR_UNSUPPORTED);
    expect_no_file();
    recorder rec = {.fail_at = -1};
    groth16_zkey_sink bls_only = {.begin = rec_begin, .points = rec_points, .ctx = &rec};
    assert_int_equal(groth16_zkey_setup_dev(&rb, &rng, NULL, &bls_only), CUZK_ERR_UNSUPPORTED);
    assert_int_equal(rec.calls, 0);
    unload_r1cs(&fb, &rb);
    unload_r1cs(&f, &r);
    unload_r1cs(&g, &other);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_domain_size),   cmocka_unit_test(test_sink),
        cmocka_unit_test(test_fixtures),      cmocka_unit_test(test_bn254_fixtures),
        cmocka_unit_test(test_deterministic), cmocka_unit_test(test_corrupt_r1cs),
        cmocka_unit_test(test_bad_use),
    };
    return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
