/* Groth16 on the CPU: development setup, prover and verifier on small
 * circuits built with the constraint-system builder. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "groth16/prover.h"
#include "groth16/setup.h"
#include "groth16/verifier.h"
#include "r1cs/builder.h"
#include "seed.h"

static uint64_t g_seed;

typedef struct test_circuit {
    r1cs_t r1cs;
    fr_t *w; /* full assignment */
    size_t num_vars;
    fr_t *inputs; /* public inputs, ONE excluded */
    size_t num_inputs;
} test_circuit;

/* A random satisfied circuit: `num_inputs` public inputs, then `rows`
 * products x_k = x_i · (x_j + c) over earlier variables, some outputs made
 * public. Most new values are random, some are 0/1 to reach the MSM split. */
static void make_circuit(test_circuit *tc, rng_t *rng, size_t num_inputs, size_t rows)
{
    r1cs_builder *b;
    assert_int_equal(r1cs_builder_new(&b, R1CS_BUILD_SHAPE | R1CS_BUILD_VALUES), CUZK_OK);
    size_t cap = num_inputs + rows + 2;
    r1cs_var *vars = malloc(sizeof(r1cs_var) * cap);
    fr_t *vals = malloc(sizeof(fr_t) * cap);
    size_t nv = 0;
    for (size_t i = 0; i < num_inputs; i++) {
        fr_random(&vals[nv], rng);
        assert_int_equal(r1cs_alloc_input(b, &vars[nv], &vals[nv]), CUZK_OK);
        nv++;
    }
    /* one aux seed value so that circuits with no inputs have a start */
    fr_from_u64(&vals[nv], 3);
    assert_int_equal(r1cs_alloc_aux(b, &vars[nv], &vals[nv]), CUZK_OK);
    nv++;
    lc_t la, lb, lcc;
    lc_init(&la);
    lc_init(&lb);
    lc_init(&lcc);
    for (size_t k = 0; k < rows; k++) {
        size_t i = rng_u64(rng) % nv, j = rng_u64(rng) % nv;
        fr_t c, bj, out;
        uint64_t kind = rng_u64(rng) % 4;
        if (kind == 0)
            fr_neg(&c, &vals[j]); /* b = 0: product 0 */
        else
            fr_random(&c, rng);
        fr_add(&bj, &vals[j], &c);
        fr_mul(&out, &vals[i], &bj);
        vals[nv] = out;
        assert_int_equal(r1cs_alloc_aux(b, &vars[nv], &vals[nv]), CUZK_OK);
        lc_clear(&la);
        lc_clear(&lb);
        lc_clear(&lcc);
        lc_add_one_term(&la, vars[i]);
        lc_add_one_term(&lb, vars[j]);
        lc_add_constant(&lb, &c);
        lc_add_one_term(&lcc, vars[nv]);
        assert_int_equal(r1cs_enforce(b, &la, &lb, &lcc), CUZK_OK);
        nv++;
    }
    /* tie every input into a constraint: input · 1 = input */
    for (size_t i = 0; i < num_inputs; i++) {
        lc_clear(&la);
        lc_clear(&lb);
        lc_clear(&lcc);
        lc_add_one_term(&la, vars[i]);
        lc_add_one_term(&lb, R1CS_ONE);
        lc_add_one_term(&lcc, vars[i]);
        assert_int_equal(r1cs_enforce(b, &la, &lb, &lcc), CUZK_OK);
    }
    lc_free(&la);
    lc_free(&lb);
    lc_free(&lcc);
    assert_int_equal(r1cs_builder_enforce_input_rows(b), CUZK_OK);
    tc->num_vars = r1cs_builder_num_inputs(b) + r1cs_builder_num_aux(b);
    tc->w = malloc(sizeof(fr_t) * tc->num_vars);
    assert_int_equal(r1cs_builder_assignment(b, tc->w, tc->num_vars), CUZK_OK);
    assert_int_equal(r1cs_builder_compile(&tc->r1cs, b, 1), CUZK_OK);
    r1cs_builder_free(b);
    tc->num_inputs = num_inputs;
    tc->inputs = malloc(sizeof(fr_t) * (num_inputs + 1));
    memcpy(tc->inputs, tc->w + 1, sizeof(fr_t) * num_inputs);
    assert_true(r1cs_is_satisfied(&tc->r1cs, tc->w, NULL, 1));
    free(vars);
    free(vals);
}

static void free_circuit(test_circuit *tc)
{
    r1cs_free(&tc->r1cs);
    free(tc->w);
    free(tc->inputs);
}

typedef struct fixture {
    test_circuit tc;
    groth16_params_t params;
    groth16_circuit_t circuit;
    groth16_pvk_t pvk;
    void *scratch;
} fixture;

static void fixture_init(fixture *f, rng_t *rng, size_t num_inputs, size_t rows)
{
    memset(f, 0, sizeof(*f));
    make_circuit(&f->tc, rng, num_inputs, rows);
    assert_int_equal(groth16_setup_dev(&f->params, &f->tc.r1cs, rng, NULL), CUZK_OK);
    char msg[256] = "";
    assert_int_equal(
        groth16_circuit_init(&f->circuit, &f->tc.r1cs, &f->params, 2, msg, sizeof(msg)), CUZK_OK);
    assert_int_equal(groth16_prepare_vk(&f->pvk, &f->params.vk), CUZK_OK);
    f->scratch = malloc(groth16_prover_scratch_bytes(&f->circuit));
    assert_non_null(f->scratch);
}

static void fixture_free(fixture *f)
{
    free(f->scratch);
    groth16_pvk_free(&f->pvk);
    groth16_circuit_free(&f->circuit);
    groth16_params_free(&f->params);
    free_circuit(&f->tc);
}

/* Proofs verify for various shapes; wrong inputs and tampered proofs fail. */
static void test_prove_verify(void **state)
{
    (void)state;
    rng_t rng;
    rng_seed(&rng, g_seed);
    static const size_t shapes[][2] = {{1, 1}, {2, 7}, {3, 60}, {0, 5}, {5, 200}};
    for (size_t sh = 0; sh < sizeof(shapes) / sizeof(shapes[0]); sh++) {
        fixture f;
        fixture_init(&f, &rng, shapes[sh][0], shapes[sh][1]);
        groth16_proof_t proof;
        assert_int_equal(groth16_prove(&proof, &f.circuit, f.tc.w, &rng, f.scratch, 2, NULL),
                         CUZK_OK);
        assert_int_equal(groth16_verify(&f.pvk, &proof, f.tc.inputs, f.tc.num_inputs), CUZK_OK);
        /* a different public input must fail */
        if (f.tc.num_inputs > 0) {
            fr_t saved = f.tc.inputs[0];
            fr_add(&f.tc.inputs[0], &f.tc.inputs[0], &FR_ONE);
            assert_int_equal(groth16_verify(&f.pvk, &proof, f.tc.inputs, f.tc.num_inputs),
                             CUZK_ERR_VERIFY_FAILED);
            f.tc.inputs[0] = saved;
        }
        /* swapped or altered proof elements must fail */
        groth16_proof_t bad = proof;
        bad.c = proof.a;
        assert_int_equal(groth16_verify(&f.pvk, &bad, f.tc.inputs, f.tc.num_inputs),
                         CUZK_ERR_VERIFY_FAILED);
        bad = proof;
        g1_affine_neg(&bad.a, &proof.a);
        assert_int_equal(groth16_verify(&f.pvk, &bad, f.tc.inputs, f.tc.num_inputs),
                         CUZK_ERR_VERIFY_FAILED);
        bad = proof;
        g2_affine_neg(&bad.b, &proof.b);
        assert_int_equal(groth16_verify(&f.pvk, &bad, f.tc.inputs, f.tc.num_inputs),
                         CUZK_ERR_VERIFY_FAILED);
        bad = proof;
        g1_affine_neg(&bad.c, &proof.c);
        assert_int_equal(groth16_verify(&f.pvk, &bad, f.tc.inputs, f.tc.num_inputs),
                         CUZK_ERR_VERIFY_FAILED);
        /* wrong input count is an argument error */
        assert_int_equal(groth16_verify(&f.pvk, &proof, f.tc.inputs, f.tc.num_inputs + 1),
                         CUZK_ERR_INVALID_ARGUMENT);
        fixture_free(&f);
    }
}

/* Same r, s give the same proof; different r, s give a different valid one. */
static void test_deterministic_blinding(void **state)
{
    (void)state;
    rng_t rng;
    rng_seed(&rng, g_seed + 1);
    fixture f;
    fixture_init(&f, &rng, 2, 30);
    fr_t r, s;
    fr_random(&r, &rng);
    fr_random(&s, &rng);
    groth16_proof_t p1, p2, p3;
    assert_int_equal(groth16_prove_with(&p1, &f.circuit, f.tc.w, &r, &s, f.scratch, 1, NULL),
                     CUZK_OK);
    assert_int_equal(groth16_prove_with(&p2, &f.circuit, f.tc.w, &r, &s, f.scratch, 2, NULL),
                     CUZK_OK);
    assert_true(g1_affine_eq(&p1.a, &p2.a) && g2_affine_eq(&p1.b, &p2.b) &&
                g1_affine_eq(&p1.c, &p2.c));
    fr_add(&s, &s, &FR_ONE);
    assert_int_equal(groth16_prove_with(&p3, &f.circuit, f.tc.w, &r, &s, f.scratch, 2, NULL),
                     CUZK_OK);
    assert_false(g2_affine_eq(&p1.b, &p3.b));
    assert_int_equal(groth16_verify(&f.pvk, &p3, f.tc.inputs, f.tc.num_inputs), CUZK_OK);
    fixture_free(&f);
}

/* A witness that breaks a constraint is refused before any MSM. */
static void test_unsatisfied(void **state)
{
    (void)state;
    rng_t rng;
    rng_seed(&rng, g_seed + 2);
    fixture f;
    fixture_init(&f, &rng, 1, 20);
    fr_add(&f.tc.w[f.tc.num_vars - 1], &f.tc.w[f.tc.num_vars - 1], &FR_ONE);
    groth16_proof_t proof;
    assert_int_equal(groth16_prove(&proof, &f.circuit, f.tc.w, &rng, f.scratch, 1, NULL),
                     CUZK_ERR_UNSATISFIED);
    fixture_free(&f);
}

/* Batch verification accepts good batches and refuses one bad proof. */
static void test_batch_verify(void **state)
{
    (void)state;
    rng_t rng;
    rng_seed(&rng, g_seed + 3);
    fixture f;
    fixture_init(&f, &rng, 2, 40);
    enum { N = 4 };
    groth16_proof_t proofs[N];
    fr_t inputs[N * 2];
    for (int i = 0; i < N; i++) {
        assert_int_equal(groth16_prove(&proofs[i], &f.circuit, f.tc.w, &rng, f.scratch, 2, NULL),
                         CUZK_OK);
        memcpy(&inputs[i * 2], f.tc.inputs, sizeof(fr_t) * 2);
    }
    rng_t secure;
    assert_int_equal(rng_seed_secure(&secure), CUZK_OK);
    assert_int_equal(groth16_verify_batch(&f.pvk, proofs, inputs, 2, N, &secure), CUZK_OK);
    assert_int_equal(groth16_verify_batch(&f.pvk, proofs, inputs, 2, 1, &secure), CUZK_OK);
    /* one proof of many with a changed C */
    groth16_proof_t saved = proofs[2];
    proofs[2].c = proofs[1].c;
    assert_int_equal(groth16_verify_batch(&f.pvk, proofs, inputs, 2, N, &secure),
                     CUZK_ERR_VERIFY_FAILED);
    proofs[2] = saved;
    assert_int_equal(groth16_verify_batch(&f.pvk, proofs, inputs, 2, N, &secure), CUZK_OK);
    /* one proof of many checked against other public inputs */
    fr_add(&inputs[5], &inputs[5], &FR_ONE);
    assert_int_equal(groth16_verify_batch(&f.pvk, proofs, inputs, 2, N, &secure),
                     CUZK_ERR_VERIFY_FAILED);
    fixture_free(&f);
}

/* Parameters of another circuit are refused with a message naming the query. */
static void test_params_mismatch(void **state)
{
    (void)state;
    rng_t rng;
    rng_seed(&rng, g_seed + 4);
    fixture f;
    fixture_init(&f, &rng, 2, 10);
    test_circuit other;
    make_circuit(&other, &rng, 3, 10);
    groth16_circuit_t c;
    char msg[256] = "";
    assert_int_equal(groth16_circuit_init(&c, &other.r1cs, &f.params, 1, msg, sizeof(msg)),
                     CUZK_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(msg, "IC"));
    free_circuit(&other);
    fixture_free(&f);
}

int main(void)
{
    g_seed = test_seed("test_groth16");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_prove_verify),    cmocka_unit_test(test_deterministic_blinding),
        cmocka_unit_test(test_unsatisfied),     cmocka_unit_test(test_batch_verify),
        cmocka_unit_test(test_params_mismatch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
