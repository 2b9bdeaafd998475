/* Boolean and 32-bit word gadgets: every operation on every combination of
 * operand kinds (constant 0/1, variable, negated variable) and values, the
 * constraint counts each documents, satisfaction, and that flipping any
 * value the gadget allocated breaks the system. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>

#include "gadgets/boolean.h"
#include "gadgets/word32.h"
#include "seed.h"

static rng_t rng;

/* A builder recording shape and values. */
typedef struct fixture {
    r1cs_builder *b;
    gadget_cs cs;
} fixture;

static void fx_open(fixture *f)
{
    assert_int_equal(r1cs_builder_new(&f->b, R1CS_BUILD_SHAPE | R1CS_BUILD_VALUES), CUZK_OK);
    gcs_init(&f->cs, f->b, R1CS_BUILD_SHAPE | R1CS_BUILD_VALUES);
}

static void fx_close(fixture *f)
{
    gcs_free(&f->cs);
    r1cs_builder_free(f->b);
}

/* x → 1 - x for a bit, x + 1 otherwise. */
static void tamper(fr_t *x)
{
    if (fr_is_zero(x))
        *x = FR_ONE;
    else if (fr_is_one(x))
        *x = FR_ZERO;
    else
        fr_add(x, x, &FR_ONE);
}

/* Compiles, checks satisfaction, then that flipping each aux variable with
 * index >= first_aux (all of them when there are at most `limit`, else
 * `limit` random ones) makes the system unsatisfied. */
static void check_system(fixture *f, uint64_t first_aux, unsigned limit)
{
    assert_int_equal(gcs_status(&f->cs), CUZK_OK);
    r1cs_t r;
    fr_t *w;
    uint64_t n;
    assert_int_equal(gcs_compile_with_witness(f->b, &r, &w, &n, 1), CUZK_OK);
    assert_int_equal(r.num_constraints, f->cs.num_constraints);
    uint64_t bad;
    assert_true(r1cs_is_satisfied(&r, w, &bad, 1));
    uint64_t naux = r.num_aux - first_aux;
    for (unsigned k = 0; k < naux && k < limit; k++) {
        uint64_t i = r.num_inputs + first_aux + (naux <= limit ? k : rng_u64(&rng) % naux);
        fr_t saved = w[i];
        tamper(&w[i]);
        assert_false(r1cs_is_satisfied(&r, w, &bad, 1));
        w[i] = saved;
    }
    free(w);
    r1cs_free(&r);
}

/* An operand of kind k (0: constant, 1: variable, 2: negated variable)
 * and literal value v. */
static gbit make_bit(gadget_cs *cs, unsigned k, bool v)
{
    if (k == 0)
        return gbit_const(v);
    gbit g = gbit_alloc(cs, k == 1 ? v : !v);
    return k == 1 ? g : gbit_not(g);
}

enum { OP_XOR, OP_AND, OP_OR, OP_XOR3, OP_CH, OP_MAJ, OP_COUNT };

static bool op_ref(int op, bool a, bool b, bool c)
{
    switch (op) {
    case OP_XOR:
        return a ^ b;
    case OP_AND:
        return a & b;
    case OP_OR:
        return a | b;
    case OP_XOR3:
        return a ^ b ^ c;
    case OP_CH:
        return (a & b) ^ (!a & c);
    default:
        return (a & b) ^ (a & c) ^ (b & c);
    }
}

static gbit op_apply(gadget_cs *cs, int op, gbit a, gbit b, gbit c)
{
    switch (op) {
    case OP_XOR:
        return gbit_xor(cs, a, b);
    case OP_AND:
        return gbit_and(cs, a, b);
    case OP_OR:
        return gbit_or(cs, a, b);
    case OP_XOR3:
        return gbit_xor3(cs, a, b, c);
    case OP_CH:
        return gbit_ch(cs, a, b, c);
    default:
        return gbit_maj(cs, a, b, c);
    }
}

/* Documented cost with all operands variable. */
static const unsigned op_cost[OP_COUNT] = {1, 1, 1, 2, 1, 2};

static void test_bit_ops(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("gadget_bit_ops"));
    for (int op = 0; op < OP_COUNT; op++) {
        unsigned nin = op <= OP_OR ? 2 : 3;
        unsigned kinds = nin == 2 ? 9 : 27;
        for (unsigned kk = 0; kk < kinds; kk++) {
            unsigned k[3] = {kk % 3, kk / 3 % 3, kk / 9};
            for (unsigned vv = 0; vv < (1u << nin); vv++) {
                bool v[3] = {vv & 1, (vv >> 1) & 1, (vv >> 2) & 1};
                fixture f;
                fx_open(&f);
                gbit in[3];
                for (unsigned i = 0; i < 3; i++)
                    in[i] = make_bit(&f.cs, i < nin ? k[i] : 0, v[i]);
                uint64_t c0 = f.cs.num_constraints, a0 = f.cs.num_aux;
                gbit out = op_apply(&f.cs, op, in[0], in[1], in[2]);
                uint64_t cost = f.cs.num_constraints - c0;
                bool all_var = k[0] && k[1] && (nin == 2 || k[2]);
                if (all_var)
                    assert_int_equal(cost, op_cost[op]);
                else
                    assert_true(cost <= op_cost[op]);
                bool want = op_ref(op, v[0], v[1], v[2]);
                assert_int_equal(out.val, want);
                /* the literal agrees with the assignment */
                if (out.kind != GBIT_CONST) {
                    const fr_t *x = r1cs_builder_value(f.b, out.var);
                    assert_non_null(x);
                    bool xv = fr_is_one(x);
                    assert_true(fr_is_one(x) || fr_is_zero(x));
                    assert_int_equal(out.kind == GBIT_NOT ? !xv : xv, want);
                }
                check_system(&f, a0, 64);
                fx_close(&f);
            }
        }
    }
}

static void test_alloc_not(void **state)
{
    (void)state;
    fixture f;
    fx_open(&f);
    gbit a = gbit_alloc(&f.cs, true);
    assert_int_equal(f.cs.num_constraints, 1);
    gbit n = gbit_not(a);
    assert_int_equal(n.val, 0);
    assert_int_equal(n.kind, GBIT_NOT);
    assert_int_equal(gbit_not(n).kind, GBIT_VAR);
    assert_int_equal(f.cs.num_constraints, 1); /* NOT is free */
    check_system(&f, 1, 8);                    /* a lone bit: either value satisfies */
    fx_close(&f);
    /* a value of 2 violates booleanity */
    fx_open(&f);
    fr_t two;
    fr_from_u64(&two, 2);
    r1cs_var v = gcs_alloc_aux(&f.cs, &two);
    gbit_enforce_boolean(&f.cs, v);
    r1cs_t r;
    fr_t *w;
    uint64_t nw, bad;
    assert_int_equal(gcs_compile_with_witness(f.b, &r, &w, &nw, 1), CUZK_OK);
    assert_false(r1cs_is_satisfied(&r, w, &bad, 1));
    free(w);
    r1cs_free(&r);
    fx_close(&f);
}

static void test_pack_unpack(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("gadget_pack_unpack"));
    static const size_t sizes[] = {1, 8, 32, 64, 128, 200, 254};
    for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
        size_t n = sizes[si];
        uint64_t raw[4] = {rng_u64(&rng), rng_u64(&rng), rng_u64(&rng), rng_u64(&rng)};
        for (size_t i = n; i < 256; i++)
            raw[i / 64] &= ~((uint64_t)1 << (i % 64));
        fr_t x;
        fr_from_raw(&x, raw);
        fixture f;
        fx_open(&f);
        gnum xn, packed, lin;
        gnum_init(&xn), gnum_init(&packed), gnum_init(&lin);
        gnum_alloc(&f.cs, &xn, &x);
        uint64_t c0 = f.cs.num_constraints;
        gbit bits[254];
        gbits_unpack(&f.cs, bits, &xn, n);
        assert_int_equal(f.cs.num_constraints - c0, n + 1);
        for (size_t i = 0; i < n; i++)
            assert_int_equal(bits[i].val, (raw[i / 64] >> (i % 64)) & 1);
        gnum_from_bits(&f.cs, &lin, bits, n); /* free */
        assert_int_equal(f.cs.num_constraints - c0, n + 1);
        assert_true(fr_eq(&lin.val, &x));
        gnum_pack_bits(&f.cs, &packed, bits, n); /* 1 constraint */
        assert_int_equal(f.cs.num_constraints - c0, n + 2);
        assert_true(fr_eq(&packed.val, &x));
        gnum_enforce_equal(&f.cs, &packed, &xn);
        check_system(&f, 1, 40);
        gnum_free(&xn), gnum_free(&packed), gnum_free(&lin);
        fx_close(&f);
    }
    /* more than 254 bits: refused */
    {
        fixture g;
        fx_open(&g);
        gnum z;
        gnum_init(&z);
        gnum_alloc(&g.cs, &z, &FR_ONE);
        gbit many[255];
        gbits_unpack(&g.cs, many, &z, 255);
        assert_int_equal(gcs_status(&g.cs), CUZK_ERR_INVALID_ARGUMENT);
        gnum_free(&z);
        fx_close(&g);
    }
    /* a value too wide for n bits cannot be unpacked */
    fixture f;
    fx_open(&f);
    fr_t x;
    fr_from_u64(&x, 256);
    gnum xn;
    gnum_init(&xn);
    gnum_alloc(&f.cs, &xn, &x);
    gbit bits[8];
    gbits_unpack(&f.cs, bits, &xn, 8);
    r1cs_t r;
    fr_t *w;
    uint64_t nw, bad;
    assert_int_equal(gcs_compile_with_witness(f.b, &r, &w, &nw, 1), CUZK_OK);
    assert_false(r1cs_is_satisfied(&r, w, &bad, 1));
    free(w);
    r1cs_free(&r);
    gnum_free(&xn);
    fx_close(&f);
}

static void test_word_ops(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("gadget_word_ops"));
    for (int it = 0; it < test_iters(20); it++) {
        fixture f;
        fx_open(&f);
        uint32_t xv = (uint32_t)rng_u64(&rng), yv = (uint32_t)rng_u64(&rng);
        uint32_t zv = (uint32_t)rng_u64(&rng), kv = (uint32_t)rng_u64(&rng);
        gword x, y, z, k, out;
        gword_alloc(&f.cs, &x, xv);
        gword_alloc(&f.cs, &y, yv);
        gword_alloc(&f.cs, &z, zv);
        gword_const(&k, kv);
        uint64_t a0 = f.cs.num_aux;
        unsigned r = (unsigned)(rng_u64(&rng) % 32);
        gword_rotr(&out, &x, r);
        assert_int_equal(gword_value(&out), r ? (xv >> r) | (xv << (32 - r)) : xv);
        gword_shr(&out, &x, r);
        assert_int_equal(gword_value(&out), xv >> r);
        assert_int_equal(f.cs.num_aux, a0); /* renaming only */
        gword_xor3(&f.cs, &out, &x, &y, &z);
        assert_int_equal(gword_value(&out), xv ^ yv ^ zv);
        gword_ch(&f.cs, &out, &x, &y, &z);
        assert_int_equal(gword_value(&out), (xv & yv) ^ (~xv & zv));
        gword_maj(&f.cs, &out, &x, &y, &z);
        assert_int_equal(gword_value(&out), (xv & yv) ^ (xv & zv) ^ (yv & zv));
        /* sums: 2 variable operands → 33 bits + 1; with a constant the
         * largest sum decides the width */
        uint64_t c0 = f.cs.num_constraints;
        const gword *ops2[2] = {&x, &y};
        gword_add_many(&f.cs, &out, ops2, 2);
        assert_int_equal(f.cs.num_constraints - c0, 34);
        assert_int_equal(gword_value(&out), xv + yv);
        const gword *ops5[5] = {&x, &y, &z, &k, &x};
        gword_add_many(&f.cs, &out, ops5, 5);
        assert_int_equal(gword_value(&out), xv + yv + zv + kv + xv);
        const gword *opsk[2] = {&k, &k};
        c0 = f.cs.num_constraints;
        gword_add_many(&f.cs, &out, opsk, 2); /* constants: free */
        assert_int_equal(f.cs.num_constraints, c0);
        assert_int_equal(gword_value(&out), kv + kv);
        gword_xor(&f.cs, &out, &x, &k); /* with a constant: free */
        assert_int_equal(f.cs.num_constraints, c0);
        assert_int_equal(gword_value(&out), xv ^ kv);
        check_system(&f, a0, 60);
        fx_close(&f);
    }
}

/* Shape only, values only and count only agree on the counts. */
static void test_modes_agree(void **state)
{
    (void)state;
    unsigned flags[3] = {R1CS_BUILD_SHAPE, R1CS_BUILD_VALUES, 0};
    uint64_t counts[3][2];
    for (int m = 0; m < 3; m++) {
        r1cs_builder *b = NULL;
        if (flags[m])
            assert_int_equal(r1cs_builder_new(&b, flags[m]), CUZK_OK);
        gadget_cs cs;
        gcs_init(&cs, b, flags[m]);
        gword x, y, z, k, out;
        gword_alloc(&cs, &x, 0x12345678);
        gword_alloc(&cs, &y, 0x9abcdef0);
        gword_const(&z, 0x0f0f0f0f);
        gword_const(&k, 0xdeadbeef);
        gword_maj(&cs, &out, &x, &y, &z);
        gword_ch(&cs, &out, &x, &z, &y);
        const gword *ops[4] = {&x, &y, &k, &out};
        gword_add_many(&cs, &out, ops, 4);
        assert_int_equal(gcs_status(&cs), CUZK_OK);
        counts[m][0] = cs.num_constraints;
        counts[m][1] = cs.num_aux;
        if (b && (flags[m] & R1CS_BUILD_SHAPE))
            assert_int_equal(r1cs_builder_num_constraints(b), cs.num_constraints);
        if (b)
            assert_int_equal(r1cs_builder_num_aux(b), cs.num_aux);
        gcs_free(&cs);
        r1cs_builder_free(b);
    }
    for (int m = 1; m < 3; m++) {
        assert_int_equal(counts[m][0], counts[0][0]);
        assert_int_equal(counts[m][1], counts[0][1]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bit_ops),     cmocka_unit_test(test_alloc_not),
        cmocka_unit_test(test_pack_unpack), cmocka_unit_test(test_word_ops),
        cmocka_unit_test(test_modes_agree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
