/* The PoRep-shaped benchmark circuit: satisfied at 2^10..2^14 constraints
 * (Poseidon labels) and with SHA-256 labels, deterministic in its seed,
 * public inputs equal to the helper's, the same matrices with and without
 * values, exact counts, and parameter choices near every target. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "circuits/porep_like.h"
#include "gadgets/cs.h"
#include "seed.h"

static rng_t rng;

typedef struct built {
    r1cs_t r;
    fr_t *w;
    uint64_t n;
} built;

static void build(built *out, const porep_like_params *p, uint64_t seed, unsigned flags)
{
    r1cs_builder *b;
    assert_int_equal(r1cs_builder_new(&b, flags), CUZK_OK);
    assert_int_equal(porep_like_synthesize(b, flags, p, seed), CUZK_OK);
    memset(out, 0, sizeof(*out));
    if (flags == (R1CS_BUILD_SHAPE | R1CS_BUILD_VALUES)) {
        assert_int_equal(gcs_compile_with_witness(b, &out->r, &out->w, &out->n, 2), CUZK_OK);
    } else if (flags == R1CS_BUILD_SHAPE) {
        assert_int_equal(r1cs_builder_compile(&out->r, b, 2), CUZK_OK);
    } else {
        out->n = r1cs_builder_num_inputs(b) + r1cs_builder_num_aux(b);
        out->w = malloc(out->n * sizeof(fr_t));
        assert_int_equal(r1cs_builder_assignment(b, out->w, out->n), CUZK_OK);
    }
    r1cs_builder_free(b);
}

static void built_free(built *x)
{
    free(x->w);
    r1cs_free(&x->r);
}

static bool same_matrix(const r1cs_matrix *x, const r1cs_matrix *y, uint64_t rows, unsigned cw)
{
    return x->nnz == y->nnz && memcmp(x->row_ptr, y->row_ptr, (rows + 1) * sizeof(uint64_t)) == 0 &&
           memcmp(x->col, y->col, x->nnz * sizeof(uint32_t)) == 0 &&
           memcmp(x->coeff, y->coeff, x->nnz * cw) == 0;
}

/* Everything the circuit promises, for one parameter set. */
static void check_circuit(const porep_like_params *p, uint64_t seed, int tampers)
{
    built full, shape, vals, again, other;
    build(&full, p, seed, R1CS_BUILD_SHAPE | R1CS_BUILD_VALUES);
    uint64_t n, aux, bad;
    assert_int_equal(porep_like_count(p, &n, &aux), CUZK_OK);
    assert_int_equal(full.r.num_constraints, n);
    assert_int_equal(full.r.num_aux, aux);
    assert_int_equal(full.r.num_inputs, 1 + porep_like_num_inputs(p));
    assert_true(r1cs_is_satisfied(&full.r, full.w, &bad, 2));
    print_message("porep_like K=%u depth=%u arity=%u parents=%u sha=%d: %llu constraints, "
                  "nnz/row A %.2f B %.2f C %.2f\n",
                  p->challenges, p->depth, p->arity, p->parents, p->sha_label,
                  (unsigned long long)n, (double)full.r.a.nnz / (double)n,
                  (double)full.r.b.nnz / (double)n, (double)full.r.c.nnz / (double)n);

    /* public inputs: the helper's, in order */
    uint64_t ni = porep_like_num_inputs(p);
    fr_t *pub = malloc(ni * sizeof(fr_t));
    assert_int_equal(porep_like_public_inputs(pub, ni, p, seed), CUZK_OK);
    for (uint64_t i = 0; i < ni; i++)
        assert_true(fr_eq(&pub[i], &full.w[1 + i]));
    assert_int_equal(porep_like_public_inputs(pub, ni + 1, p, seed), CUZK_ERR_INVALID_ARGUMENT);
    free(pub);

    /* shape only: the same matrices; values only: the same witness */
    build(&shape, p, seed + 1, R1CS_BUILD_SHAPE);
    unsigned cw = full.r.coeff_width;
    assert_int_equal(shape.r.coeff_width, cw);
    assert_int_equal(shape.r.num_coeffs, full.r.num_coeffs);
    assert_memory_equal(shape.r.coeffs, full.r.coeffs, full.r.num_coeffs * sizeof(fr_t));
    assert_true(same_matrix(&shape.r.a, &full.r.a, n, cw));
    assert_true(same_matrix(&shape.r.b, &full.r.b, n, cw));
    assert_true(same_matrix(&shape.r.c, &full.r.c, n, cw));
    build(&vals, p, seed, R1CS_BUILD_VALUES);
    assert_int_equal(vals.n, full.n);
    assert_memory_equal(vals.w, full.w, full.n * sizeof(fr_t));

    /* deterministic; another seed, another witness that also satisfies */
    build(&again, p, seed, R1CS_BUILD_VALUES);
    assert_memory_equal(again.w, full.w, full.n * sizeof(fr_t));
    build(&other, p, seed ^ 0x5eed, R1CS_BUILD_VALUES);
    assert_memory_not_equal(other.w, full.w, full.n * sizeof(fr_t));
    assert_true(r1cs_is_satisfied(&full.r, other.w, &bad, 2));

    /* a wrong root or replica id, or a changed aux value, is caught */
    for (int k = 1; k <= 2; k++) {
        fr_t saved = full.w[k];
        fr_add(&full.w[k], &full.w[k], &FR_ONE);
        assert_false(r1cs_is_satisfied(&full.r, full.w, &bad, 2));
        full.w[k] = saved;
    }
    for (int k = 0; k < tampers; k++) {
        uint64_t i = full.r.num_inputs + rng_u64(&rng) % full.r.num_aux;
        fr_t saved = full.w[i];
        if (fr_is_zero(&saved))
            full.w[i] = FR_ONE;
        else if (fr_is_one(&saved))
            full.w[i] = FR_ZERO;
        else
            fr_add(&full.w[i], &full.w[i], &FR_ONE);
        assert_false(r1cs_is_satisfied(&full.r, full.w, &bad, 2));
        full.w[i] = saved;
    }
    built_free(&full), built_free(&shape), built_free(&vals), built_free(&again);
    built_free(&other);
}

static void test_small_sizes(void **state)
{
    (void)state;
    uint64_t seed = test_seed("porep_like_small_sizes");
    rng_seed(&rng, seed);
    for (unsigned arity = 2; arity <= 8; arity += 6) {
        for (size_t k = 10; k <= 14; k++) {
            porep_like_params p;
            assert_int_equal(porep_like_params_for_constraints(&p, k, arity), CUZK_OK);
            assert_false(p.sha_label);
            check_circuit(&p, seed + k, 8);
        }
    }
}

static void test_sha_labels(void **state)
{
    (void)state;
    uint64_t seed = test_seed("porep_like_sha_labels");
    rng_seed(&rng, seed);
    /* one block per label; two challenges, one of them repeated below */
    porep_like_params p = {
        .challenges = 2, .depth = 3, .arity = 2, .parents = 0, .sha_label = true};
    check_circuit(&p, seed, 12);
    /* parents: two blocks per label, arity 8 */
    porep_like_params q = {
        .challenges = 1, .depth = 2, .arity = 8, .parents = 1, .sha_label = true};
    check_circuit(&q, seed + 1, 12);
    /* a tiny tree: indices repeat, leaves must agree */
    porep_like_params r = {
        .challenges = 3, .depth = 1, .arity = 2, .parents = 0, .sha_label = true};
    check_circuit(&r, seed + 2, 4);
}

/* The extrapolated counts (more than 5 parents) are exact. */
static void test_counts(void **state)
{
    (void)state;
    for (uint32_t parents = 4; parents <= 9; parents++) {
        porep_like_params p = {
            .challenges = 2, .depth = 2, .arity = 2, .parents = parents, .sha_label = true};
        r1cs_builder *b;
        assert_int_equal(r1cs_builder_new(&b, R1CS_BUILD_SHAPE), CUZK_OK);
        assert_int_equal(porep_like_synthesize(b, R1CS_BUILD_SHAPE, &p, 0), CUZK_OK);
        uint64_t n, aux;
        assert_int_equal(porep_like_count(&p, &n, &aux), CUZK_OK);
        assert_int_equal(r1cs_builder_num_constraints(b), n);
        assert_int_equal(r1cs_builder_num_aux(b), aux);
        r1cs_builder_free(b);
    }
}

static void test_params(void **state)
{
    (void)state;
    for (unsigned arity = 2; arity <= 8; arity += 6) {
        for (size_t k = 10; k <= 27; k++) {
            porep_like_params p;
            assert_int_equal(porep_like_params_for_constraints(&p, k, arity), CUZK_OK);
            assert_int_equal(porep_like_params_check(&p), CUZK_OK);
            uint64_t n, aux;
            assert_int_equal(porep_like_count(&p, &n, &aux), CUZK_OK);
            /* Never past the domain: constraints plus bellman's input rows
             * (ONE included) fit in 2^k. Below it, as near as the coarse
             * steps allow: a block of SHA or a tree level is a large step at
             * the small end. */
            uint64_t rows = n + porep_like_num_inputs(&p) + 1;
            assert_true(rows <= ((uint64_t)1 << k));
            double e = (double)k - log2((double)rows);
            assert_true(e < 0.6);             /* at least 66 % of 2^k */
            assert_true(k < 15 || e < 0.2);   /* at least 87 % */
            assert_true(k < 19 || e < 0.045); /* at least 97 % */
            assert_int_equal(p.sha_label, k >= 15);
        }
    }
    porep_like_params p;
    assert_int_equal(porep_like_params_for_constraints(&p, 9, 2), CUZK_ERR_INVALID_ARGUMENT);
    assert_int_equal(porep_like_params_for_constraints(&p, 28, 2), CUZK_ERR_INVALID_ARGUMENT);
    assert_int_equal(porep_like_params_for_constraints(&p, 20, 4), CUZK_ERR_INVALID_ARGUMENT);
    porep_like_params bad = {.challenges = 1, .depth = 63, .arity = 2};
    assert_int_equal(porep_like_params_check(&bad), CUZK_ERR_INVALID_ARGUMENT);
    bad.depth = 21, bad.arity = 8; /* 63 index bits */
    assert_int_equal(porep_like_params_check(&bad), CUZK_ERR_INVALID_ARGUMENT);
    bad.depth = 4, bad.parents = 3; /* parents without SHA labels */
    assert_int_equal(porep_like_params_check(&bad), CUZK_ERR_INVALID_ARGUMENT);
    bad.parents = 0, bad.challenges = 0;
    assert_int_equal(porep_like_params_check(&bad), CUZK_ERR_INVALID_ARGUMENT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small_sizes),
        cmocka_unit_test(test_sha_labels),
        cmocka_unit_test(test_counts),
        cmocka_unit_test(test_params),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
