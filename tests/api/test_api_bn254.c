/* The public C API (include/cuzk/cuzk.h) with a BN254 circuit (the circom
 * chain fixture keyed over BN254) next to the same circuit over
 * BLS12-381, in one engine on the CPU backend:
 * - cuzk_circuit_curve says each circuit's curve and proof size;
 * - a BN254 job of two partitions, one from the .wtns path and one from
 *   the assignment array, with one fixed r and s, gives two equal
 *   256-byte proofs; a buffer sized for BLS12-381's proofs is refused
 *   saying the size needed; the proofs verify against the circuit, and a
 *   changed public input is refused naming the partition;
 * - the public inputs come back as the witness's values; the snarkjs JSON
 *   says "bn128", holds the proof's points, and its public.json is
 *   snarkjs's own for the witness, and cuzk_verify_snarkjs accepts it with
 *   the fixture's verification key (a changed public value is refused);
 *   cuzk_verify_snarkjs_files accepts snarkjs's own BN254 proof and
 *   refuses a BLS12-381 proof with the BN254 key, naming it;
 * - bad input names itself: a BLS12-381 witness for the BN254 circuit, a
 *   value below BLS12-381's r but not BN254's, proofs of BLS12-381's size;
 * - the BLS12-381 circuit proves in the same engine meanwhile. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/cuzk.h"
#include "formats/bn254_proof.h"
#include "formats/bn254_snarkjs_json.h"
#include "formats/circom_wtns.h"
#include "read_file.h"

#define FIX CUZK_VECTOR_DIR "/../fixtures/circom/"
#define BN_ZKEY FIX "chain_bn128.zkey"
#define BN_WTNS FIX "chain_bn128.wtns"
#define BLS_ZKEY FIX "chain_bls12381.zkey"
#define BLS_WTNS FIX "chain_bls12381.wtns"

static void ok(cuzk_status st)
{
    if (st != CUZK_OK)
        fail_msg("status %s: %s", cuzk_status_str(st), cuzk_last_error());
}

/* The call failed with want, and its message has every one of the words. */
static void expect_error(cuzk_status got, cuzk_status want, const char *word, ...)
{
    const char *m = cuzk_last_error();
    if (got != want)
        fail_msg("status %s, expected %s (message: %s)", cuzk_status_str(got),
                 cuzk_status_str(want), m);
    va_list ap;
    va_start(ap, word);
    for (const char *w = word; w; w = va_arg(ap, const char *))
        if (!strstr(m, w))
            fail_msg("the message \"%s\" does not name \"%s\"", m, w);
    va_end(ap);
}

/* A witness file's values as canonical bytes: exactly the .wtns values. */
static cuzk_fr *assignment_of(const char *path, size_t *n)
{
    char msg[256];
    circom_wtns_t w;
    if (circom_wtns_open(&w, path, msg, sizeof(msg)) != CUZK_OK)
        fail_msg("%s", msg);
    cuzk_fr *a = malloc(w.num_values * sizeof(cuzk_fr));
    assert_non_null(a);
    memcpy(a, w.values, w.num_values * sizeof(cuzk_fr));
    *n = w.num_values;
    circom_wtns_close(&w);
    return a;
}

static cuzk_job_state wait_final(cuzk_job *j)
{
    cuzk_job_state s;
    ok(cuzk_job_wait(j, &s, 300));
    assert_true(s >= CUZK_JOB_DONE);
    return s;
}

/* Text without whitespace, for comparing JSON laid out differently. */
static void squeeze(char *s)
{
    char *o = s;
    for (; *s; s++)
        if (*s != ' ' && *s != '\n' && *s != '\t' && *s != '\r')
            *o++ = *s;
    *o = 0;
}

static void test_bn254_beside_bls12_381(void **state)
{
    (void)state;
    cuzk_engine_config cfg;
    cuzk_engine_config_init(&cfg);
    cfg.backend = CUZK_BACKEND_CPU;
    cfg.threads = 2;
    cuzk_engine *e;
    ok(cuzk_engine_create(&e, &cfg));
    cuzk_circuit *bn, *bls;
    ok(cuzk_circuit_register_zkey(e, &bn, "chain254", BN_ZKEY, CUZK_CHECK_CURVE));
    ok(cuzk_circuit_register_zkey(e, &bls, "chain381", BLS_ZKEY, CUZK_CHECK_CURVE));
    cuzk_curve curve;
    size_t proof_bytes;
    ok(cuzk_circuit_curve(bn, &curve, &proof_bytes));
    assert_int_equal(curve, CUZK_CURVE_BN254);
    assert_int_equal(proof_bytes, CUZK_BN254_PROOF_BYTES);
    assert_int_equal(CUZK_BN254_PROOF_BYTES, BN254_PROOF_BYTES);
    ok(cuzk_circuit_curve(bls, &curve, &proof_bytes));
    assert_int_equal(curve, CUZK_CURVE_BLS12_381);
    assert_int_equal(proof_bytes, CUZK_PROOF_BYTES);
    expect_error(cuzk_circuit_curve(NULL, &curve, NULL), CUZK_ERR_INVALID_ARGUMENT,
                 "cuzk_circuit_curve", "circuit is NULL", NULL);
    uint64_t witness_len, num_public;
    ok(cuzk_circuit_shape(bn, &witness_len, &num_public));
    size_t n;
    cuzk_fr *a = assignment_of(BN_WTNS, &n);
    assert_int_equal(witness_len, n);
    assert_true(num_public >= 1);

    /* Both curves' jobs at once; the BN254 one with one fixed r, s. */
    cuzk_fr r[2], s[2];
    memset(r, 0, sizeof(r));
    memset(s, 0, sizeof(s));
    r[0].bytes[0] = r[1].bytes[0] = 11;
    s[0].bytes[31] = s[1].bytes[31] = 0x22; /* 0x22 << 248 < BN254's r */
    cuzk_job_options o;
    cuzk_job_options_init(&o);
    o.r = r;
    o.s = s;
    cuzk_witness w[2] = {{.kind = CUZK_WITNESS_WTNS, .wtns_path = BN_WTNS},
                         {.kind = CUZK_WITNESS_ASSIGNMENT, .assignment = a, .assignment_len = n}};
    cuzk_witness wb = {.kind = CUZK_WITNESS_WTNS, .wtns_path = BLS_WTNS};
    cuzk_job *jb, *jl;
    ok(cuzk_job_submit(e, &jb, bn, w, 2, &o));
    ok(cuzk_job_submit(e, &jl, bls, &wb, 1, NULL));
    assert_int_equal(wait_final(jb), CUZK_JOB_DONE);
    assert_int_equal(wait_final(jl), CUZK_JOB_DONE);

    /* The proofs: 2 × 256 bytes, one proof twice (one witness, one r, s). */
    uint8_t proof[2 * CUZK_PROOF_MAX_BYTES];
    size_t len = 2 * CUZK_PROOF_BYTES;
    expect_error(cuzk_job_proof(jb, proof, &len), CUZK_ERR_INVALID_ARGUMENT, "proof_len is 384",
                 "512 bytes", NULL);
    assert_int_equal(len, 2 * CUZK_BN254_PROOF_BYTES);
    ok(cuzk_job_proof(jb, proof, &len));
    assert_int_equal(len, 2 * CUZK_BN254_PROOF_BYTES);
    assert_memory_equal(proof, proof + CUZK_BN254_PROOF_BYTES, CUZK_BN254_PROOF_BYTES);

    /* Its public inputs are the witness's, partition after partition. */
    cuzk_fr *pub = calloc(2 * num_public, sizeof(cuzk_fr));
    assert_non_null(pub);
    size_t np = 2 * num_public;
    ok(cuzk_job_public_inputs(jb, pub, &np));
    assert_int_equal(np, 2 * num_public);
    for (int p = 0; p < 2; p++)
        assert_memory_equal(pub + p * num_public, a + 1, num_public * sizeof(cuzk_fr));
    ok(cuzk_circuit_verify(bn, proof, len, pub, np));
    pub[num_public].bytes[0] ^= 1; /* partition 1's first input */
    expect_error(cuzk_circuit_verify(bn, proof, len, pub, np), CUZK_ERR_VERIFY_FAILED,
                 "cuzk_circuit_verify", "partition 1 ", NULL);
    pub[num_public].bytes[0] ^= 1;
    expect_error(cuzk_circuit_verify(bn, proof, 3 * CUZK_PROOF_BYTES, pub, np),
                 CUZK_ERR_INVALID_ARGUMENT, "proofs_len is 576", "256 bytes", "bn128", NULL);

    /* snarkjs's form: "bn128", the proof's own points, and public.json
     * equal to snarkjs's for this witness. */
    char *pj, *uj;
    ok(cuzk_job_snarkjs(jb, &pj, &uj, 1));
    assert_non_null(strstr(pj, "\"bn128\""));
    bn254_groth16_proof_t parsed;
    char msg[256];
    ok(bn254_snarkjs_proof_from_json(&parsed, pj, strlen(pj), "proof_json", FORMATS_CHECK_SUBGROUP,
                                     msg, sizeof(msg)));
    uint8_t again[BN254_PROOF_BYTES];
    bn254_proof_encode(again, &parsed);
    assert_memory_equal(again, proof + CUZK_BN254_PROOF_BYTES, BN254_PROOF_BYTES);
    size_t fixture_len;
    char *fixture = (char *)test_read_file(FIX "public_bn128.json", &fixture_len);
    assert_non_null(fixture);
    squeeze(fixture);
    squeeze(uj);
    assert_string_equal(uj, fixture);
    free(fixture);
    char *vk = (char *)test_read_file(FIX "verification_key_bn128.json", &fixture_len);
    ok(cuzk_verify_snarkjs(vk, pj, uj));
    /* the last digit of the first value: it stays below r */
    char *first = strpbrk(uj, "0123456789"), *end = first ? strchr(first, '"') : NULL;
    assert_non_null(end);
    char *digit = end - 1;
    *digit = *digit == '9' ? '8' : (char)(*digit + 1);
    expect_error(cuzk_verify_snarkjs(vk, pj, uj), CUZK_ERR_VERIFY_FAILED, "cuzk_verify_snarkjs",
                 "does not verify", NULL);
    free(vk);
    cuzk_free(pj);
    cuzk_free(uj);
    ok(cuzk_verify_snarkjs_files(FIX "verification_key_bn128.json", FIX "proof_bn128.json",
                                 FIX "public_bn128.json"));
    expect_error(cuzk_verify_snarkjs_files(FIX "verification_key_bn128.json",
                                           FIX "proof_bls12381.json", FIX "public_bls12381.json"),
                 CUZK_ERR_UNSUPPORTED, "proof_path", "proof_bls12381.json", "bls12381", NULL);

    /* The BLS12-381 job beside it: 192 bytes, verified by its circuit. */
    uint8_t bls_proof[CUZK_PROOF_BYTES];
    size_t bls_len = sizeof(bls_proof);
    ok(cuzk_job_proof(jl, bls_proof, &bls_len));
    assert_int_equal(bls_len, CUZK_PROOF_BYTES);
    uint64_t bls_public;
    ok(cuzk_circuit_shape(bls, NULL, &bls_public));
    cuzk_fr *bpub = calloc(bls_public, sizeof(cuzk_fr));
    size_t bnp = bls_public;
    ok(cuzk_job_public_inputs(jl, bpub, &bnp));
    ok(cuzk_circuit_verify(bls, bls_proof, bls_len, bpub, bnp));
    free(bpub);

    /* Bad input, named. */
    cuzk_job *j;
    expect_error(cuzk_job_submit(e, &j, bn, &wb, 1, NULL), CUZK_ERR_UNSUPPORTED,
                 "witnesses[0].wtns_path", "chain_bls12381.wtns", "bls12381", "bn128", NULL);
    /* BN254's r: below BLS12-381's r, not below its own */
    static const uint8_t bn254_r_le[32] = {0x01, 0x00, 0x00, 0xf0, 0x93, 0xf5, 0xe1, 0x43,
                                           0x91, 0x70, 0xb9, 0x79, 0x48, 0xe8, 0x33, 0x28,
                                           0x5d, 0x58, 0x81, 0x81, 0xb6, 0x45, 0x50, 0xb8,
                                           0x29, 0xa0, 0x31, 0xe1, 0x72, 0x4e, 0x64, 0x30};
    memcpy(a[2].bytes, bn254_r_le, 32);
    expect_error(cuzk_job_submit(e, &j, bn, &w[1], 1, NULL), CUZK_ERR_NOT_CANONICAL,
                 "witnesses[0].assignment[2]", "not below r", NULL);

    free(pub);
    free(a);
    cuzk_job_destroy(jb);
    cuzk_job_destroy(jl);
    cuzk_circuit_release(bn);
    cuzk_circuit_release(bls);
    cuzk_engine_destroy(e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bn254_beside_bls12_381),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
