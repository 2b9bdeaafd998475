/* The curve of a circom or snarkjs file comes from the primes in its
 * header: every fixture of both curves is recognised; a prime that is
 * neither curve's is refused naming the file and the prime; a zkey whose q
 * and r belong to different curves is refused; files of two curves are
 * refused naming both. */
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
#include "formats/iden3_curve.h"

#define FIX CUZK_VECTOR_DIR "/../fixtures/circom/"

static char msg[512];

static void expect_curve(const char *path, curve_id want)
{
    curve_id got;
    msg[0] = 0;
    cuzk_status st = iden3_file_curve(&got, path, msg, sizeof(msg));
    if (st != CUZK_OK)
        fail_msg("%s: %s", path, msg);
    assert_int_equal(got, want);
}

static void test_fixtures(void **state)
{
    (void)state;
    static const char *const bn254[] = {"chain_bn128.r1cs", "chain_bn128.wtns", "chain_bn128.zkey",
                                        "chain_setup_bn128.zkey"};
    static const char *const bls[] = {"chain_bls12381.r1cs", "chain_bls12381.wtns",
                                      "chain_bls12381.zkey", "poseidon_bls12381.zkey",
                                      "manypub_bls12381.wtns"};
    char path[512];
    for (size_t i = 0; i < sizeof(bn254) / sizeof(bn254[0]); i++) {
        snprintf(path, sizeof(path), FIX "%s", bn254[i]);
        expect_curve(path, CURVE_BN254);
    }
    for (size_t i = 0; i < sizeof(bls) / sizeof(bls[0]); i++) {
        snprintf(path, sizeof(path), FIX "%s", bls[i]);
        expect_curve(path, CURVE_BLS12_381);
    }
}

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Offset of the contents of section id. */
static size_t section(const uint8_t *d, uint32_t id)
{
    size_t off = 12;
    for (uint32_t i = 0; i < get32(d + 8); i++) {
        uint64_t size = get32(d + off + 4) | (uint64_t)get32(d + off + 8) << 32;
        if (get32(d + off) == id)
            return off + 12;
        off += 12 + size;
    }
    fail_msg("no section %u", id);
    return 0;
}

/* The fixture with `patch` applied, written to a temporary file. */
static void write_patched(char *path, size_t path_len, const char *fixture,
                          void (*patch)(uint8_t *d))
{
    size_t len;
    uint8_t *d = test_read_file(fixture, &len);
    patch(d);
    snprintf(path, path_len, "/tmp/cuzk_test_curve_XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, d, len), (ssize_t)len);
    close(fd);
    free(d);
}

/* r's lowest byte 0x01 -> 0x03 (the low byte of both curves' r is 01). */
static void patch_wtns_prime(uint8_t *d)
{
    d[section(d, 1) + 4] = 0x03;
}

static void patch_zkey_r(uint8_t *d)
{
    size_t s = section(d, 2);
    uint32_t n8q = get32(d + s);
    d[s + 4 + n8q + 4] = 0x03;
}

static void test_unknown_prime(void **state)
{
    (void)state;
    char path[128];
    curve_id c;
    write_patched(path, sizeof(path), FIX "chain_bn128.wtns", patch_wtns_prime);
    assert_int_equal(iden3_file_curve(&c, path, msg, sizeof(msg)), CUZK_ERR_UNSUPPORTED);
    assert_non_null(strstr(msg, path));
    assert_non_null(
        strstr(msg, "0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000003"));
    assert_non_null(strstr(msg, "neither BN254's nor BLS12-381's"));
    unlink(path);
    write_patched(path, sizeof(path), FIX "chain_bls12381.zkey", patch_zkey_r);
    assert_int_equal(iden3_file_curve(&c, path, msg, sizeof(msg)), CUZK_ERR_UNSUPPORTED);
    assert_non_null(strstr(msg, path));
    assert_non_null(
        strstr(msg, "0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000003"));
    unlink(path);
}

/* A BLS12-381 zkey given BN254's r in place of its own (n8 32 both). */
static void patch_zkey_mixed(uint8_t *d)
{
    static const uint8_t bn254_r[32] = {0x01, 0x00, 0x00, 0xf0, 0x93, 0xf5, 0xe1, 0x43,
                                        0x91, 0x70, 0xb9, 0x79, 0x48, 0xe8, 0x33, 0x28,
                                        0x5d, 0x58, 0x81, 0x81, 0xb6, 0x45, 0x50, 0xb8,
                                        0x29, 0xa0, 0x31, 0xe1, 0x72, 0x4e, 0x64, 0x30};
    size_t s = section(d, 2);
    uint32_t n8q = get32(d + s);
    memcpy(d + s + 4 + n8q + 4, bn254_r, 32);
}

static void test_zkey_of_two_curves(void **state)
{
    (void)state;
    char path[128];
    curve_id c;
    write_patched(path, sizeof(path), FIX "chain_bls12381.zkey", patch_zkey_mixed);
    assert_int_equal(iden3_file_curve(&c, path, msg, sizeof(msg)), CUZK_ERR_UNSUPPORTED);
    assert_non_null(strstr(msg, path));
    assert_non_null(strstr(msg, "base field is bls12381's q but the scalar field bn128's r"));
    unlink(path);
}

static void test_not_iden3(void **state)
{
    (void)state;
    curve_id c;
    assert_int_equal(iden3_file_curve(&c, FIX "proof_bn128.json", msg, sizeof(msg)),
                     CUZK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(msg, "proof_bn128.json"));
    assert_int_not_equal(iden3_file_curve(&c, FIX "none.zkey", msg, sizeof(msg)), CUZK_OK);
    assert_non_null(strstr(msg, "none.zkey"));
}

static void test_match(void **state)
{
    (void)state;
    assert_int_equal(
        formats_curves_match("a.wtns", CURVE_BN254, "b.zkey", CURVE_BN254, msg, sizeof(msg)),
        CUZK_OK);
    assert_int_equal(
        formats_curves_match("a.wtns", CURVE_BN254, "b.zkey", CURVE_BLS12_381, msg, sizeof(msg)),
        CUZK_ERR_UNSUPPORTED);
    assert_string_equal(msg, "a.wtns is for the bn128 curve but b.zkey is for bls12381: the files "
                             "belong to different curves");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixtures),
        cmocka_unit_test(test_unknown_prime),
        cmocka_unit_test(test_zkey_of_two_curves),
        cmocka_unit_test(test_not_iden3),
        cmocka_unit_test(test_match),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
