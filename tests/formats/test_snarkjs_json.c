/* snarkjs JSON files: the fixtures' proof, public signals and verification
 * key read, checked against the zkey and against a pairing verification,
 * and written back to semantically equal JSON; decimal conversions;
 * malformed inputs. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "read_file.h"
#include "formats/decimal.h"
#include "formats/snarkjs_json.h"
#include "formats/zkey.h"
#include "groth16/verifier.h"
#include "seed.h"

#define FIX CUZK_VECTOR_DIR "/../fixtures/circom/"

static char msg[512];
static rng_t rng;

static void expect_ok(cuzk_status st)
{
    if (st != CUZK_OK)
        fail_msg("status %s: %s", cuzk_status_str(st), msg);
}

static json_t *load_json(const char *path)
{
    json_error_t err;
    json_t *j = json_load_file(path, 0, &err);
    if (!j)
        fail_msg("%s: %s", path, err.text);
    return j;
}

static json_t *parse_json(const char *text)
{
    assert_non_null(text);
    json_error_t err;
    json_t *j = json_loads(text, 0, &err);
    if (!j)
        fail_msg("output is not JSON: %s", err.text);
    return j;
}

static void test_decimal(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("snarkjs_json_decimal"));
    char s[DECIMAL_MAX];
    fp_t a, b;
    fr_t x, y;
    expect_ok(decimal_to_fp(&a, "0"));
    assert_true(fp_is_zero(&a));
    decimal_from_fp(s, &a);
    assert_string_equal(s, "0");
    expect_ok(decimal_to_fr(&x, "000001"));
    assert_true(fr_is_one(&x));
    decimal_from_fr(s, &x);
    assert_string_equal(s, "1");
    const char *r = "52435875175126190479447740508185965837690552500527637822603658699938581184513";
    assert_int_equal(decimal_to_fr(&x, r), CUZK_ERR_NOT_CANONICAL);
    const char *r1 =
        "52435875175126190479447740508185965837690552500527637822603658699938581184512";
    expect_ok(decimal_to_fr(&x, r1));
    fr_neg(&y, &FR_ONE);
    assert_true(fr_eq(&x, &y));
    decimal_from_fr(s, &x);
    assert_string_equal(s, r1);
    const char *p =
        "4002409555221667393417789825735904156556882819939007885332058136124031650490837"
        "864442687629129015664037894272559787";
    assert_int_equal(decimal_to_fp(&a, p), CUZK_ERR_NOT_CANONICAL);
    const char *bad[] = {"", "-1", "+1", "1.0", "0x10", " 1", "1 ", "12a", "1e5"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        assert_int_equal(decimal_to_fp(&a, bad[i]), CUZK_ERR_INVALID_ARGUMENT);
    char big[DECIMAL_MAX + 1];
    memset(big, '9', DECIMAL_MAX);
    big[DECIMAL_MAX] = '\0';
    assert_int_equal(decimal_to_fp(&a, big), CUZK_ERR_INVALID_ARGUMENT);
    big[DECIMAL_MAX - 1] = '\0'; /* 127 nines: well-formed, too big */
    assert_int_equal(decimal_to_fp(&a, big), CUZK_ERR_INVALID_ARGUMENT);
    for (int i = 0; i < test_iters(200); i++) {
        fp_random(&a, &rng);
        decimal_from_fp(s, &a);
        expect_ok(decimal_to_fp(&b, s));
        assert_true(fp_eq(&a, &b));
        fr_random(&x, &rng);
        decimal_from_fr(s, &x);
        expect_ok(decimal_to_fr(&y, s));
        assert_true(fr_eq(&x, &y));
    }
}

/* The JSON verification key is the zkey's. */
static void test_vk_matches_zkey(void **state)
{
    (void)state;
    groth16_vk_t vk;
    zkey_t z;
    expect_ok(snarkjs_vk_load(&vk, FIX "verification_key_bls12381.json", FORMATS_CHECK_SUBGROUP,
                              msg, sizeof(msg)));
    expect_ok(zkey_open(&z, FIX "chain_bls12381.zkey", FORMATS_CHECK_SUBGROUP, msg, sizeof(msg)));
    assert_true(g1_affine_eq(&vk.alpha_g1, &z.vk.alpha_g1));
    assert_true(g2_affine_eq(&vk.beta_g2, &z.vk.beta_g2));
    assert_true(g2_affine_eq(&vk.gamma_g2, &z.vk.gamma_g2));
    assert_true(g2_affine_eq(&vk.delta_g2, &z.vk.delta_g2));
    assert_int_equal(vk.num_ic, z.vk.num_ic);
    for (size_t i = 0; i < vk.num_ic; i++)
        assert_true(g1_affine_eq(&vk.ic[i], &z.vk.ic[i]));
    assert_true(vk.beta_g1.infinity && vk.delta_g1.infinity); /* not in the JSON */
    groth16_vk_free(&vk);
    zkey_close(&z);
}

/* snarkjs's proof verifies with the zkey's key and the public signals;
 * changing a public signal makes it fail. */
static void test_proof_verifies(void **state)
{
    (void)state;
    groth16_proof_t proof;
    zkey_t z;
    fr_t *pub;
    size_t n;
    expect_ok(snarkjs_proof_load(&proof, FIX "proof_bls12381.json", FORMATS_CHECK_SUBGROUP, msg,
                                 sizeof(msg)));
    expect_ok(snarkjs_public_load(&pub, &n, FIX "public_bls12381.json", msg, sizeof(msg)));
    expect_ok(zkey_open(&z, FIX "chain_bls12381.zkey", FORMATS_CHECK_SUBGROUP, msg, sizeof(msg)));
    groth16_pvk_t pvk;
    expect_ok(groth16_prepare_vk(&pvk, &z.vk));
    assert_int_equal(groth16_verify(&pvk, &proof, pub, n), CUZK_OK);
    fr_add(&pub[n - 1], &pub[n - 1], &FR_ONE);
    assert_int_equal(groth16_verify(&pvk, &proof, pub, n), CUZK_ERR_VERIFY_FAILED);
    groth16_pvk_free(&pvk);
    zkey_close(&z);
    free(pub);
}

static void round_trip(const char *path, char *(*write)(const char *path))
{
    json_t *orig = load_json(path);
    char *text = write(path);
    json_t *back = parse_json(text);
    if (!json_equal(orig, back))
        fail_msg("%s: written JSON differs:\n%s", path, text);
    json_decref(orig);
    json_decref(back);
    free(text);
}

static char *rewrite_proof(const char *path)
{
    groth16_proof_t p;
    expect_ok(snarkjs_proof_load(&p, path, FORMATS_CHECK_SUBGROUP, msg, sizeof(msg)));
    return snarkjs_proof_to_json(&p);
}

static char *rewrite_public(const char *path)
{
    fr_t *v;
    size_t n;
    expect_ok(snarkjs_public_load(&v, &n, path, msg, sizeof(msg)));
    char *s = snarkjs_public_to_json(v, n);
    free(v);
    return s;
}

static char *rewrite_vk(const char *path)
{
    groth16_vk_t vk;
    expect_ok(snarkjs_vk_load(&vk, path, FORMATS_CHECK_SUBGROUP, msg, sizeof(msg)));
    char *s = snarkjs_vk_to_json(&vk);
    groth16_vk_free(&vk);
    return s;
}

/* Written back, each file is equal as JSON to the original: in particular
 * vk_alphabeta_12, recomputed by the writer, is the value snarkjs stores. */
static void test_round_trip(void **state)
{
    (void)state;
    round_trip(FIX "proof_bls12381.json", rewrite_proof);
    round_trip(FIX "public_bls12381.json", rewrite_public);
    round_trip(FIX "verification_key_bls12381.json", rewrite_vk);

    /* And through files. */
    char path[] = "/tmp/cuzk_json_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    groth16_vk_t vk, back;
    expect_ok(snarkjs_vk_load(&vk, FIX "verification_key_bls12381.json", FORMATS_CHECK_CURVE, msg,
                              sizeof(msg)));
    expect_ok(snarkjs_vk_save(&vk, path, msg, sizeof(msg)));
    expect_ok(snarkjs_vk_load(&back, path, FORMATS_CHECK_CURVE, msg, sizeof(msg)));
    assert_true(g2_affine_eq(&vk.delta_g2, &back.delta_g2));
    assert_int_equal(back.num_ic, vk.num_ic);
    groth16_vk_free(&vk);
    groth16_vk_free(&back);
    groth16_proof_t p, q;
    expect_ok(
        snarkjs_proof_load(&p, FIX "proof_bls12381.json", FORMATS_CHECK_CURVE, msg, sizeof(msg)));
    expect_ok(snarkjs_proof_save(&p, path, msg, sizeof(msg)));
    expect_ok(snarkjs_proof_load(&q, path, FORMATS_CHECK_SUBGROUP, msg, sizeof(msg)));
    assert_true(g1_affine_eq(&p.a, &q.a) && g2_affine_eq(&p.b, &q.b) && g1_affine_eq(&p.c, &q.c));
    fr_t v[3], *w;
    size_t n;
    for (int i = 0; i < 3; i++)
        fr_from_u64(&v[i], (uint64_t)i * 1000003);
    expect_ok(snarkjs_public_save(v, 3, path, msg, sizeof(msg)));
    expect_ok(snarkjs_public_load(&w, &n, path, msg, sizeof(msg)));
    assert_int_equal(n, 3);
    assert_memory_equal(w, v, sizeof(v));
    free(w);
    close(fd);
    remove(path);
}

/* Jacobian coordinates (z other than 1), infinity and the two-element form. */
static void test_point_forms(void **state)
{
    (void)state;
    groth16_proof_t p, q;
    expect_ok(snarkjs_proof_load(&p, FIX "proof_bls12381.json", FORMATS_CHECK_SUBGROUP, msg,
                                 sizeof(msg)));
    /* pi_a with z = 2: (x·4, y·8, 2). */
    fp_t z, z2, z3, X, Y;
    fp_from_u64(&z, 2);
    fp_sqr(&z2, &z);
    fp_mul(&z3, &z2, &z);
    fp_mul(&X, &p.a.x, &z2);
    fp_mul(&Y, &p.a.y, &z3);
    char sx[DECIMAL_MAX], sy[DECIMAL_MAX];
    decimal_from_fp(sx, &X);
    decimal_from_fp(sy, &Y);
    char *orig = snarkjs_proof_to_json(&p);
    json_t *j = parse_json(orig);
    free(orig);
    json_object_set_new(j, "pi_a", json_pack("[sss]", sx, sy, "2"));
    json_object_del(j, "curve"); /* rapidsnark leaves it out */
    char *s = json_dumps(j, 0);
    expect_ok(
        snarkjs_proof_from_json(&q, s, strlen(s), "jac", FORMATS_CHECK_SUBGROUP, msg, sizeof(msg)));
    assert_true(g1_affine_eq(&p.a, &q.a));
    free(s);
    /* Two-element (affine) pi_c, and infinity as snarkjs writes it. */
    decimal_from_fp(sx, &p.c.x);
    decimal_from_fp(sy, &p.c.y);
    json_object_set_new(j, "pi_c", json_pack("[ss]", sx, sy));
    json_object_set_new(j, "pi_a", json_pack("[sss]", "0", "1", "0"));
    s = json_dumps(j, 0);
    expect_ok(snarkjs_proof_from_json(&q, s, strlen(s), "forms", FORMATS_CHECK_SUBGROUP, msg,
                                      sizeof(msg)));
    assert_true(q.a.infinity);
    assert_true(g1_affine_eq(&p.c, &q.c));
    free(s);
    json_decref(j);
    q.b.infinity = true;
    s = snarkjs_proof_to_json(&q);
    j = parse_json(s);
    json_t *want = json_pack("[[ss][ss][ss]]", "0", "0", "1", "0", "0", "0");
    assert_true(json_equal(json_object_get(j, "pi_b"), want));
    want = (json_decref(want), json_pack("[sss]", "0", "1", "0"));
    assert_true(json_equal(json_object_get(j, "pi_a"), want));
    json_decref(want);
    json_decref(j);
    free(s);
}

static void expect_proof_error(const char *text, cuzk_status want)
{
    groth16_proof_t p;
    cuzk_status st = snarkjs_proof_from_json(&p, text, strlen(text), "bad", FORMATS_CHECK_SUBGROUP,
                                             msg, sizeof(msg));
    if (st != want)
        fail_msg("%s: got %s (%s), want %s", text, cuzk_status_str(st), msg, cuzk_status_str(want));
}

static void test_malformed(void **state)
{
    (void)state;
    const char *g2 = "[[\"1\",\"0\"],[\"1\",\"0\"],[\"1\",\"0\"]]";
    char t[1024];
    expect_proof_error("", CUZK_ERR_CORRUPT);
    expect_proof_error("{", CUZK_ERR_CORRUPT);
    expect_proof_error("[]", CUZK_ERR_CORRUPT);
    expect_proof_error("{\"pi_a\":[\"1\",\"2\",\"1\"]}", CUZK_ERR_CORRUPT);
    snprintf(t, sizeof(t), "{\"pi_a\":[\"1\",\"2\",\"1\"],\"pi_b\":%s,\"pi_c\":[\"1\"]}", g2);
    expect_proof_error(t, CUZK_ERR_NOT_ON_CURVE); /* pi_a checked first */
    snprintf(t, sizeof(t), "{\"pi_a\":[\"0\",\"1\",\"0\"],\"pi_b\":%s,\"pi_c\":[\"1\"]}", g2);
    expect_proof_error(t, CUZK_ERR_NOT_ON_CURVE); /* G2 (1, 1) is off the twist */
    snprintf(t, sizeof(t), "{\"pi_a\":[\"0\",\"1\",\"0\"],\"pi_b\":%s,\"pi_c\":[\"1\"]}",
             "[[\"0\",\"0\"],[\"1\",\"0\"],[\"0\",\"0\"]]");
    expect_proof_error(t, CUZK_ERR_CORRUPT); /* pi_c has one coordinate */
    snprintf(t, sizeof(t), "{\"pi_a\":[\"x\",\"1\",\"0\"],\"pi_b\":%s,\"pi_c\":[\"1\"]}", g2);
    expect_proof_error(t, CUZK_ERR_INVALID_ARGUMENT);
    snprintf(t, sizeof(t), "{\"pi_a\":[1.5,\"1\",\"0\"],\"pi_b\":%s,\"pi_c\":[\"1\"]}", g2);
    expect_proof_error(t, CUZK_ERR_INVALID_ARGUMENT);
    expect_proof_error("{\"pi_a\":[\"400240955522166739341778982573590415655688281993900788533"
                       "2058136124031650490837864442687629129015664037894272559787\",\"1\",\"1\"],"
                       "\"pi_b\":[],\"pi_c\":[]}",
                       CUZK_ERR_NOT_CANONICAL);
    expect_proof_error("{\"protocol\":\"plonk\"}", CUZK_ERR_UNSUPPORTED);
    expect_proof_error("{\"curve\":\"BLS12-377\"}", CUZK_ERR_UNSUPPORTED);
    expect_proof_error("{\"curve\":\"alt_bn128\"}", CUZK_ERR_UNSUPPORTED);
    expect_proof_error("{\"a\":1,\"a\":2}", CUZK_ERR_CORRUPT); /* duplicate keys */

    /* A point on the curve outside the subgroup: (0, 2) has order 3. */
    snprintf(t, sizeof(t), "{\"pi_a\":[\"0\",\"2\",\"1\"],\"pi_b\":%s,\"pi_c\":[\"1\"]}", g2);
    expect_proof_error(t, CUZK_ERR_NOT_IN_SUBGROUP);
    groth16_proof_t p;
    assert_int_equal(
        snarkjs_proof_from_json(&p, t, strlen(t), "bad", FORMATS_CHECK_CURVE, msg, sizeof(msg)),
        CUZK_ERR_NOT_ON_CURVE); /* a passes, then pi_b fails */

    fr_t *v = (fr_t *)1;
    size_t n = 1;
    const char *pub_bad[] = {"{}", "[\"1\",2,\"x\"]", "[\"-1\"]", "[null]",
                             "[\"52435875175126190479447740508185965837690552500527637822603658"
                             "699938581184513\"]"};
    for (size_t i = 0; i < sizeof(pub_bad) / sizeof(pub_bad[0]); i++) {
        assert_int_not_equal(snarkjs_public_from_json(&v, &n, pub_bad[i], strlen(pub_bad[i]), "pub",
                                                      msg, sizeof(msg)),
                             CUZK_OK);
        assert_null(v);
        assert_int_equal(n, 0);
    }
    expect_ok(snarkjs_public_from_json(&v, &n, "[]", 2, "pub", msg, sizeof(msg)));
    assert_int_equal(n, 0);
    expect_ok(snarkjs_public_from_json(&v, &n, "[\"7\", 8]", 8, "pub", msg, sizeof(msg)));
    assert_int_equal(n, 2);
    free(v);

    /* Verification keys: IC count must match nPublic; curve required. */
    json_t *vk = load_json(FIX "verification_key_bls12381.json");
    groth16_vk_t k;
    json_object_set_new(vk, "nPublic", json_integer(3));
    char *s = json_dumps(vk, 0);
    assert_int_equal(
        snarkjs_vk_from_json(&k, s, strlen(s), "vk", FORMATS_CHECK_CURVE, msg, sizeof(msg)),
        CUZK_ERR_CORRUPT);
    assert_null(k.ic);
    free(s);
    json_object_set_new(vk, "nPublic", json_integer(4));
    json_object_del(vk, "curve");
    s = json_dumps(vk, 0);
    assert_int_equal(
        snarkjs_vk_from_json(&k, s, strlen(s), "vk", FORMATS_CHECK_CURVE, msg, sizeof(msg)),
        CUZK_ERR_CORRUPT);
    free(s);
    json_object_set_new(vk, "curve", json_string("bls12381"));
    json_array_set_new(json_object_get(vk, "IC"), 2, json_pack("[sss]", "1", "1", "1"));
    s = json_dumps(vk, 0);
    assert_int_equal(
        snarkjs_vk_from_json(&k, s, strlen(s), "vk", FORMATS_CHECK_CURVE, msg, sizeof(msg)),
        CUZK_ERR_NOT_ON_CURVE);
    assert_non_null(strstr(msg, "IC[2]"));
    free(s);
    json_decref(vk);
}

/* Parses text[0..len) (an exact-size copy) as the given kind of file. */
static cuzk_status parse_kind(int kind, const uint8_t *text, size_t len)
{
    char *t = malloc(len ? len : 1);
    memcpy(t, text, len);
    cuzk_status st;
    if (kind == 0) {
        groth16_proof_t p;
        st = snarkjs_proof_from_json(&p, t, len, "proof", FORMATS_CHECK_SUBGROUP, msg, sizeof(msg));
    } else if (kind == 1) {
        fr_t *v;
        size_t n;
        st = snarkjs_public_from_json(&v, &n, t, len, "public", msg, sizeof(msg));
        free(v);
    } else {
        groth16_vk_t vk;
        st = snarkjs_vk_from_json(&vk, t, len, "vk", FORMATS_CHECK_SUBGROUP, msg, sizeof(msg));
        groth16_vk_free(&vk);
    }
    free(t);
    return st;
}

/* Every truncation fails; flipped bytes fail or give other valid values,
 * never a crash. */
static void test_damaged(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("snarkjs_json_damaged"));
    const char *files[3] = {FIX "proof_bls12381.json", FIX "public_bls12381.json",
                            FIX "verification_key_bls12381.json"};
    for (int k = 0; k < 3; k++) {
        size_t len;
        uint8_t *d = test_read_file(files[k], &len);
        expect_ok(parse_kind(k, d, len));
        for (size_t cut = 0; cut < len; cut++)
            if (parse_kind(k, d, cut) == CUZK_OK)
                fail_msg("%s cut at %zu accepted", files[k], cut);
        unsigned ok = 0;
        int iters = test_iters(200);
        for (int it = 0; it < iters; it++) {
            uint8_t *c = malloc(len);
            memcpy(c, d, len);
            c[rng_u64(&rng) % len] ^= (uint8_t)(1 + rng_u64(&rng) % 255);
            ok += parse_kind(k, c, len) == CUZK_OK;
            free(c);
        }
        printf("%s: %u of %d damaged copies still parse\n", files[k], ok, iters);
        free(d);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decimal),        cmocka_unit_test(test_vk_matches_zkey),
        cmocka_unit_test(test_proof_verifies), cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_point_forms),    cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_damaged),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
