/* The PoRep-shaped circuit synthesized challenge by challenge on several
 * threads gives exactly what one builder gives: the witness bit for bit
 * (porep_like_witness against porep_like_synthesize in VALUES mode and
 * r1cs_builder_assignment) and the compiled system array for array,
 * coefficient table order included (porep_like_synthesize_shape and
 * builtin_compile against the one-builder path), for Poseidon and SHA
 * labels, arity 2 and 8, one challenge, and challenge counts that are not
 * a multiple of the thread count; threads 1, 2, 3, 7 and seeds from the
 * test seed. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "circuits/builtin.h"
#include "circuits/porep_like.h"
#include "gadgets/cs.h"
#include "seed.h"
#include "util/rng.h"

static const unsigned THREADS[] = {1, 2, 3, 7};
#define NTHREADS (sizeof(THREADS) / sizeof(THREADS[0]))

/* Poseidon and SHA labels, arity 2 and 8, K = 1 and K not a multiple of
 * 2, 3 or 7 (5, 11), a tree so small that indices repeat. */
static const porep_like_params SHAPES[] = {
    {.challenges = 1, .depth = 5, .arity = 2, .parents = 0, .sha_label = false},
    {.challenges = 5, .depth = 4, .arity = 2, .parents = 0, .sha_label = false},
    {.challenges = 11, .depth = 2, .arity = 8, .parents = 0, .sha_label = false},
    {.challenges = 1, .depth = 3, .arity = 2, .parents = 0, .sha_label = true},
    {.challenges = 5, .depth = 2, .arity = 8, .parents = 1, .sha_label = true},
    {.challenges = 4, .depth = 6, .arity = 2, .parents = 2, .sha_label = true},
    {.challenges = 3, .depth = 1, .arity = 2, .parents = 0, .sha_label = true},
};
#define NSHAPES (sizeof(SHAPES) / sizeof(SHAPES[0]))

static void describe(char *out, size_t n, const porep_like_params *p)
{
    snprintf(out, n, "K=%u depth=%u arity=%u parents=%u %s", p->challenges, p->depth, p->arity,
             p->parents, p->sha_label ? "sha" : "poseidon");
}

/* Today's witness: one VALUES builder, then its assignment. */
static fr_t *reference_witness(const porep_like_params *p, uint64_t seed, uint64_t *n)
{
    r1cs_builder *b;
    assert_int_equal(r1cs_builder_new(&b, R1CS_BUILD_VALUES), CUZK_OK);
    assert_int_equal(porep_like_synthesize(b, R1CS_BUILD_VALUES, p, seed), CUZK_OK);
    *n = r1cs_builder_num_inputs(b) + r1cs_builder_num_aux(b);
    fr_t *w = malloc(*n * sizeof(fr_t));
    assert_non_null(w);
    assert_int_equal(r1cs_builder_assignment(b, w, *n), CUZK_OK);
    r1cs_builder_free(b);
    return w;
}

/* The first differing index of two witnesses, or n. */
static uint64_t first_difference(const fr_t *x, const fr_t *y, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        if (memcmp(&x[i], &y[i], sizeof(fr_t)) != 0)
            return i;
    return n;
}

static void test_witness_threads(void **state)
{
    (void)state;
    uint64_t seed = test_seed("porep_like_parallel_witness");
    rng_t rng;
    rng_seed(&rng, seed);
    for (size_t s = 0; s < NSHAPES; s++) {
        const porep_like_params *p = &SHAPES[s];
        char name[96];
        describe(name, sizeof name, p);
        for (int round = 0; round < 2; round++) {
            uint64_t ws = rng_u64(&rng), n;
            fr_t *ref = reference_witness(p, ws, &n);
            fr_t *got = malloc(n * sizeof(fr_t));
            assert_non_null(got);
            for (size_t t = 0; t < NTHREADS; t++) {
                /* garbage first: every value must be written */
                memset(got, 0xa5, n * sizeof(fr_t));
                assert_int_equal(porep_like_witness(got, n, p, ws, THREADS[t]), CUZK_OK);
                uint64_t d = first_difference(got, ref, n);
                if (d != n)
                    fail_msg("%s, witness seed %llu, %u threads: value %llu of %llu differs", name,
                             (unsigned long long)ws, THREADS[t], (unsigned long long)d,
                             (unsigned long long)n);
                /* the engine's entry point is the same function */
                memset(got, 0x5a, n * sizeof(fr_t));
                assert_int_equal(builtin_witness(got, n, p, ws, THREADS[t]), CUZK_OK);
                assert_int_equal(first_difference(got, ref, n), n);
            }
            /* a length other than the circuit's is refused */
            assert_int_equal(porep_like_witness(got, n - 1, p, ws, 2), CUZK_ERR_INVALID_ARGUMENT);
            assert_int_equal(porep_like_witness(NULL, n, p, ws, 2), CUZK_ERR_INVALID_ARGUMENT);
            free(got);
            free(ref);
        }
    }
    porep_like_params bad = {.challenges = 0, .depth = 3, .arity = 2};
    fr_t one;
    assert_int_equal(porep_like_witness(&one, 1, &bad, 1, 2), CUZK_ERR_INVALID_ARGUMENT);
}

static void same_matrix(const r1cs_matrix *x, const r1cs_matrix *y, uint64_t rows, unsigned cw,
                        const char *what)
{
    if (x->nnz != y->nnz)
        fail_msg("%s: nnz %llu vs %llu", what, (unsigned long long)x->nnz,
                 (unsigned long long)y->nnz);
    assert_memory_equal(x->row_ptr, y->row_ptr, (rows + 1) * sizeof(uint64_t));
    assert_memory_equal(x->col, y->col, x->nnz * sizeof(uint32_t));
    assert_memory_equal(x->coeff, y->coeff, x->nnz * cw);
}

/* Every array and count of two compiled systems. */
static void same_system(const r1cs_t *x, const r1cs_t *y, const char *what)
{
    assert_int_equal(x->num_constraints, y->num_constraints);
    assert_int_equal(x->num_inputs, y->num_inputs);
    assert_int_equal(x->num_aux, y->num_aux);
    assert_int_equal(x->coeff_width, y->coeff_width);
    assert_int_equal(x->num_coeffs, y->num_coeffs);
    assert_memory_equal(x->coeffs, y->coeffs, x->num_coeffs * sizeof(fr_t));
    same_matrix(&x->a, &y->a, x->num_constraints, x->coeff_width, what);
    same_matrix(&x->b, &y->b, x->num_constraints, x->coeff_width, what);
    same_matrix(&x->c, &y->c, x->num_constraints, x->coeff_width, what);
}

static void compile_shape(r1cs_t *out, const porep_like_params *p, unsigned threads, bool parallel)
{
    r1cs_builder *b;
    assert_int_equal(r1cs_builder_new(&b, R1CS_BUILD_SHAPE), CUZK_OK);
    if (parallel)
        assert_int_equal(porep_like_synthesize_shape(b, p, threads), CUZK_OK);
    else
        assert_int_equal(porep_like_synthesize(b, R1CS_BUILD_SHAPE, p, 0), CUZK_OK);
    assert_int_equal(r1cs_builder_enforce_input_rows(b), CUZK_OK);
    assert_int_equal(r1cs_builder_compile(out, b, 1), CUZK_OK);
    r1cs_builder_free(b);
}

static void test_shape_threads(void **state)
{
    (void)state;
    uint64_t seed = test_seed("porep_like_parallel_shape");
    for (size_t s = 0; s < NSHAPES; s++) {
        const porep_like_params *p = &SHAPES[s];
        char name[96];
        describe(name, sizeof name, p);
        r1cs_t ref;
        compile_shape(&ref, p, 1, false);
        uint64_t n = r1cs_num_vars(&ref), bad;
        fr_t *w = malloc(n * sizeof(fr_t));
        assert_non_null(w);
        assert_int_equal(porep_like_witness(w, n, p, seed + s, 3), CUZK_OK);
        assert_true(r1cs_is_satisfied(&ref, w, &bad, 2));
        for (size_t t = 0; t < NTHREADS; t++) {
            char what[128];
            snprintf(what, sizeof what, "%s, %u threads", name, THREADS[t]);
            r1cs_t got;
            compile_shape(&got, p, THREADS[t], true);
            same_system(&got, &ref, what);
            r1cs_free(&got);
            assert_int_equal(builtin_compile(&got, p, THREADS[t]), CUZK_OK);
            same_system(&got, &ref, what);
            r1cs_free(&got);
        }
        free(w);
        r1cs_free(&ref);
    }
}

/* The sizes the engine uses, from the parameter search: Poseidon labels
 * at 2^12, SHA labels with several parents at 2^16 and four challenges at
 * 2^21 (the smallest size of more than one SHA challenge). */
static void test_sized_circuits(void **state)
{
    (void)state;
    uint64_t seed = test_seed("porep_like_parallel_sized");
    const size_t logs[] = {12, 16, 21};
    for (size_t i = 0; i < sizeof(logs) / sizeof(logs[0]); i++) {
        porep_like_params p;
        assert_int_equal(porep_like_params_for_constraints(&p, logs[i], 8), CUZK_OK);
        r1cs_t ref, got;
        compile_shape(&ref, &p, 1, false);
        assert_int_equal(builtin_compile(&got, &p, 3), CUZK_OK);
        same_system(&got, &ref, "sized");
        uint64_t n = r1cs_num_vars(&ref), bad;
        fr_t *w1 = malloc(n * sizeof(fr_t)), *w3 = malloc(n * sizeof(fr_t));
        assert_non_null(w1);
        assert_non_null(w3);
        assert_int_equal(porep_like_witness(w1, n, &p, seed + i, 1), CUZK_OK);
        assert_int_equal(porep_like_witness(w3, n, &p, seed + i, 3), CUZK_OK);
        assert_int_equal(first_difference(w1, w3, n), n);
        assert_true(r1cs_is_satisfied(&got, w3, &bad, 2));
        print_message("2^%zu: K=%u parents=%u, %llu rows, %llu coefficients: identical\n", logs[i],
                      p.challenges, p.parents, (unsigned long long)ref.num_constraints,
                      (unsigned long long)ref.num_coeffs);
        free(w1), free(w3);
        r1cs_free(&ref), r1cs_free(&got);
    }
}

static void test_shape_refuses_used_builder(void **state)
{
    (void)state;
    const porep_like_params *p = &SHAPES[1];
    r1cs_builder *b;
    assert_int_equal(r1cs_builder_new(&b, R1CS_BUILD_SHAPE), CUZK_OK);
    r1cs_var x;
    assert_int_equal(r1cs_alloc_aux(b, &x, NULL), CUZK_OK);
    assert_int_equal(porep_like_synthesize_shape(b, p, 2), CUZK_ERR_INVALID_ARGUMENT);
    r1cs_builder_free(b);
    assert_int_equal(porep_like_synthesize_shape(NULL, p, 2), CUZK_ERR_INVALID_ARGUMENT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_witness_threads),
        cmocka_unit_test(test_shape_threads),
        cmocka_unit_test(test_sized_circuits),
        cmocka_unit_test(test_shape_refuses_used_builder),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
