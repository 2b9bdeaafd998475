/* Block builders (r1cs_builder_new_block, r1cs_builder_append): a random
 * system synthesized as a prefix and blocks, the blocks in any order,
 * equals the same system synthesized in one builder: the compiled arrays
 * (coefficient table and its order included, the blocks' tables meeting
 * shared values in different orders) and the assignment written in place.
 * And the errors: a block past its slice, blocks that do not follow each
 * other, what a block refuses. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "r1cs/builder.h"
#include "seed.h"
#include "util/rng.h"

enum { SEGMENTS = 9, POOL = 12 };

/* What one segment allocates and enforces, drawn up front so that the
 * bases of every block are known before any is built. */
typedef struct plan {
    uint64_t seed;
    uint32_t inputs, aux, rows;
} plan;

static fr_t pool[POOL]; /* coefficients the segments share, met in random orders */

/* Segment s into b: its variables (values from its own generator, in a
 * random interleaving of inputs and aux), then its rows, whose terms name
 * any variable allocated so far, before the segment or in it. The calls
 * are the same whichever builder receives them. */
static void emit(r1cs_builder *b, const plan *pl, bool values)
{
    rng_t r;
    rng_seed(&r, pl->seed);
    uint32_t in = 0, ax = 0;
    while (in < pl->inputs || ax < pl->aux) {
        bool input = ax == pl->aux || (in < pl->inputs && rng_u64(&r) % 3 == 0);
        fr_t v;
        fr_random(&v, &r);
        r1cs_var x;
        if (input) {
            assert_int_equal(r1cs_alloc_input(b, &x, values ? &v : NULL), CUZK_OK);
            in++;
        } else {
            assert_int_equal(r1cs_alloc_aux(b, &x, values ? &v : NULL), CUZK_OK);
            ax++;
        }
    }
    lc_t lc[3];
    for (int k = 0; k < 3; k++)
        lc_init(&lc[k]);
    for (uint32_t row = 0; row < pl->rows; row++) {
        for (int k = 0; k < 3; k++) {
            lc_clear(&lc[k]);
            unsigned terms = (unsigned)(rng_u64(&r) % 5);
            for (unsigned t = 0; t < terms; t++) {
                uint64_t ni = r1cs_builder_num_inputs(b), na = r1cs_builder_num_aux(b);
                r1cs_var v = (na && rng_u64(&r) % 2) ? (r1cs_var)(rng_u64(&r) % na) | R1CS_VAR_AUX
                                                     : (r1cs_var)(rng_u64(&r) % ni);
                uint64_t c = rng_u64(&r) % (POOL + 2);
                if (c == POOL)
                    lc_add_one_term(&lc[k], v);
                else if (c == POOL + 1)
                    lc_sub_one_term(&lc[k], v);
                else
                    lc_add_term(&lc[k], v, &pool[c]);
            }
        }
        assert_int_equal(r1cs_enforce(b, &lc[0], &lc[1], &lc[2]), CUZK_OK);
    }
    for (int k = 0; k < 3; k++)
        lc_free(&lc[k]);
}

static void same_system(const r1cs_t *x, const r1cs_t *y)
{
    assert_int_equal(x->num_constraints, y->num_constraints);
    assert_int_equal(x->num_inputs, y->num_inputs);
    assert_int_equal(x->num_aux, y->num_aux);
    assert_int_equal(x->coeff_width, y->coeff_width);
    assert_int_equal(x->num_coeffs, y->num_coeffs);
    assert_memory_equal(x->coeffs, y->coeffs, x->num_coeffs * sizeof(fr_t));
    const r1cs_matrix *mx[3] = {&x->a, &x->b, &x->c}, *my[3] = {&y->a, &y->b, &y->c};
    for (int k = 0; k < 3; k++) {
        assert_int_equal(mx[k]->nnz, my[k]->nnz);
        assert_memory_equal(mx[k]->row_ptr, my[k]->row_ptr,
                            (x->num_constraints + 1) * sizeof(uint64_t));
        if (mx[k]->nnz) {
            assert_memory_equal(mx[k]->col, my[k]->col, mx[k]->nnz * sizeof(uint32_t));
            assert_memory_equal(mx[k]->coeff, my[k]->coeff, mx[k]->nnz * x->coeff_width);
        }
    }
}

static void test_blocks_equal_one_builder(void **state)
{
    (void)state;
    rng_t rng;
    rng_seed(&rng, test_seed("r1cs_builder_blocks"));
    for (int it = 0; it < test_iters(20); it++) {
        for (int i = 0; i < POOL; i++)
            fr_random(&pool[i], &rng);
        plan pl[SEGMENTS];
        uint64_t in_base[SEGMENTS + 1], aux_base[SEGMENTS + 1];
        in_base[0] = 1, aux_base[0] = 0;
        for (int s = 0; s < SEGMENTS; s++) {
            pl[s] = (plan){.seed = rng_u64(&rng),
                           .inputs = (uint32_t)(rng_u64(&rng) % 3),
                           .aux = (uint32_t)(rng_u64(&rng) % 20),
                           .rows = (uint32_t)(rng_u64(&rng) % 30)};
            in_base[s + 1] = in_base[s] + pl[s].inputs;
            aux_base[s + 1] = aux_base[s] + pl[s].aux;
        }
        uint64_t ni = in_base[SEGMENTS], n = ni + aux_base[SEGMENTS];

        /* one builder, shape and values */
        r1cs_builder *one;
        assert_int_equal(r1cs_builder_new(&one, R1CS_BUILD_SHAPE | R1CS_BUILD_VALUES), CUZK_OK);
        for (int s = 0; s < SEGMENTS; s++)
            emit(one, &pl[s], true);
        fr_t *want = malloc(n * sizeof(fr_t)), *got = malloc(n * sizeof(fr_t));
        assert_non_null(want);
        assert_non_null(got);
        assert_int_equal(r1cs_builder_assignment(one, want, n), CUZK_OK);
        assert_int_equal(r1cs_builder_enforce_input_rows(one), CUZK_OK);
        r1cs_t ref;
        assert_int_equal(r1cs_builder_compile(&ref, one, 1), CUZK_OK);

        /* segment 0 in the system's builder, the others as blocks built
         * last first, joined in order */
        r1cs_builder *sys, *blk[SEGMENTS] = {NULL};
        assert_int_equal(r1cs_builder_new(&sys, R1CS_BUILD_SHAPE), CUZK_OK);
        emit(sys, &pl[0], false);
        for (int s = SEGMENTS - 1; s >= 1; s--) {
            r1cs_block b = {in_base[s], pl[s].inputs, aux_base[s], pl[s].aux, NULL, 0, 0};
            assert_int_equal(r1cs_builder_new_block(&blk[s], R1CS_BUILD_SHAPE, &b), CUZK_OK);
            emit(blk[s], &pl[s], false);
        }
        assert_int_equal(r1cs_builder_append(sys, blk + 1, SEGMENTS - 1, 3), CUZK_OK);
        assert_int_equal(r1cs_builder_num_inputs(sys), ni);
        assert_int_equal(r1cs_builder_enforce_input_rows(sys), CUZK_OK);
        r1cs_t got_r;
        assert_int_equal(r1cs_builder_compile(&got_r, sys, 2), CUZK_OK);
        same_system(&got_r, &ref);
        /* a joined block is used up */
        r1cs_var x;
        assert_int_equal(r1cs_alloc_aux(blk[1], &x, NULL), CUZK_ERR_INVALID_ARGUMENT);

        /* values: every segment a block writing into w, in any order */
        memset(got, 0xee, n * sizeof(fr_t));
        got[0] = FR_ONE;
        for (int s = SEGMENTS - 1; s >= 0; s--) {
            r1cs_block b = {in_base[s], pl[s].inputs, aux_base[s], pl[s].aux, got, ni, n};
            r1cs_builder *vb;
            assert_int_equal(r1cs_builder_new_block(&vb, R1CS_BUILD_VALUES, &b), CUZK_OK);
            emit(vb, &pl[s], true);
            assert_int_equal(r1cs_builder_status(vb), CUZK_OK);
            r1cs_builder_free(vb);
        }
        assert_memory_equal(got, want, n * sizeof(fr_t));

        for (int s = 1; s < SEGMENTS; s++)
            r1cs_builder_free(blk[s]);
        r1cs_builder_free(sys);
        r1cs_builder_free(one);
        r1cs_free(&ref), r1cs_free(&got_r);
        free(want), free(got);
    }
}

static void test_block_errors(void **state)
{
    (void)state;
    fr_t w[8], v = FR_ONE;
    r1cs_builder *b, *c, *sys;
    r1cs_var x;
    /* inputs start after ONE */
    r1cs_block bad = {0, 1, 0, 1, NULL, 0, 0};
    assert_int_equal(r1cs_builder_new_block(&b, R1CS_BUILD_SHAPE, &bad), CUZK_ERR_INVALID_ARGUMENT);
    assert_int_equal(r1cs_builder_new_block(&b, R1CS_BUILD_SHAPE, NULL), CUZK_ERR_INVALID_ARGUMENT);
    /* VALUES: the slice must lie inside w */
    r1cs_block past = {1, 1, 5, 3, w, 2, 8}; /* aux 5..8 at w[7..10) */
    assert_int_equal(r1cs_builder_new_block(&b, R1CS_BUILD_VALUES, &past),
                     CUZK_ERR_INVALID_ARGUMENT);
    r1cs_block no_w = {1, 1, 0, 1, NULL, 2, 8};
    assert_int_equal(r1cs_builder_new_block(&b, R1CS_BUILD_VALUES, &no_w),
                     CUZK_ERR_INVALID_ARGUMENT);

    /* past its slice: refused, and sticky; nothing written past it */
    r1cs_block one_aux = {1, 0, 2, 1, w, 2, 8};
    memset(w, 0, sizeof w);
    assert_int_equal(r1cs_builder_new_block(&b, R1CS_BUILD_VALUES, &one_aux), CUZK_OK);
    assert_int_equal(r1cs_alloc_aux(b, &x, &v), CUZK_OK);
    assert_int_equal(x, 2 | R1CS_VAR_AUX);
    assert_true(fr_is_one(&w[2 + 2]));
    assert_int_equal(r1cs_alloc_aux(b, &x, &v), CUZK_ERR_INVALID_ARGUMENT);
    assert_true(fr_is_zero(&w[2 + 3]));
    assert_int_equal(r1cs_alloc_input(b, &x, &v), CUZK_ERR_INVALID_ARGUMENT);
    assert_int_equal(r1cs_builder_status(b), CUZK_ERR_INVALID_ARGUMENT);
    /* a block has no assignment of its own */
    assert_int_equal(r1cs_builder_assignment(b, w, 8), CUZK_ERR_INVALID_ARGUMENT);
    r1cs_builder_free(b);

    /* a block does not compile alone, nor take bellman's input rows */
    r1cs_block s1 = {1, 1, 0, 2, NULL, 0, 0};
    assert_int_equal(r1cs_builder_new_block(&b, R1CS_BUILD_SHAPE, &s1), CUZK_OK);
    r1cs_t r;
    assert_int_equal(r1cs_builder_compile(&r, b, 1), CUZK_ERR_INVALID_ARGUMENT);
    assert_int_equal(r1cs_builder_enforce_input_rows(b), CUZK_ERR_INVALID_ARGUMENT);
    r1cs_builder_free(b);

    /* blocks must follow each other: block 1 starts at aux 1, block 0 ends at 2 */
    r1cs_block b0 = {1, 0, 0, 2, NULL, 0, 0}, b1 = {1, 0, 1, 1, NULL, 0, 0};
    assert_int_equal(r1cs_builder_new(&sys, R1CS_BUILD_SHAPE), CUZK_OK);
    assert_int_equal(r1cs_builder_new_block(&b, R1CS_BUILD_SHAPE, &b0), CUZK_OK);
    assert_int_equal(r1cs_builder_new_block(&c, R1CS_BUILD_SHAPE, &b1), CUZK_OK);
    assert_int_equal(r1cs_alloc_aux(b, &x, NULL), CUZK_OK);
    assert_int_equal(r1cs_alloc_aux(b, &x, NULL), CUZK_OK);
    r1cs_builder *pair[2] = {b, c};
    assert_int_equal(r1cs_builder_append(sys, pair, 2, 1), CUZK_ERR_INVALID_ARGUMENT);
    r1cs_builder_free(sys);
    /* the same blocks follow each other once block 0 has allocated only one */
    assert_int_equal(r1cs_builder_new(&sys, R1CS_BUILD_SHAPE), CUZK_OK);
    r1cs_builder_free(b);
    assert_int_equal(r1cs_builder_new_block(&b, R1CS_BUILD_SHAPE, &b0), CUZK_OK);
    assert_int_equal(r1cs_alloc_aux(b, &x, NULL), CUZK_OK);
    pair[0] = b;
    assert_int_equal(r1cs_builder_append(sys, pair, 2, 1), CUZK_OK);
    assert_int_equal(r1cs_builder_num_aux(sys), 1);
    r1cs_builder_free(sys);
    r1cs_builder_free(b);
    r1cs_builder_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_blocks_equal_one_builder),
        cmocka_unit_test(test_block_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
