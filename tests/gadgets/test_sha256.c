/* SHA-256: the plain implementation against the FIPS 180-4 examples
 * (tests/vectors/sha256.txt), the compression gadget against the plain
 * compression on random states and blocks (values, satisfaction, tampering,
 * constraint count), and the padded-message gadget against sha256(). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gadgets/sha256.h"
#include "seed.h"
#include "vector_file.h"

static rng_t rng;

static void test_plain_vectors(void **state)
{
    (void)state;
    vec_file *f = vec_open("sha256.txt");
    assert_non_null(f);
    vec_record rec;
    int count = 0;
    while (vec_next(f, &rec)) {
        uint8_t want[32], got[32];
        if (strcmp(rec.op, "sha256") == 0) {
            assert_int_equal(rec.nfields, 2);
            size_t len = strlen(rec.fields[0]) / 2;
            uint8_t *msg = malloc(len ? len : 1);
            assert_int_equal(vec_hex(msg, len, rec.fields[0]), 0);
            assert_int_equal(vec_hex(want, 32, rec.fields[1]), 0);
            sha256(got, msg, len);
            free(msg);
        } else if (strcmp(rec.op, "sha256_repeat") == 0) {
            assert_int_equal(rec.nfields, 3);
            uint8_t byte, cnt[3];
            assert_int_equal(vec_hex(&byte, 1, rec.fields[0]), 0);
            assert_int_equal(vec_hex(cnt, 3, rec.fields[1]), 0);
            size_t len = (size_t)cnt[0] << 16 | (size_t)cnt[1] << 8 | cnt[2];
            assert_int_equal(vec_hex(want, 32, rec.fields[2]), 0);
            uint8_t *msg = malloc(len);
            memset(msg, byte, len);
            sha256(got, msg, len);
            free(msg);
        } else {
            fail_msg("%s:%d: unknown op %s", vec_path(f), rec.line, rec.op);
        }
        assert_memory_equal(got, want, 32);
        count++;
    }
    vec_close(f);
    assert_int_equal(count, 3);
}

/* Padding boundaries: the one-shot function against compressions driven by
 * hand. */
static void test_plain_padding(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("sha256_plain_padding"));
    for (size_t len = 0; len <= 130; len++) {
        uint8_t msg[192], got[32], want[32];
        rng_bytes(&rng, msg, len);
        sha256(got, msg, len);
        size_t padded = sha256_num_blocks(len) * 64;
        memset(msg + len, 0, padded - len);
        msg[len] = 0x80;
        for (int i = 0; i < 8; i++)
            msg[padded - 1 - i] = (uint8_t)(((uint64_t)len * 8) >> (8 * i));
        uint32_t st[8];
        memcpy(st, SHA256_IV, sizeof(st));
        for (size_t off = 0; off < padded; off += 64)
            sha256_compress(st, msg + off);
        for (int i = 0; i < 8; i++) {
            want[4 * i] = (uint8_t)(st[i] >> 24), want[4 * i + 1] = (uint8_t)(st[i] >> 16);
            want[4 * i + 2] = (uint8_t)(st[i] >> 8), want[4 * i + 3] = (uint8_t)st[i];
        }
        assert_memory_equal(got, want, 32);
    }
}

static void tamper(fr_t *x)
{
    if (fr_is_zero(x))
        *x = FR_ONE;
    else if (fr_is_one(x))
        *x = FR_ZERO;
    else
        fr_add(x, x, &FR_ONE);
}

static void test_gadget_compress(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("sha256_gadget_compress"));
    for (int it = 0; it < test_iters(2); it++) {
        uint32_t st[8], words[16];
        uint8_t block[64];
        for (int i = 0; i < 8; i++)
            st[i] = (uint32_t)rng_u64(&rng);
        rng_bytes(&rng, block, 64);
        for (int i = 0; i < 16; i++)
            words[i] = (uint32_t)block[4 * i] << 24 | (uint32_t)block[4 * i + 1] << 16 |
                       (uint32_t)block[4 * i + 2] << 8 | block[4 * i + 3];
        r1cs_builder *b;
        assert_int_equal(r1cs_builder_new(&b, R1CS_BUILD_SHAPE | R1CS_BUILD_VALUES), CUZK_OK);
        gadget_cs cs;
        gcs_init(&cs, b, R1CS_BUILD_SHAPE | R1CS_BUILD_VALUES);
        gword in[8], w[16], out[8];
        for (int i = 0; i < 8; i++)
            gword_alloc(&cs, &in[i], st[i]);
        for (int i = 0; i < 16; i++)
            gword_alloc(&cs, &w[i], words[i]);
        uint64_t c0 = cs.num_constraints, a0 = cs.num_aux;
        sha256_gadget_compress(&cs, out, in, w);
        uint64_t cost = cs.num_constraints - c0;
        print_message("sha256 compression, all inputs variable: %llu constraints, %llu aux\n",
                      (unsigned long long)cost, (unsigned long long)(cs.num_aux - a0));
        assert_int_equal(cost, 26416);
        sha256_compress(st, block);
        for (int i = 0; i < 8; i++)
            assert_int_equal(gword_value(&out[i]), st[i]);
        assert_int_equal(gcs_status(&cs), CUZK_OK);
        r1cs_t r;
        fr_t *wv;
        uint64_t n, bad;
        assert_int_equal(gcs_compile_with_witness(b, &r, &wv, &n, 2), CUZK_OK);
        assert_true(r1cs_is_satisfied(&r, wv, &bad, 2));
        for (int k = 0; k < 24; k++) {
            uint64_t i = r.num_inputs + a0 + rng_u64(&rng) % (r.num_aux - a0);
            fr_t saved = wv[i];
            tamper(&wv[i]);
            assert_false(r1cs_is_satisfied(&r, wv, &bad, 2));
            wv[i] = saved;
        }
        /* the output words are bound: flip one output bit's variable */
        gbit ob = out[(int)(rng_u64(&rng) % 8)].b[rng_u64(&rng) % 32];
        assert_int_not_equal(ob.kind, GBIT_CONST);
        uint64_t oi = r.num_inputs + r1cs_var_index(ob.var);
        tamper(&wv[oi]);
        assert_false(r1cs_is_satisfied(&r, wv, &bad, 2));
        free(wv);
        r1cs_free(&r);
        gcs_free(&cs);
        r1cs_builder_free(b);
    }
}

/* Whole messages with padding, shape and values; the first block starts
 * from the constant IV, so it costs less than 26,416. */
static void test_gadget_message(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("sha256_gadget_message"));
    static const size_t lens[] = {0, 3, 55, 56, 64, 100};
    for (size_t li = 0; li < sizeof(lens) / sizeof(lens[0]); li++) {
        size_t len = lens[li];
        uint8_t msg[128], want[32];
        rng_bytes(&rng, msg, len);
        sha256(want, msg, len);
        r1cs_builder *b;
        assert_int_equal(r1cs_builder_new(&b, R1CS_BUILD_SHAPE | R1CS_BUILD_VALUES), CUZK_OK);
        gadget_cs cs;
        gcs_init(&cs, b, R1CS_BUILD_SHAPE | R1CS_BUILD_VALUES);
        gbit bits[128 * 8];
        for (size_t j = 0; j < len * 8; j++)
            bits[j] = gbit_alloc(&cs, (msg[j / 8] >> (j % 8)) & 1);
        uint64_t c0 = cs.num_constraints;
        gword out[8];
        sha256_gadget_bytes(&cs, out, bits, len);
        print_message("sha256 of %zu bytes (%zu blocks): %llu constraints\n", len,
                      sha256_num_blocks(len), (unsigned long long)(cs.num_constraints - c0));
        for (int i = 0; i < 8; i++) {
            uint32_t wv = (uint32_t)want[4 * i] << 24 | (uint32_t)want[4 * i + 1] << 16 |
                          (uint32_t)want[4 * i + 2] << 8 | want[4 * i + 3];
            assert_int_equal(gword_value(&out[i]), wv);
        }
        r1cs_t r;
        fr_t *wv;
        uint64_t n, bad;
        assert_int_equal(gcs_compile_with_witness(b, &r, &wv, &n, 2), CUZK_OK);
        assert_true(r1cs_is_satisfied(&r, wv, &bad, 2));
        free(wv);
        r1cs_free(&r);
        gcs_free(&cs);
        r1cs_builder_free(b);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_vectors),
        cmocka_unit_test(test_plain_padding),
        cmocka_unit_test(test_gadget_compress),
        cmocka_unit_test(test_gadget_message),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
