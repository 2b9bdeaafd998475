/* r1cs_from_entries: random entries in random order (duplicates, values
 * that cancel, zeros) give a system that validates and whose products equal
 * the entries summed one by one; entries outside the system are refused
 * with a message naming them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "r1cs/r1cs.h"
#include "seed.h"
#include "util/rng.h"

static rng_t rng;
static char msg[256];

static uint64_t rnd(uint64_t n)
{
    return rng_u64(&rng) % n;
}

static void test_random_entries(void **state)
{
    (void)state;
    for (int round = 0; round < 20; round++) {
        uint64_t rows = 1 + rnd(200), ni = 1 + rnd(5), na = rnd(300), nv = ni + na;
        uint64_t n = rnd(2000);
        r1cs_entry *e = malloc(sizeof(r1cs_entry) * (2 * n + 1));
        assert_non_null(e);
        uint64_t k = 0;
        for (uint64_t i = 0; i < n; i++) {
            e[k].matrix = (uint32_t)rnd(3);
            e[k].row = (uint32_t)rnd(rows);
            e[k].col = (uint32_t)rnd(nv);
            switch (rnd(4)) {
            case 0:
                fr_from_u64(&e[k].value, 1);
                break;
            case 1:
                e[k].value = FR_ZERO; /* dropped */
                break;
            default:
                fr_random(&e[k].value, &rng);
            }
            k++;
            if (rnd(5) == 0) { /* the same place again, cancelling */
                e[k] = e[k - 1];
                fr_neg(&e[k].value, &e[k - 1].value);
                k++;
            }
        }
        /* shuffle */
        for (uint64_t i = k; i > 1; i--) {
            uint64_t j = rnd(i);
            r1cs_entry t = e[i - 1];
            e[i - 1] = e[j];
            e[j] = t;
        }
        r1cs_t r;
        if (r1cs_from_entries(&r, e, k, rows, ni, na, msg, sizeof(msg)) != CUZK_OK)
            fail_msg("round %d: %s", round, msg);
        if (r1cs_validate(&r, 2, msg, sizeof(msg)) != CUZK_OK)
            fail_msg("round %d: the built system does not validate: %s", round, msg);
        fr_t *w = malloc(sizeof(fr_t) * nv), *got = malloc(sizeof(fr_t) * 3 * rows),
             *want = calloc(3 * rows, sizeof(fr_t));
        assert_true(w && got && want);
        fr_from_u64(&w[0], 1);
        for (uint64_t i = 1; i < nv; i++)
            if (rnd(3) == 0)
                fr_random(&w[i], &rng);
            else
                fr_from_u64(&w[i], rnd(2));
        for (uint64_t i = 0; i < k; i++) {
            fr_t t;
            fr_mul(&t, &e[i].value, &w[e[i].col]);
            fr_add(&want[e[i].matrix * rows + e[i].row], &want[e[i].matrix * rows + e[i].row], &t);
        }
        r1cs_eval(&r, w, got, got + rows, got + 2 * rows, 2);
        for (uint64_t i = 0; i < 3 * rows; i++)
            if (!fr_eq(&got[i], &want[i]))
                fail_msg("round %d: matrix %llu row %llu differs", round,
                         (unsigned long long)(i / rows), (unsigned long long)(i % rows));
        free(w);
        free(got);
        free(want);
        free(e);
        r1cs_free(&r);
    }
}

static void test_out_of_range(void **state)
{
    (void)state;
    r1cs_entry e[2] = {{.matrix = 0, .row = 0, .col = 1}, {.matrix = 1, .row = 3, .col = 0}};
    fr_from_u64(&e[0].value, 5);
    fr_from_u64(&e[1].value, 7);
    r1cs_t r;
    assert_int_equal(r1cs_from_entries(&r, e, 2, 3, 1, 1, msg, sizeof(msg)),
                     CUZK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(msg, "entry 1"));
    e[1].row = 0;
    e[1].col = 2; /* two variables: column 2 is outside */
    assert_int_equal(r1cs_from_entries(&r, e, 2, 3, 1, 1, msg, sizeof(msg)),
                     CUZK_ERR_INVALID_ARGUMENT);
    e[1].col = 0;
    e[1].matrix = 3;
    assert_int_equal(r1cs_from_entries(&r, e, 2, 3, 1, 1, msg, sizeof(msg)),
                     CUZK_ERR_INVALID_ARGUMENT);
    e[1].matrix = 2;
    assert_int_equal(r1cs_from_entries(&r, e, 2, 3, 1, 1, msg, sizeof(msg)), CUZK_OK);
    assert_int_equal(r.a.nnz + r.b.nnz + r.c.nnz, 2);
    r1cs_free(&r);
}

int main(void)
{
    rng_seed(&rng, test_seed("test_r1cs_entries"));
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_entries),
        cmocka_unit_test(test_out_of_range),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
