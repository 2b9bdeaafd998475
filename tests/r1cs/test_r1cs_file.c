/* The compiled-circuit file: round trips, and damaged or crafted files
 * (flipped bytes, truncation at many offsets, wrong magic or version, bad
 * indices behind a valid checksum) that must fail cleanly. Meant to run
 * under the sanitizer build. */
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

#include "r1cs/builder.h"
#include "r1cs/crc32c.h"
#include "r1cs/file.h"
#include "seed.h"

static rng_t rng;

static uint64_t rnd(uint64_t n)
{
    return rng_u64(&rng) % n;
}

/* A random system (satisfiability does not matter here) with some rows of
 * 254, 255 and 300 terms to exercise the long-row list. extra_coeffs = 0:
 * every term gets a coefficient of its own (a table past 65,536 entries). */
static void build_system(r1cs_t *r, uint64_t rows, unsigned extra_coeffs, bool long_rows)
{
    r1cs_builder *b;
    assert_int_equal(r1cs_builder_new(&b, R1CS_BUILD_SHAPE), CUZK_OK);
    uint64_t ni = 1 + rnd(3), na = 400 + rnd(50);
    r1cs_var v;
    for (uint64_t i = 1; i < ni; i++)
        assert_int_equal(r1cs_alloc_input(b, &v, NULL), CUZK_OK);
    for (uint64_t i = 0; i < na; i++)
        assert_int_equal(r1cs_alloc_aux(b, &v, NULL), CUZK_OK);
    lc_t lcs[3];
    for (int k = 0; k < 3; k++)
        lc_init(&lcs[k]);
    uint64_t unique = 2;
    for (uint64_t row = 0; row < rows; row++) {
        for (int k = 0; k < 3; k++) {
            lc_clear(&lcs[k]);
            uint64_t n = rnd(4);
            if (long_rows && rnd(rows) < 3)
                n = (uint64_t[]){254, 255, 300}[rnd(3)];
            for (uint64_t t = 0; t < n; t++) {
                uint64_t x = rnd(ni + na);
                r1cs_var var = x < ni ? (r1cs_var)x : (r1cs_var)(x - ni) | R1CS_VAR_AUX;
                fr_t c;
                if (!extra_coeffs)
                    fr_from_u64(&c, unique++);
                else if (rnd(4) == 0)
                    fr_from_u64(&c, 2 + rnd(extra_coeffs));
                else
                    c = FR_ONE;
                lc_add_term(&lcs[k], var, &c);
            }
        }
        assert_int_equal(r1cs_enforce(b, &lcs[0], &lcs[1], &lcs[2]), CUZK_OK);
    }
    assert_int_equal(r1cs_builder_compile(r, b, 1), CUZK_OK);
    r1cs_builder_free(b);
    for (int k = 0; k < 3; k++)
        lc_free(&lcs[k]);
}

static void assert_same(const r1cs_t *x, const r1cs_t *y)
{
    assert_int_equal(x->num_constraints, y->num_constraints);
    assert_int_equal(x->num_inputs, y->num_inputs);
    assert_int_equal(x->num_aux, y->num_aux);
    assert_int_equal(x->num_coeffs, y->num_coeffs);
    assert_int_equal(x->coeff_width, y->coeff_width);
    assert_memory_equal(x->coeffs, y->coeffs, x->num_coeffs * sizeof(fr_t));
    const r1cs_matrix *mx[3] = {&x->a, &x->b, &x->c}, *my[3] = {&y->a, &y->b, &y->c};
    for (int k = 0; k < 3; k++) {
        assert_int_equal(mx[k]->nnz, my[k]->nnz);
        assert_memory_equal(mx[k]->row_ptr, my[k]->row_ptr,
                            (x->num_constraints + 1) * sizeof(uint64_t));
        if (mx[k]->nnz) {
            assert_memory_equal(mx[k]->col, my[k]->col, mx[k]->nnz * 4);
            assert_memory_equal(mx[k]->coeff, my[k]->coeff, mx[k]->nnz * x->coeff_width);
        }
    }
}

/* Serializes r into a malloc'd buffer through a temporary file. */
static uint8_t *to_bytes(const r1cs_t *r, size_t *len)
{
    FILE *f = tmpfile();
    assert_non_null(f);
    char msg[256];
    assert_int_equal(r1cs_file_write(r, f, msg, sizeof(msg)), CUZK_OK);
    long end = ftell(f);
    assert_true(end > 0);
    uint8_t *buf = malloc((size_t)end);
    rewind(f);
    assert_int_equal(fread(buf, 1, (size_t)end, f), (size_t)end);
    fclose(f);
    *len = (size_t)end;
    return buf;
}

/* Reads a system from a memory buffer. */
static cuzk_status from_bytes(r1cs_t *r, const uint8_t *buf, size_t len, char *msg, size_t msg_len)
{
    if (len == 0) { /* fmemopen wants a nonempty buffer */
        static uint8_t none[1];
        FILE *f = fmemopen(none, 1, "rb");
        fgetc(f);
        cuzk_status st = r1cs_file_read(r, f, 2, msg, msg_len);
        fclose(f);
        return st;
    }
    FILE *f = fmemopen((void *)buf, len, "rb");
    assert_non_null(f);
    cuzk_status st = r1cs_file_read(r, f, 2, msg, msg_len);
    fclose(f);
    return st;
}

static void test_round_trip(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("r1cs_file_round_trip"));
    for (int it = 0; it < test_iters(6); it++) {
        r1cs_t r, back;
        bool wide = it == 0;
        build_system(&r, wide ? 40000 : 1 + rnd(2000), wide ? 0 : 40, true);
        assert_int_equal(r.coeff_width, wide ? 4 : 2);
        size_t len;
        uint8_t *buf = to_bytes(&r, &len);
        char msg[256];
        assert_int_equal(from_bytes(&back, buf, len, msg, sizeof(msg)), CUZK_OK);
        assert_same(&r, &back);
        r1cs_free(&back);
        free(buf);
        r1cs_free(&r);
    }
    /* the empty system */
    r1cs_builder *b;
    r1cs_t r, back;
    assert_int_equal(r1cs_builder_new(&b, R1CS_BUILD_SHAPE), CUZK_OK);
    assert_int_equal(r1cs_builder_compile(&r, b, 1), CUZK_OK);
    r1cs_builder_free(b);
    size_t len;
    uint8_t *buf = to_bytes(&r, &len);
    assert_int_equal(from_bytes(&back, buf, len, NULL, 0), CUZK_OK);
    assert_same(&r, &back);
    r1cs_free(&back);
    r1cs_free(&r);
    free(buf);
}

static void test_save_load(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("r1cs_file_save_load"));
    r1cs_t r, back;
    build_system(&r, 500, 10, true);
    char path[] = "/tmp/cuzk_r1cs_test_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    char msg[256];
    assert_int_equal(r1cs_save(&r, path, msg, sizeof(msg)), CUZK_OK);
    assert_int_equal(r1cs_load(&back, path, 2, msg, sizeof(msg)), CUZK_OK);
    assert_same(&r, &back);
    r1cs_free(&back);
    remove(path);
    assert_int_equal(r1cs_load(&back, path, 2, msg, sizeof(msg)), CUZK_ERR_IO);
    assert_non_null(strstr(msg, "cannot open"));
    assert_int_equal(r1cs_save(&r, "/nonexistent-dir/x.r1cs", msg, sizeof(msg)), CUZK_ERR_IO);
    r1cs_free(&r);
}

static void test_truncated(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("r1cs_file_truncated"));
    r1cs_t r, back;
    build_system(&r, 200, 10, true);
    size_t len;
    uint8_t *buf = to_bytes(&r, &len);
    char msg[256];
    /* every header length, then a spread of offsets through the payload */
    for (size_t cut = 0; cut < len; cut += cut < 160 ? 1 : 1 + rnd(len / 300 + 1)) {
        cuzk_status st = from_bytes(&back, buf, cut, msg, sizeof(msg));
        assert_int_not_equal(st, CUZK_OK);
        assert_null(back.a.row_ptr);
        if (cut >= 8)
            assert_int_equal(st, CUZK_ERR_IO);
    }
    /* one byte too many */
    uint8_t *longer = malloc(len + 1);
    memcpy(longer, buf, len);
    longer[len] = 0;
    assert_int_equal(from_bytes(&back, longer, len + 1, msg, sizeof(msg)),
                     CUZK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(msg, "trailing"));
    free(longer);
    free(buf);
    r1cs_free(&r);
}

static void test_flipped_bytes(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("r1cs_file_flipped"));
    r1cs_t r, back;
    build_system(&r, 40, 10, false);
    size_t len;
    uint8_t *buf = to_bytes(&r, &len);
    char msg[256];
    /* Every byte, one random bit each: CRC-32C catches every single-bit
     * error, so nothing damaged may load. */
    for (size_t i = 0; i < len; i++) {
        uint8_t saved = buf[i];
        buf[i] ^= (uint8_t)(1u << rnd(8));
        cuzk_status st = from_bytes(&back, buf, len, msg, sizeof(msg));
        assert_int_not_equal(st, CUZK_OK);
        buf[i] = saved;
    }
    /* random multi-byte damage */
    for (int it = 0; it < test_iters(300); it++) {
        uint8_t *copy = malloc(len);
        memcpy(copy, buf, len);
        for (int j = 0; j < 1 + (int)rnd(8); j++)
            copy[rnd(len)] = (uint8_t)rng_u64(&rng);
        if (memcmp(copy, buf, len) != 0)
            assert_int_not_equal(from_bytes(&back, copy, len, msg, sizeof(msg)), CUZK_OK);
        free(copy);
    }
    assert_int_equal(from_bytes(&back, buf, len, msg, sizeof(msg)), CUZK_OK);
    r1cs_free(&back);
    /* magic and version */
    buf[0] = 'X';
    assert_int_equal(from_bytes(&back, buf, len, msg, sizeof(msg)), CUZK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(msg, "magic"));
    buf[0] = 'C';
    buf[8] = 2;
    assert_int_equal(from_bytes(&back, buf, len, msg, sizeof(msg)), CUZK_ERR_UNSUPPORTED);
    assert_non_null(strstr(msg, "version"));
    free(buf);
    r1cs_free(&r);
}

/* Recomputes both checksums so the damage is only in the content. */
static void reseal(uint8_t *buf, size_t len)
{
    uint32_t pc = crc32c(0, buf + R1CS_FILE_HEADER_BYTES, len - R1CS_FILE_HEADER_BYTES);
    for (int i = 0; i < 4; i++)
        buf[112 + i] = (uint8_t)(pc >> (8 * i));
    uint32_t hc = crc32c(0, buf, 120);
    for (int i = 0; i < 4; i++)
        buf[120 + i] = (uint8_t)(hc >> (8 * i));
}

static void put_u32(uint8_t *p, uint32_t v)
{
    memcpy(p, &v, 4); /* little-endian host: the file's byte order */
}

static void test_crafted(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("r1cs_file_crafted"));
    r1cs_t r, back;
    /* No long rows: A's columns then start at a computable offset. 61 rows
     * leave 3 bytes of padding after the row lengths. */
    build_system(&r, 61, 10, false);
    size_t len;
    uint8_t *buf = to_bytes(&r, &len);
    uint8_t *copy = malloc(len);
    char msg[256];
    size_t coeffs_at = R1CS_FILE_HEADER_BYTES;
    size_t lengths_at = coeffs_at + r.num_coeffs * 32;
    size_t cols_at = lengths_at + ((r.num_constraints + 7) & ~(size_t)7);
    uint64_t row = 0;
    while (r.a.row_ptr[row + 1] - r.a.row_ptr[row] < 2)
        row++; /* a row with two columns */
    size_t k0 = r.a.row_ptr[row];

    struct {
        const char *expect;
        cuzk_status st;
    } cases[] = {
        {"out of range", CUZK_ERR_INVALID_ARGUMENT},        /* column = num_vars */
        {"strictly increasing", CUZK_ERR_INVALID_ARGUMENT}, /* columns swapped */
        {"not below r", CUZK_ERR_NOT_CANONICAL},            /* coefficient = r */
        {"entry 0 is not 1", CUZK_ERR_INVALID_ARGUMENT},    /* table[0] = 2 */
        {"add up", CUZK_ERR_INVALID_ARGUMENT},              /* a row length changed */
        {"payload size", CUZK_ERR_INVALID_ARGUMENT},        /* nnz changed in the header */
        {"padding", CUZK_ERR_INVALID_ARGUMENT},             /* nonzero padding */
    };
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        memcpy(copy, buf, len);
        switch (c) {
        case 0:
            put_u32(copy + cols_at + 4 * k0, (uint32_t)r1cs_num_vars(&r));
            break;
        case 1: {
            uint32_t x = r.a.col[k0], y = r.a.col[k0 + 1];
            put_u32(copy + cols_at + 4 * k0, y);
            put_u32(copy + cols_at + 4 * k0 + 4, x);
            break;
        }
        case 2: {
            uint8_t le[32];
            for (int i = 0; i < 4; i++)
                for (int j = 0; j < 8; j++)
                    le[8 * i + j] = (uint8_t)(FR_MODULUS[i] >> (8 * j));
            memcpy(copy + coeffs_at + 32 * (r.num_coeffs - 1), le, 32);
            break;
        }
        case 3:
            copy[coeffs_at] = 2;
            break;
        case 4:
            copy[lengths_at + row] ^= 1;
            break;
        case 5:
            copy[56] ^= 1;
            break;
        case 6:
            copy[lengths_at + r.num_constraints] = 1;
            break;
        }
        reseal(copy, len);
        cuzk_status st = from_bytes(&back, copy, len, msg, sizeof(msg));
        assert_int_equal(st, cases[c].st);
        if (!strstr(msg, cases[c].expect))
            fail_msg("case %zu: message '%s' lacks '%s'", c, msg, cases[c].expect);
        assert_null(back.coeffs);
    }
    free(copy);
    free(buf);
    r1cs_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip), cmocka_unit_test(test_save_load),
        cmocka_unit_test(test_truncated),  cmocka_unit_test(test_flipped_bytes),
        cmocka_unit_test(test_crafted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
