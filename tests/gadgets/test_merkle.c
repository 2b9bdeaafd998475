/* Merkle-path inclusion with Poseidon, arity 2 and 8: the plain path
 * function against whole trees built level by level, then the gadget at
 * every leaf position of small trees (satisfaction, a wrong root, tampering
 * with every allocated value) and its documented cost per level. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "gadgets/merkle.h"
#include "gadgets/poseidon.h"
#include "seed.h"

static rng_t rng;

/* A full tree: levels[0] the leaves, levels[depth][0] the root. */
typedef struct tree {
    unsigned arity, depth;
    fr_t *levels[8];
} tree;

static void tree_build(tree *t, unsigned arity, unsigned depth)
{
    t->arity = arity;
    t->depth = depth;
    size_t n = 1;
    for (unsigned l = 0; l < depth; l++)
        n *= arity;
    for (unsigned l = 0; l <= depth; l++, n /= arity) {
        t->levels[l] = malloc(n * sizeof(fr_t));
        for (size_t i = 0; i < n; i++) {
            if (l == 0)
                fr_random(&t->levels[0][i], &rng);
            else
                poseidon_hash(&t->levels[l][i], &t->levels[l - 1][i * arity], arity);
        }
    }
}

static void tree_free(tree *t)
{
    for (unsigned l = 0; l <= t->depth; l++)
        free(t->levels[l]);
}

static void tree_path(const tree *t, fr_t *sib, uint64_t index)
{
    size_t s = 0;
    for (unsigned l = 0; l < t->depth; l++, index /= t->arity) {
        uint64_t first = index - index % t->arity;
        for (unsigned k = 0; k < t->arity; k++)
            if (first + k != index)
                sib[s++] = t->levels[l][first + k];
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

/* Builds the gadget for one leaf; returns the constraint count. With
 * tamper_all, also checks that changing any aux value breaks it. */
static uint64_t run_gadget(const tree *t, uint64_t index, bool wrong_root, bool tamper_all)
{
    unsigned arity = t->arity, depth = t->depth, bpl = merkle_bits_per_level(arity);
    fr_t sib[64];
    tree_path(t, sib, index);
    r1cs_builder *b;
    assert_int_equal(r1cs_builder_new(&b, R1CS_BUILD_SHAPE | R1CS_BUILD_VALUES), CUZK_OK);
    gadget_cs cs;
    gcs_init(&cs, b, R1CS_BUILD_SHAPE | R1CS_BUILD_VALUES);
    fr_t root = t->levels[depth][0];
    if (wrong_root)
        fr_add(&root, &root, &FR_ONE);
    gnum groot, leaf, gs[64];
    gnum_init(&groot), gnum_init(&leaf);
    gnum_alloc_input(&cs, &groot, &root);
    gnum_alloc(&cs, &leaf, &t->levels[0][index]);
    size_t nsib = (size_t)depth * (arity - 1);
    for (size_t i = 0; i < nsib; i++) {
        gnum_init(&gs[i]);
        gnum_alloc(&cs, &gs[i], &sib[i]);
    }
    gbit bits[64];
    for (unsigned i = 0; i < depth * bpl; i++)
        bits[i] = gbit_alloc(&cs, (index >> i) & 1);
    uint64_t c0 = cs.num_constraints;
    merkle_gadget_verify(&cs, &groot, &leaf, gs, bits, depth, arity);
    uint64_t cost = cs.num_constraints - c0;
    assert_int_equal(gcs_status(&cs), CUZK_OK);
    r1cs_t r;
    fr_t *w;
    uint64_t n, bad;
    assert_int_equal(gcs_compile_with_witness(b, &r, &w, &n, 1), CUZK_OK);
    assert_int_equal(r1cs_is_satisfied(&r, w, &bad, 1), !wrong_root);
    if (tamper_all && !wrong_root) {
        for (uint64_t i = r.num_inputs; i < n; i++) {
            fr_t saved = w[i];
            tamper(&w[i]);
            assert_false(r1cs_is_satisfied(&r, w, &bad, 1));
            w[i] = saved;
        }
    }
    free(w);
    r1cs_free(&r);
    gnum_free(&groot), gnum_free(&leaf);
    for (size_t i = 0; i < nsib; i++)
        gnum_free(&gs[i]);
    gcs_free(&cs);
    r1cs_builder_free(b);
    return cost;
}

static void test_plain_paths(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("merkle_plain_paths"));
    static const unsigned shapes[3][2] = {{2, 5}, {8, 2}, {4, 3}};
    for (int s = 0; s < 3; s++) {
        tree t;
        tree_build(&t, shapes[s][0], shapes[s][1]);
        uint64_t leaves = 1;
        for (unsigned l = 0; l < t.depth; l++)
            leaves *= t.arity;
        for (uint64_t i = 0; i < leaves; i++) {
            fr_t sib[64], root;
            tree_path(&t, sib, i);
            merkle_root_from_path(&root, &t.levels[0][i], sib, i, t.depth, t.arity);
            assert_true(fr_eq(&root, &t.levels[t.depth][0]));
        }
        tree_free(&t);
    }
}

static void test_gadget_arity2(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("merkle_gadget_arity2"));
    tree t;
    tree_build(&t, 2, 3);
    for (uint64_t i = 0; i < 8; i++) {
        uint64_t cost = run_gadget(&t, i, false, i == 5);
        /* per level: swap 1 + hash 348; plus the root check */
        assert_int_equal(cost, 3 * (1 + 348) + 1);
    }
    run_gadget(&t, 6, true, false);
    tree_free(&t);
}

static void test_gadget_arity8(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("merkle_gadget_arity8"));
    tree t;
    tree_build(&t, 8, 2);
    for (uint64_t i = 0; i < 64; i += 9) /* every position at both levels */
        /* the leaf is a variable already: no allocation at level 0 */
        assert_int_equal(run_gadget(&t, i, false, i == 0), (18 + 576) + (19 + 576) + 1);
    tree_free(&t);
    tree_build(&t, 8, 1);
    for (uint64_t i = 0; i < 8; i++)
        run_gadget(&t, i, false, i == 6);
    run_gadget(&t, 3, true, false);
    tree_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_paths),
        cmocka_unit_test(test_gadget_arity2),
        cmocka_unit_test(test_gadget_arity8),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
