/* The constraint-system builder: linear combinations, modes, errors,
 * renumbering, the 4-byte coefficient width, bellman's input rows. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "r1cs/builder.h"
#include "r1cs/density.h"
#include "seed.h"

static rng_t rng;

static void test_lc_normalize(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("r1cs_lc_normalize"));
    for (int it = 0; it < test_iters(200); it++) {
        lc_t lc;
        lc_init(&lc);
        fr_t in[4], aux[8], before, after;
        for (int i = 0; i < 4; i++)
            fr_random(&in[i], &rng);
        for (int i = 0; i < 8; i++)
            fr_random(&aux[i], &rng);
        size_t n = rng_u64(&rng) % 40;
        for (size_t t = 0; t < n; t++) {
            fr_t c;
            fr_random(&c, &rng);
            r1cs_var v = (r1cs_var)(rng_u64(&rng) % 4);
            if (rng_u64(&rng) & 1)
                v = (r1cs_var)(rng_u64(&rng) % 8) | R1CS_VAR_AUX;
            switch (rng_u64(&rng) % 5) {
            case 0:
                lc_add_term(&lc, v, &c);
                break;
            case 1:
                lc_add_one_term(&lc, v);
                break;
            case 2:
                lc_sub_term(&lc, v, &c);
                break;
            case 3:
                lc_sub_one_term(&lc, v);
                break;
            default:
                lc_add_constant(&lc, &c);
                break;
            }
        }
        lc_eval(&before, &lc, in, aux);
        lc_normalize(&lc);
        lc_eval(&after, &lc, in, aux);
        assert_true(fr_eq(&before, &after));
        for (size_t t = 0; t < lc.len; t++) {
            assert_false(fr_is_zero(&lc.terms[t].coeff));
            if (t)
                assert_true(lc.terms[t - 1].var < lc.terms[t].var);
        }
        /* add_lc, scaled, and onto itself */
        lc_t other;
        lc_init(&other);
        fr_t s, x, y;
        fr_random(&s, &rng);
        lc_add_lc(&other, &lc, &s);
        lc_eval(&x, &other, in, aux);
        fr_mul(&y, &after, &s);
        assert_true(fr_eq(&x, &y));
        lc_add_lc(&other, &other, NULL); /* doubles */
        lc_eval(&x, &other, in, aux);
        fr_add(&y, &y, &y);
        assert_true(fr_eq(&x, &y));
        lc_free(&other);
        lc_free(&lc);
    }
    /* x - x vanishes */
    lc_t lc;
    lc_init(&lc);
    lc_add_one_term(&lc, 5 | R1CS_VAR_AUX);
    lc_sub_one_term(&lc, 5 | R1CS_VAR_AUX);
    lc_normalize(&lc);
    assert_int_equal(lc.len, 0);
    lc_free(&lc);
}

static void test_modes_and_errors(void **state)
{
    (void)state;
    r1cs_builder *b;
    assert_int_equal(r1cs_builder_new(&b, 0), CUZK_ERR_INVALID_ARGUMENT);
    assert_null(b);
    assert_int_equal(r1cs_builder_new(&b, 8), CUZK_ERR_INVALID_ARGUMENT);

    /* shape only: values may be NULL; no assignment */
    assert_int_equal(r1cs_builder_new(&b, R1CS_BUILD_SHAPE), CUZK_OK);
    r1cs_var x, y;
    assert_int_equal(r1cs_alloc_aux(b, &x, NULL), CUZK_OK);
    assert_int_equal(r1cs_alloc_input(b, &y, NULL), CUZK_OK);
    assert_int_equal(x, R1CS_VAR_AUX | 0);
    assert_int_equal(y, 1);
    assert_null(r1cs_builder_value(b, x));
    fr_t w[3];
    assert_int_equal(r1cs_builder_assignment(b, w, 3), CUZK_ERR_INVALID_ARGUMENT);
    lc_t A, B, C;
    lc_init(&A);
    lc_init(&B);
    lc_init(&C);
    lc_add_one_term(&A, x), lc_add_one_term(&B, x), lc_add_one_term(&C, x);
    assert_int_equal(r1cs_enforce(b, &A, &B, &C), CUZK_OK);
    /* the same list in all three places */
    assert_int_equal(r1cs_enforce(b, &A, &A, &A), CUZK_OK);
    assert_int_equal(r1cs_builder_num_constraints(b), 2);
    /* a handle never allocated: the error sticks */
    lc_add_one_term(&C, 7 | R1CS_VAR_AUX);
    assert_int_equal(r1cs_enforce(b, &A, &B, &C), CUZK_ERR_INVALID_ARGUMENT);
    assert_int_equal(r1cs_builder_status(b), CUZK_ERR_INVALID_ARGUMENT);
    assert_int_equal(r1cs_alloc_aux(b, &x, NULL), CUZK_ERR_INVALID_ARGUMENT);
    assert_int_equal(r1cs_builder_num_constraints(b), 2);
    r1cs_t r;
    assert_int_equal(r1cs_builder_compile(&r, b, 1), CUZK_ERR_INVALID_ARGUMENT);
    r1cs_builder_free(b);

    /* many at once, shape only: the next handles, up to the limit */
    assert_int_equal(r1cs_builder_new(&b, R1CS_BUILD_SHAPE), CUZK_OK);
    assert_int_equal(r1cs_alloc_many(b, 5, true), CUZK_OK);
    assert_int_equal(r1cs_alloc_many(b, 2, false), CUZK_OK);
    assert_int_equal(r1cs_builder_num_aux(b), 5);
    assert_int_equal(r1cs_builder_num_inputs(b), 3);
    assert_int_equal(r1cs_alloc_aux(b, &x, NULL), CUZK_OK);
    assert_int_equal(x, R1CS_VAR_AUX | 5);
    assert_int_equal(r1cs_alloc_many(b, R1CS_VAR_INDEX_MASK, true), CUZK_ERR_UNSUPPORTED);
    r1cs_builder_free(b);
    assert_int_equal(r1cs_builder_new(&b, R1CS_BUILD_SHAPE | R1CS_BUILD_VALUES), CUZK_OK);
    assert_int_equal(r1cs_alloc_many(b, 1, true), CUZK_ERR_INVALID_ARGUMENT);
    r1cs_builder_free(b);

    /* values: required; an out-of-memory list fails the enforce */
    assert_int_equal(r1cs_builder_new(&b, R1CS_BUILD_SHAPE | R1CS_BUILD_VALUES), CUZK_OK);
    assert_int_equal(r1cs_alloc_aux(b, &x, NULL), CUZK_ERR_INVALID_ARGUMENT);
    r1cs_builder_free(b);
    assert_int_equal(r1cs_builder_new(&b, R1CS_BUILD_SHAPE | R1CS_BUILD_VALUES), CUZK_OK);
    lc_clear(&A), lc_clear(&B), lc_clear(&C);
    A.oom = true;
    assert_int_equal(r1cs_enforce(b, &A, &B, &C), CUZK_ERR_OUT_OF_MEMORY);
    r1cs_builder_free(b);

    /* values only: enforce is free, compile refused, assignment works */
    assert_int_equal(r1cs_builder_new(&b, R1CS_BUILD_VALUES), CUZK_OK);
    fr_t v3;
    fr_from_u64(&v3, 3);
    assert_int_equal(r1cs_alloc_aux(b, &x, &v3), CUZK_OK);
    assert_int_equal(r1cs_alloc_input(b, &y, &FR_ONE), CUZK_OK);
    lc_clear(&A), lc_clear(&B), lc_clear(&C);
    lc_add_one_term(&A, x);
    assert_int_equal(r1cs_enforce(b, &A, &B, &C), CUZK_OK);
    assert_int_equal(r1cs_builder_num_constraints(b), 0);
    assert_int_equal(r1cs_builder_compile(&r, b, 1), CUZK_ERR_INVALID_ARGUMENT);
    assert_int_equal(r1cs_builder_assignment(b, w, 2), CUZK_ERR_INVALID_ARGUMENT);
    assert_int_equal(r1cs_builder_assignment(b, w, 3), CUZK_OK);
    assert_true(fr_is_one(&w[0]) && fr_is_one(&w[1]) && fr_eq(&w[2], &v3));
    assert_true(fr_eq(r1cs_builder_value(b, x), &v3));
    assert_null(r1cs_builder_value(b, 1 | R1CS_VAR_AUX));
    r1cs_builder_free(b);
    lc_free(&A), lc_free(&B), lc_free(&C);
}

static void test_compile_and_input_rows(void **state)
{
    (void)state;
    r1cs_builder *b;
    assert_int_equal(r1cs_builder_new(&b, R1CS_BUILD_SHAPE), CUZK_OK);
    r1cs_var aux[3], in[2];
    for (int i = 0; i < 3; i++)
        assert_int_equal(r1cs_alloc_aux(b, &aux[i], NULL), CUZK_OK);
    for (int i = 0; i < 2; i++)
        assert_int_equal(r1cs_alloc_input(b, &in[i], NULL), CUZK_OK);
    lc_t A, B, C;
    lc_init(&A);
    lc_init(&B);
    lc_init(&C);
    fr_t two;
    fr_from_u64(&two, 2);
    /* A = aux2 + in1 - aux0 + 2·aux2 ; B = ONE ; C = -in0 */
    lc_add_one_term(&A, aux[2]);
    lc_add_one_term(&A, in[1]);
    lc_sub_one_term(&A, aux[0]);
    lc_add_term(&A, aux[2], &two);
    lc_add_one_term(&B, R1CS_ONE);
    lc_sub_one_term(&C, in[0]);
    assert_int_equal(r1cs_enforce(b, &A, &B, &C), CUZK_OK);
    assert_int_equal(r1cs_builder_enforce_input_rows(b), CUZK_OK);
    r1cs_t r;
    assert_int_equal(r1cs_builder_compile(&r, b, 1), CUZK_OK);
    /* the builder takes nothing more */
    assert_int_equal(r1cs_enforce(b, &A, &B, &C), CUZK_ERR_INVALID_ARGUMENT);
    assert_int_equal(r.num_constraints, 4); /* one + three inputs (ONE, in0, in1) */
    assert_int_equal(r.num_inputs, 3);
    assert_int_equal(r.num_aux, 3);
    assert_int_equal(r1cs_validate(&r, 1, NULL, 0), CUZK_OK);
    /* row 0 of A: in1 (col 2), aux0 (col 3, -1), aux2 (col 5, 3) */
    assert_int_equal(r.a.row_ptr[1], 3);
    assert_int_equal(r.a.col[0], 2);
    assert_int_equal(r.a.col[1], 3);
    assert_int_equal(r.a.col[2], 5);
    assert_int_equal(r1cs_coeff_at(&r, &r.a, 0), R1CS_COEFF_ONE);
    assert_int_equal(r1cs_coeff_at(&r, &r.a, 1), R1CS_COEFF_MINUS_ONE);
    fr_t three;
    fr_from_u64(&three, 3);
    assert_true(fr_eq(&r.coeffs[r1cs_coeff_at(&r, &r.a, 2)], &three));
    assert_int_equal(r.c.col[0], 1);
    assert_int_equal(r1cs_coeff_at(&r, &r.c, 0), R1CS_COEFF_MINUS_ONE);
    /* input rows: A = input i, B = C = 0 */
    for (uint64_t i = 0; i < 3; i++) {
        assert_int_equal(r.a.row_ptr[2 + i] - r.a.row_ptr[1 + i], 1);
        assert_int_equal(r.a.col[r.a.row_ptr[1 + i]], i);
        assert_int_equal(r.b.row_ptr[2 + i], r.b.row_ptr[1 + i]);
    }
    r1cs_density_t d;
    assert_int_equal(r1cs_density(&d, &r, 1), CUZK_OK);
    assert_int_equal(d.a_aux_count, 2);   /* aux0, aux2 */
    assert_int_equal(d.b_input_count, 1); /* ONE */
    assert_int_equal(d.b_aux_count, 0);
    assert_true(r1cs_bit(d.a_aux, 0) && !r1cs_bit(d.a_aux, 1) && r1cs_bit(d.a_aux, 2));
    assert_true(r1cs_bit(d.b_input, 0));
    r1cs_density_free(&d);
    r1cs_free(&r);
    r1cs_free(&r); /* freeing twice is harmless */
    r1cs_builder_free(b);
    lc_free(&A), lc_free(&B), lc_free(&C);
}

/* More than 65,536 distinct coefficients switch the indices to 4 bytes. */
static void test_wide_coefficients(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("r1cs_wide_coefficients"));
    r1cs_builder *b;
    assert_int_equal(r1cs_builder_new(&b, R1CS_BUILD_SHAPE | R1CS_BUILD_VALUES), CUZK_OK);
    enum { ROWS = 70000 };
    r1cs_var x;
    fr_t vx;
    fr_random(&vx, &rng);
    assert_int_equal(r1cs_alloc_aux(b, &x, &vx), CUZK_OK);
    fr_t *coeff = malloc(ROWS * sizeof(fr_t));
    lc_t A, B, C;
    lc_init(&A);
    lc_init(&B);
    lc_init(&C);
    for (int i = 0; i < ROWS; i++) {
        fr_from_u64(&coeff[i], 1000 + (uint64_t)i);
        lc_clear(&A), lc_clear(&B), lc_clear(&C);
        lc_add_term(&A, x, &coeff[i]);
        lc_add_one_term(&B, R1CS_ONE);
        lc_add_term(&C, x, &coeff[i]);
        assert_int_equal(r1cs_enforce(b, &A, &B, &C), CUZK_OK);
    }
    r1cs_t r;
    assert_int_equal(r1cs_builder_compile(&r, b, 2), CUZK_OK);
    assert_int_equal(r.coeff_width, 4);
    assert_int_equal(r.num_coeffs, ROWS + 2);
    assert_int_equal(r1cs_validate(&r, 2, NULL, 0), CUZK_OK);
    fr_t w[2] = {FR_ONE, vx};
    fr_t *a = malloc(ROWS * sizeof(fr_t));
    r1cs_eval(&r, w, a, NULL, NULL, 2);
    for (int i = 0; i < ROWS; i++) {
        fr_t e;
        fr_mul(&e, &coeff[i], &vx);
        assert_true(fr_eq(&a[i], &e));
    }
    uint64_t bad;
    assert_true(r1cs_is_satisfied(&r, w, &bad, 2));
    free(a);
    free(coeff);
    r1cs_free(&r);
    r1cs_builder_free(b);
    lc_free(&A), lc_free(&B), lc_free(&C);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lc_normalize),
        cmocka_unit_test(test_modes_and_errors),
        cmocka_unit_test(test_compile_and_input_rows),
        cmocka_unit_test(test_wide_coefficients),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
