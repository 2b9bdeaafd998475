/* The .r1cs and .wtns writers: circom's own files (tests/fixtures/circom)
 * read and written again come back byte for byte where circom sorted the
 * terms, and as the same system everywhere; random systems and witnesses
 * written and read back with the readers are the ones written; a gadget
 * circuit's files are consistent (the witness read back satisfies the
 * system read back); bad arguments are refused and leave no file. */
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

#include "formats/circom_r1cs.h"
#include "formats/circom_wtns.h"
#include "gadgets/cs.h"
#include "gadgets/poseidon.h"
#include "seed.h"

#define FIX CUZK_VECTOR_DIR "/../fixtures/circom/"

static char msg[512];
static char dir[64];
static rng_t rng;

static void expect_ok(cuzk_status st)
{
    if (st != CUZK_OK)
        fail_msg("status %s: %s", cuzk_status_str(st), msg);
}

static int make_dir(void **state)
{
    (void)state;
    snprintf(dir, sizeof(dir), "/tmp/cuzk-circom-write-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int remove_dir(void **state)
{
    (void)state;
    return rmdir(dir);
}

static void tmp_path(char *out, size_t len, const char *name)
{
    snprintf(out, len, "%s/%s", dir, name);
}

static uint8_t *read_all(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *d = malloc(n > 0 ? (size_t)n : 1);
    assert_non_null(d);
    assert_int_equal(fread(d, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *size = (size_t)n;
    return d;
}

static bool same_file(const char *a, const char *b)
{
    size_t na, nb;
    uint8_t *da = read_all(a, &na), *db = read_all(b, &nb);
    bool same = na == nb && memcmp(da, db, na) == 0;
    free(da);
    free(db);
    return same;
}

static bool file_exists(const char *path)
{
    return access(path, F_OK) == 0;
}

/* The same rows, columns and coefficient values (the tables may number the
 * values differently). */
static void assert_r1cs_equal(const r1cs_t *x, const r1cs_t *y)
{
    assert_int_equal(x->num_constraints, y->num_constraints);
    assert_int_equal(x->num_inputs, y->num_inputs);
    assert_int_equal(x->num_aux, y->num_aux);
    const r1cs_matrix *mx[3] = {&x->a, &x->b, &x->c}, *my[3] = {&y->a, &y->b, &y->c};
    for (int k = 0; k < 3; k++) {
        assert_int_equal(mx[k]->nnz, my[k]->nnz);
        assert_memory_equal(mx[k]->row_ptr, my[k]->row_ptr,
                            (x->num_constraints + 1) * sizeof(uint64_t));
        if (mx[k]->nnz)
            assert_memory_equal(mx[k]->col, my[k]->col, mx[k]->nnz * sizeof(uint32_t));
        for (uint64_t t = 0; t < mx[k]->nnz; t++)
            assert_true(fr_eq(&x->coeffs[r1cs_coeff_at(x, mx[k], t)],
                              &y->coeffs[r1cs_coeff_at(y, my[k], t)]));
    }
}

static circom_r1cs_wires wires_of(const circom_r1cs_header *h, const uint64_t *labels)
{
    return (circom_r1cs_wires){.num_pub_out = h->num_pub_out,
                               .num_pub_in = h->num_pub_in,
                               .num_prv_in = h->num_prv_in,
                               .labels = labels,
                               .num_labels = h->num_labels};
}

/* A fixture read, written and read again: the same header, labels and
 * system; byte for byte when circom wrote every term list sorted. */
static void roundtrip_r1cs(const char *name, bool same_bytes)
{
    char src[512], dst[256];
    snprintf(src, sizeof(src), FIX "%s", name);
    tmp_path(dst, sizeof(dst), name);
    r1cs_t r, r2;
    circom_r1cs_header h, h2;
    uint64_t *labels, *labels2;
    expect_ok(circom_r1cs_load(&r, &h, &labels, src, 1, msg, sizeof(msg)));
    assert_non_null(labels);
    circom_r1cs_wires io = wires_of(&h, labels);
    expect_ok(circom_r1cs_save(&r, &io, dst, msg, sizeof(msg)));
    expect_ok(circom_r1cs_load(&r2, &h2, &labels2, dst, 2, msg, sizeof(msg)));
    assert_memory_equal(&h, &h2, sizeof(h));
    assert_memory_equal(labels, labels2, h.num_wires * sizeof(uint64_t));
    assert_r1cs_equal(&r, &r2);
    if (same_bytes && !same_file(src, dst))
        fail_msg("%s: written again, the bytes differ", name);
    unlink(dst);
    r1cs_free(&r);
    r1cs_free(&r2);
    free(labels);
    free(labels2);
}

static void test_fixture_r1cs(void **state)
{
    (void)state;
    roundtrip_r1cs("chain_bls12381.r1cs", true);
    roundtrip_r1cs("manypub_bls12381.r1cs", true);
    /* circom leaves some of this circuit's term lists unsorted (72 of
     * 1,440), which the format asks to be sorted: the same system, other
     * bytes. */
    roundtrip_r1cs("poseidon_bls12381.r1cs", false);
}

static void test_fixture_wtns(void **state)
{
    (void)state;
    const char *names[] = {"chain_bls12381.wtns", "chain_bls12381_2.wtns", "manypub_bls12381.wtns",
                           "poseidon_bls12381.wtns"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        char src[512], dst[256];
        snprintf(src, sizeof(src), FIX "%s", names[i]);
        tmp_path(dst, sizeof(dst), names[i]);
        fr_t *w;
        uint64_t n;
        expect_ok(circom_wtns_load(&w, &n, src, msg, sizeof(msg)));
        expect_ok(circom_wtns_save(w, n, dst, msg, sizeof(msg)));
        if (!same_file(src, dst))
            fail_msg("%s: written again, the bytes differ", names[i]);
        unlink(dst);
        free(w);
    }
}

/* A random system of `rows` rows over the given variables: each of A, B, C
 * gets 0 to 4 terms a row, coefficients ±1, small, or random (with `wide`,
 * random enough of them that the table needs 4-byte indices). */
static void random_system(r1cs_t *r, uint64_t rows, uint64_t num_inputs, uint64_t num_aux,
                          bool wide)
{
    uint64_t nv = num_inputs + num_aux, cap = rows * 12 + 1, n = 0;
    r1cs_entry *e = malloc(cap * sizeof(r1cs_entry));
    assert_non_null(e);
    for (uint64_t row = 0; row < rows; row++) {
        for (uint32_t m = 0; m < 3; m++) {
            unsigned terms = wide && m == 0 ? 1 : (unsigned)(rng_u64(&rng) % 5);
            for (unsigned t = 0; t < terms; t++) {
                r1cs_entry *x = &e[n++];
                x->matrix = m;
                x->row = (uint32_t)row;
                x->col = (uint32_t)(rng_u64(&rng) % nv);
                switch (wide ? 3 : rng_u64(&rng) % 4) {
                case 0:
                    x->value = FR_ONE;
                    break;
                case 1:
                    fr_neg(&x->value, &FR_ONE);
                    break;
                case 2:
                    fr_from_u64(&x->value, 2 + rng_u64(&rng) % 1000);
                    break;
                default:
                    fr_random(&x->value, &rng);
                    break;
                }
            }
        }
    }
    expect_ok(r1cs_from_entries(r, e, n, rows, num_inputs, num_aux, msg, sizeof(msg)));
    free(e);
}

static void test_random_r1cs(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("circom_write_random_r1cs"));
    char path[256];
    tmp_path(path, sizeof(path), "random.r1cs");
    int iters = test_iters(20);
    for (int it = 0; it <= iters; it++) {
        bool wide = it == iters; /* the last one: 4-byte coefficient indices */
        uint64_t rows = wide ? 70000 : 1 + rng_u64(&rng) % 200;
        uint32_t out = (uint32_t)(rng_u64(&rng) % 4), in = (uint32_t)(rng_u64(&rng) % 4);
        uint64_t aux = rng_u64(&rng) % 50;
        uint32_t prv = aux ? (uint32_t)(rng_u64(&rng) % (aux + 1)) : 0;
        r1cs_t r, r2;
        random_system(&r, rows, 1 + out + in, aux, wide);
        if (wide)
            assert_int_equal(r.coeff_width, 4);
        uint64_t nw = r1cs_num_vars(&r);
        /* Labels with gaps (circom numbers every signal, wires only the
         * ones left after simplification), or none. */
        uint64_t *labels = NULL, num_labels = nw;
        if (rng_u64(&rng) % 2) {
            labels = malloc(nw * sizeof(uint64_t));
            labels[0] = 0;
            for (uint64_t i = 1; i < nw; i++)
                labels[i] = labels[i - 1] + 1 + rng_u64(&rng) % 3;
            num_labels = labels[nw - 1] + 1 + rng_u64(&rng) % 5;
        }
        circom_r1cs_wires io = {out, in, prv, labels, num_labels};
        expect_ok(circom_r1cs_save(&r, &io, path, msg, sizeof(msg)));
        circom_r1cs_header h;
        uint64_t *labels2;
        expect_ok(circom_r1cs_load(&r2, &h, &labels2, path, 2, msg, sizeof(msg)));
        assert_int_equal(h.n8, 32);
        assert_int_equal(h.num_wires, nw);
        assert_int_equal(h.num_pub_out, out);
        assert_int_equal(h.num_pub_in, in);
        assert_int_equal(h.num_prv_in, prv);
        assert_int_equal(h.num_labels, num_labels);
        assert_int_equal(h.num_constraints, rows);
        for (uint64_t i = 0; i < nw; i++)
            assert_int_equal(labels2[i], labels ? labels[i] : i);
        assert_r1cs_equal(&r, &r2);
        r1cs_free(&r);
        r1cs_free(&r2);
        free(labels);
        free(labels2);
    }
    unlink(path);
}

static void test_random_wtns(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("circom_write_random_wtns"));
    char path[256];
    tmp_path(path, sizeof(path), "random.wtns");
    /* Sizes around the writer's 4,096-value chunks. */
    const uint64_t sizes[] = {1, 2, 4095, 4096, 4097, 10000};
    for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
        uint64_t n = sizes[s];
        fr_t *w = malloc(n * sizeof(fr_t));
        w[0] = FR_ONE;
        for (uint64_t i = 1; i < n; i++) {
            if (i % 7 == 0)
                fr_neg(&w[i], &FR_ONE); /* r - 1, the largest value */
            else if (i % 5 == 0)
                w[i] = FR_ZERO;
            else
                fr_random(&w[i], &rng);
        }
        expect_ok(circom_wtns_save(w, n, path, msg, sizeof(msg)));
        size_t size;
        uint8_t *d = read_all(path, &size);
        assert_int_equal(size, 12 + 12 + 40 + 12 + 32 * n);
        assert_memory_equal(d, "wtns\x02\x00\x00\x00\x02\x00\x00\x00", 12);
        free(d);
        fr_t *w2;
        uint64_t n2;
        expect_ok(circom_wtns_load(&w2, &n2, path, msg, sizeof(msg)));
        assert_int_equal(n2, n);
        assert_memory_equal(w, w2, n * sizeof(fr_t));
        free(w);
        free(w2);
    }
    unlink(path);
}

/* A circuit from the gadgets, in the wire order circom uses: a public
 * output (the hash), a public input (y), a private input (x), then the
 * rest. The witness read back satisfies the system read back. */
static void test_gadget_circuit(void **state)
{
    (void)state;
    fr_t x, y, hv, in2[2];
    fr_from_u64(&x, 173);
    fr_from_u64(&y, 19);
    in2[0] = x;
    in2[1] = y;
    poseidon_hash(&hv, in2, 2);
    r1cs_builder *b;
    unsigned flags = R1CS_BUILD_SHAPE | R1CS_BUILD_VALUES;
    expect_ok(r1cs_builder_new(&b, flags));
    gadget_cs cs;
    gcs_init(&cs, b, flags);
    gnum out, gy, in[2], h;
    gnum_init(&out), gnum_init(&gy), gnum_init(&in[0]), gnum_init(&in[1]), gnum_init(&h);
    gnum_alloc_input(&cs, &out, &hv);
    gnum_alloc_input(&cs, &gy, &y);
    gnum_alloc(&cs, &in[0], &x);
    gnum_copy(&cs, &in[1], &gy);
    poseidon_gadget_hash(&cs, &h, in, 2);
    gnum_enforce_equal(&cs, &h, &out);
    expect_ok(gcs_status(&cs));
    r1cs_t r, r2;
    fr_t *w, *w2;
    uint64_t n, n2;
    expect_ok(gcs_compile_with_witness(b, &r, &w, &n, 1));
    uint64_t bad;
    assert_true(r1cs_is_satisfied(&r, w, &bad, 1));

    char rpath[256], wpath[256];
    tmp_path(rpath, sizeof(rpath), "gadget.r1cs");
    tmp_path(wpath, sizeof(wpath), "gadget.wtns");
    circom_r1cs_wires io = {.num_pub_out = 1, .num_pub_in = 1, .num_prv_in = 1};
    expect_ok(circom_r1cs_save(&r, &io, rpath, msg, sizeof(msg)));
    expect_ok(circom_wtns_save(w, n, wpath, msg, sizeof(msg)));
    circom_r1cs_header hdr;
    expect_ok(circom_r1cs_load(&r2, &hdr, NULL, rpath, 1, msg, sizeof(msg)));
    expect_ok(circom_wtns_load(&w2, &n2, wpath, msg, sizeof(msg)));
    assert_r1cs_equal(&r, &r2);
    assert_int_equal(n2, hdr.num_wires);
    assert_true(r1cs_is_satisfied(&r2, w2, &bad, 1));
    assert_true(fr_eq(&w2[1], &hv)); /* the output first, then y, then x */
    assert_true(fr_eq(&w2[2], &y));
    assert_true(fr_eq(&w2[3], &x));
    unlink(rpath);
    unlink(wpath);
    free(w);
    free(w2);
    r1cs_free(&r);
    r1cs_free(&r2);
    gnum_free(&out), gnum_free(&gy), gnum_free(&in[0]), gnum_free(&in[1]), gnum_free(&h);
    gcs_free(&cs);
    r1cs_builder_free(b);
}

static void test_refusals(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("circom_write_refusals"));
    char path[256];
    tmp_path(path, sizeof(path), "refused.r1cs");
    r1cs_t r;
    random_system(&r, 10, 3, 5, false); /* ONE and 2 public, 5 aux */
    circom_r1cs_wires io = {.num_pub_out = 1, .num_pub_in = 2, .num_prv_in = 0};
    assert_int_equal(circom_r1cs_save(&r, &io, path, msg, sizeof(msg)), CUZK_ERR_INVALID_ARGUMENT);
    io = (circom_r1cs_wires){.num_pub_out = 1, .num_pub_in = 1, .num_prv_in = 6};
    assert_int_equal(circom_r1cs_save(&r, &io, path, msg, sizeof(msg)), CUZK_ERR_INVALID_ARGUMENT);
    uint64_t labels[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    io = (circom_r1cs_wires){1, 1, 1, labels, 7}; /* label 7 not below 7 */
    assert_int_equal(circom_r1cs_save(&r, &io, path, msg, sizeof(msg)), CUZK_ERR_INVALID_ARGUMENT);
    labels[0] = 1;
    io.num_labels = 8;
    assert_int_equal(circom_r1cs_save(&r, &io, path, msg, sizeof(msg)), CUZK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(msg, "label 0"));
    assert_false(file_exists(path));
    /* A folder that does not exist: an I/O error naming the file. */
    io = (circom_r1cs_wires){1, 1, 1, NULL, 0};
    char bad[300];
    snprintf(bad, sizeof(bad), "%s/none/x.r1cs", dir);
    assert_int_equal(circom_r1cs_save(&r, &io, bad, msg, sizeof(msg)), CUZK_ERR_IO);
    assert_non_null(strstr(msg, "none/x.r1cs"));
    r1cs_free(&r);

    fr_t w[3] = {FR_ONE, FR_ONE, FR_ZERO};
    tmp_path(path, sizeof(path), "refused.wtns");
    w[0] = FR_ZERO;
    assert_int_equal(circom_wtns_save(w, 3, path, msg, sizeof(msg)), CUZK_ERR_INVALID_ARGUMENT);
    assert_int_equal(circom_wtns_save(w, 0, path, msg, sizeof(msg)), CUZK_ERR_INVALID_ARGUMENT);
    assert_false(file_exists(path));
    w[0] = FR_ONE;
    snprintf(bad, sizeof(bad), "%s/none/x.wtns", dir);
    assert_int_equal(circom_wtns_save(w, 3, bad, msg, sizeof(msg)), CUZK_ERR_IO);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixture_r1cs),   cmocka_unit_test(test_fixture_wtns),
        cmocka_unit_test(test_random_r1cs),    cmocka_unit_test(test_random_wtns),
        cmocka_unit_test(test_gadget_circuit), cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
