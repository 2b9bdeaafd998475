/* R1CS evaluation: CSR products against a naive evaluation of the terms as
 * they were given, threads against one thread, satisfaction with the failing
 * row, density bitmaps against a dense merge, witness classes, CRC-32C. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "r1cs/builder.h"
#include "r1cs/crc32c.h"
#include "r1cs/density.h"
#include "r1cs/r1cs.h"
#include "r1cs/witness.h"
#include "seed.h"

static rng_t rng;

static uint64_t rnd(uint64_t n)
{
    return rng_u64(&rng) % n;
}

/* A term as the generator gave it to the builder (duplicates included). */
typedef struct raw_term {
    uint64_t row;
    r1cs_var var;
    fr_t coeff;
} raw_term;

typedef struct gen {
    r1cs_builder *b;
    fr_t *in_vals, *aux_vals;
    uint64_t ni, na, cap_in, cap_aux;
    raw_term *terms[3];
    uint64_t nterms[3], cap_terms[3];
    uint64_t rows;
} gen;

static void *grow_or_die(void *p, uint64_t *cap, uint64_t need, size_t elem)
{
    if (need <= *cap)
        return p;
    *cap = need * 2 + 16;
    p = realloc(p, *cap * elem);
    assert_non_null(p);
    return p;
}

static void random_value(fr_t *v)
{
    uint64_t k = rnd(100);
    if (k < 45)
        *v = FR_ZERO;
    else if (k < 90)
        *v = FR_ONE;
    else
        fr_random(v, &rng);
}

static void random_coeff(fr_t *c)
{
    uint64_t k = rnd(100);
    if (k < 40) {
        *c = FR_ONE;
    } else if (k < 60) {
        fr_neg(c, &FR_ONE);
    } else if (k < 85) {
        fr_from_u64(c, 1ull << rnd(64));
    } else {
        do
            fr_random(c, &rng);
        while (fr_is_zero(c));
    }
}

static r1cs_var gen_alloc(gen *g, bool aux, const fr_t *value)
{
    r1cs_var v;
    if (aux) {
        g->aux_vals = grow_or_die(g->aux_vals, &g->cap_aux, g->na + 1, sizeof(fr_t));
        g->aux_vals[g->na++] = *value;
        assert_int_equal(r1cs_alloc_aux(g->b, &v, value), CUZK_OK);
    } else {
        g->in_vals = grow_or_die(g->in_vals, &g->cap_in, g->ni + 1, sizeof(fr_t));
        g->in_vals[g->ni++] = *value;
        assert_int_equal(r1cs_alloc_input(g->b, &v, value), CUZK_OK);
    }
    return v;
}

static const fr_t *gen_value(const gen *g, r1cs_var v)
{
    return r1cs_var_is_aux(v) ? &g->aux_vals[r1cs_var_index(v)] : &g->in_vals[r1cs_var_index(v)];
}

static r1cs_var random_var(const gen *g)
{
    uint64_t k = rnd(g->ni + g->na);
    return k < g->ni ? (r1cs_var)k : (r1cs_var)(k - g->ni) | R1CS_VAR_AUX;
}

static void gen_term(gen *g, int k, lc_t *lc, r1cs_var v, const fr_t *c)
{
    lc_add_term(lc, v, c);
    g->terms[k] = grow_or_die(g->terms[k], &g->cap_terms[k], g->nterms[k] + 1, sizeof(raw_term));
    g->terms[k][g->nterms[k]++] = (raw_term){.row = g->rows, .var = v, .coeff = *c};
}

static void lc_value(fr_t *out, const gen *g, const lc_t *lc)
{
    lc_eval(out, lc, g->in_vals, g->aux_vals);
}

/* A random satisfiable system: each row gets a fresh aux output in C whose
 * value makes the row hold. max_terms bounds the random terms per list. */
static void gen_build(gen *g, uint64_t rows, unsigned max_terms)
{
    memset(g, 0, sizeof(*g));
    assert_int_equal(r1cs_builder_new(&g->b, R1CS_BUILD_SHAPE | R1CS_BUILD_VALUES), CUZK_OK);
    g->in_vals = grow_or_die(NULL, &g->cap_in, 1, sizeof(fr_t));
    g->in_vals[0] = FR_ONE;
    g->ni = 1;
    fr_t v;
    uint64_t start_in = rnd(4), start_aux = 1 + rnd(16);
    for (uint64_t i = 0; i < start_in; i++) {
        random_value(&v);
        gen_alloc(g, false, &v);
    }
    for (uint64_t i = 0; i < start_aux; i++) {
        random_value(&v);
        gen_alloc(g, true, &v);
    }
    lc_t lcs[3];
    for (int k = 0; k < 3; k++)
        lc_init(&lcs[k]);
    for (uint64_t r = 0; r < rows; r++) {
        if (rnd(20) == 0) { /* inputs interleaved with aux, as synthesis does */
            random_value(&v);
            gen_alloc(g, false, &v);
        }
        for (int k = 0; k < 3; k++) {
            lc_clear(&lcs[k]);
            unsigned n = (unsigned)rnd(max_terms + 1);
            for (unsigned t = 0; t < n; t++) {
                fr_t c;
                random_coeff(&c);
                r1cs_var x = random_var(g);
                gen_term(g, k, &lcs[k], x, &c);
                if (rnd(8) == 0) { /* a duplicate, sometimes cancelling */
                    if (rnd(2))
                        fr_neg(&c, &c);
                    gen_term(g, k, &lcs[k], x, &c);
                }
            }
        }
        fr_t a, b, c, ab;
        lc_value(&a, g, &lcs[0]);
        lc_value(&b, g, &lcs[1]);
        lc_value(&c, g, &lcs[2]);
        fr_mul(&ab, &a, &b);
        fr_sub(&v, &ab, &c);
        r1cs_var out = gen_alloc(g, true, &v);
        gen_term(g, 2, &lcs[2], out, &FR_ONE);
        assert_int_equal(r1cs_enforce(g->b, &lcs[0], &lcs[1], &lcs[2]), CUZK_OK);
        g->rows++;
    }
    for (int k = 0; k < 3; k++)
        lc_free(&lcs[k]);
}

static void gen_free(gen *g)
{
    r1cs_builder_free(g->b);
    free(g->in_vals);
    free(g->aux_vals);
    for (int k = 0; k < 3; k++)
        free(g->terms[k]);
}

static uint64_t column(const gen *g, r1cs_var v)
{
    return r1cs_var_is_aux(v) ? g->ni + r1cs_var_index(v) : r1cs_var_index(v);
}

/* Naive products straight from the raw terms. */
static void naive_eval(const gen *g, int k, fr_t *out)
{
    for (uint64_t r = 0; r < g->rows; r++)
        out[r] = FR_ZERO;
    for (uint64_t t = 0; t < g->nterms[k]; t++) {
        const raw_term *x = &g->terms[k][t];
        fr_t p;
        fr_mul(&p, &x->coeff, gen_value(g, x->var));
        fr_add(&out[x->row], &out[x->row], &p);
    }
}

static fr_t *compile_with_witness(gen *g, r1cs_t *r)
{
    assert_int_equal(r1cs_builder_compile(r, g->b, 2), CUZK_OK);
    assert_int_equal(r1cs_validate(r, 2, NULL, 0), CUZK_OK);
    assert_int_equal(r->num_inputs, g->ni);
    assert_int_equal(r->num_aux, g->na);
    assert_int_equal(r->num_constraints, g->rows);
    fr_t *w = malloc(r1cs_num_vars(r) * sizeof(fr_t));
    assert_non_null(w);
    assert_int_equal(r1cs_builder_assignment(g->b, w, r1cs_num_vars(r)), CUZK_OK);
    return w;
}

static void test_cubic(void **state)
{
    (void)state;
    /* x^3 + x + 5 = out, x = 3, out = 35 (the usual R1CS example). */
    r1cs_builder *b;
    assert_int_equal(r1cs_builder_new(&b, R1CS_BUILD_SHAPE | R1CS_BUILD_VALUES), CUZK_OK);
    fr_t vx, vsym1, vy, vsym2, vout, five;
    fr_from_u64(&vx, 3);
    fr_from_u64(&vsym1, 9);
    fr_from_u64(&vy, 27);
    fr_from_u64(&vsym2, 30);
    fr_from_u64(&vout, 35);
    fr_from_u64(&five, 5);
    r1cs_var out, x, sym1, y, sym2;
    assert_int_equal(r1cs_alloc_aux(b, &x, &vx), CUZK_OK);
    assert_int_equal(r1cs_alloc_aux(b, &sym1, &vsym1), CUZK_OK);
    assert_int_equal(r1cs_alloc_aux(b, &y, &vy), CUZK_OK);
    assert_int_equal(r1cs_alloc_aux(b, &sym2, &vsym2), CUZK_OK);
    assert_int_equal(r1cs_alloc_input(b, &out, &vout), CUZK_OK); /* after aux: renumbered */
    lc_t A, B, C;
    lc_init(&A);
    lc_init(&B);
    lc_init(&C);
    lc_add_one_term(&A, x), lc_add_one_term(&B, x), lc_add_one_term(&C, sym1);
    assert_int_equal(r1cs_enforce(b, &A, &B, &C), CUZK_OK);
    lc_clear(&A), lc_clear(&B), lc_clear(&C);
    lc_add_one_term(&A, sym1), lc_add_one_term(&B, x), lc_add_one_term(&C, y);
    assert_int_equal(r1cs_enforce(b, &A, &B, &C), CUZK_OK);
    lc_clear(&A), lc_clear(&B), lc_clear(&C);
    lc_add_one_term(&A, y), lc_add_one_term(&A, x), lc_add_one_term(&B, R1CS_ONE);
    lc_add_one_term(&C, sym2);
    assert_int_equal(r1cs_enforce(b, &A, &B, &C), CUZK_OK);
    lc_clear(&A), lc_clear(&B), lc_clear(&C);
    lc_add_one_term(&A, sym2), lc_add_constant(&A, &five), lc_add_one_term(&B, R1CS_ONE);
    lc_add_one_term(&C, out);
    assert_int_equal(r1cs_enforce(b, &A, &B, &C), CUZK_OK);

    r1cs_t r;
    assert_int_equal(r1cs_builder_compile(&r, b, 1), CUZK_OK);
    assert_int_equal(r.num_constraints, 4);
    assert_int_equal(r.num_inputs, 2);
    assert_int_equal(r.num_aux, 4);
    assert_int_equal(r.coeff_width, 2);
    assert_int_equal(r.a.nnz, 6);
    /* row 3 of A: ONE (column 0, coefficient 5) then sym2 (column 2 + 3) */
    assert_int_equal(r.a.row_ptr[3], 4);
    assert_int_equal(r.a.col[4], 0);
    assert_int_equal(r.a.col[5], 5);
    assert_true(fr_eq(&r.coeffs[r1cs_coeff_at(&r, &r.a, 4)], &five));
    /* compiled order: [1, out, x, sym1, y, sym2] */
    fr_t w[6] = {FR_ONE, vout, vx, vsym1, vy, vsym2};
    fr_t w2[6];
    assert_int_equal(r1cs_builder_assignment(b, w2, 6), CUZK_OK);
    assert_memory_equal(w, w2, sizeof(w));
    fr_t a[4], bb[4], c[4];
    r1cs_eval(&r, w, a, bb, c, 1);
    assert_true(fr_eq(&a[0], &vx) && fr_eq(&bb[0], &vx) && fr_eq(&c[0], &vsym1));
    assert_true(fr_eq(&a[2], &vsym2) && fr_is_one(&bb[2]) && fr_eq(&c[2], &vsym2));
    assert_true(fr_eq(&a[3], &vout) && fr_eq(&c[3], &vout));
    uint64_t bad;
    assert_true(r1cs_is_satisfied(&r, w, &bad, 1));
    assert_int_equal(bad, R1CS_ROW_NONE);
    fr_from_u64(&w[1], 36);
    assert_false(r1cs_is_satisfied(&r, w, &bad, 1));
    assert_int_equal(bad, 3);
    fr_from_u64(&w[1], 35);
    fr_from_u64(&w[3], 10); /* sym1 wrong: row 0 fails first (row 1 too) */
    assert_false(r1cs_is_satisfied(&r, w, &bad, 2));
    assert_int_equal(bad, 0);
    fr_from_u64(&w[3], 9);
    fr_from_u64(&w[0], 2); /* w[0] must be ONE */
    assert_false(r1cs_is_satisfied(&r, w, &bad, 1));
    assert_int_equal(bad, R1CS_ROW_NONE);
    lc_free(&A), lc_free(&B), lc_free(&C);
    r1cs_free(&r);
    r1cs_builder_free(b);
}

static void test_random_vs_naive(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("r1cs_random_vs_naive"));
    for (int it = 0; it < test_iters(30); it++) {
        gen g;
        gen_build(&g, 1 + rnd(300), 1 + (unsigned)rnd(6));
        r1cs_t r;
        fr_t *w = compile_with_witness(&g, &r);
        uint64_t n = g.rows;
        fr_t *v[3], *naive = malloc(n * sizeof(fr_t));
        for (int k = 0; k < 3; k++)
            v[k] = malloc(n * sizeof(fr_t));
        r1cs_eval(&r, w, v[0], v[1], v[2], 1 + (unsigned)rnd(3));
        for (int k = 0; k < 3; k++) {
            naive_eval(&g, k, naive);
            assert_memory_equal(naive, v[k], n * sizeof(fr_t));
        }
        /* single products and the per-row entry point agree */
        r1cs_eval(&r, w, NULL, v[1], NULL, 1);
        for (uint64_t i = 0; i < n; i++) {
            fr_t x;
            r1cs_eval_row(&x, &r, &r.b, i, w);
            assert_true(fr_eq(&x, &v[1][i]));
        }
        uint64_t bad;
        assert_true(r1cs_is_satisfied(&r, w, &bad, 2));
        for (int k = 0; k < 3; k++)
            free(v[k]);
        free(naive);
        free(w);
        r1cs_free(&r);
        gen_free(&g);
    }
}

static void test_threads_and_bad_row(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("r1cs_threads_and_bad_row"));
    gen g;
    gen_build(&g, 30000, 3); /* several EVAL_GRAIN chunks */
    r1cs_t r;
    fr_t *w = compile_with_witness(&g, &r);
    uint64_t n = g.rows;
    fr_t *one[3], *many[3];
    for (int k = 0; k < 3; k++) {
        one[k] = malloc(n * sizeof(fr_t));
        many[k] = malloc(n * sizeof(fr_t));
    }
    r1cs_eval(&r, w, one[0], one[1], one[2], 1);
    for (unsigned t = 2; t <= 5; t += 3) {
        r1cs_eval(&r, w, many[0], many[1], many[2], t);
        for (int k = 0; k < 3; k++)
            assert_memory_equal(one[k], many[k], n * sizeof(fr_t));
    }
    uint64_t bad;
    assert_true(r1cs_is_satisfied(&r, w, &bad, 4));
    /* Row j's output variable appears in no earlier row, so breaking it
     * makes j the first failure (later rows may fail too). */
    for (int it = 0; it < test_iters(6); it++) {
        uint64_t j = rnd(n);
        uint64_t col = 0;
        for (uint64_t k = r.c.row_ptr[j]; k < r.c.row_ptr[j + 1]; k++)
            col = r.c.col[k] > col ? r.c.col[k] : col;
        /* the output is the newest variable in the row: highest column */
        fr_t saved = w[col], d;
        fr_from_u64(&d, 1 + rnd(1000));
        fr_add(&w[col], &w[col], &d);
        assert_false(r1cs_is_satisfied(&r, w, &bad, 1 + (unsigned)rnd(4)));
        assert_int_equal(bad, j);
        w[col] = saved;
    }
    assert_true(r1cs_is_satisfied(&r, w, &bad, 3));
    for (int k = 0; k < 3; k++) {
        free(one[k]);
        free(many[k]);
    }
    free(w);
    r1cs_free(&r);
    gen_free(&g);
}

static void test_density(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("r1cs_density"));
    for (int it = 0; it < test_iters(20); it++) {
        gen g;
        gen_build(&g, 1 + rnd(200), (unsigned)rnd(4));
        r1cs_t r;
        fr_t *w = compile_with_witness(&g, &r);
        uint64_t nv = r1cs_num_vars(&r), n = g.rows;
        /* Dense merge of the raw terms: a variable counts when some row's
         * merged coefficient is nonzero. */
        bool *used[3];
        fr_t *row = malloc(nv * sizeof(fr_t));
        for (int k = 0; k < 3; k++) {
            used[k] = calloc(nv, sizeof(bool));
            uint64_t t = 0;
            for (uint64_t i = 0; i < n; i++) {
                for (uint64_t c = 0; c < nv; c++)
                    row[c] = FR_ZERO;
                for (; t < g.nterms[k] && g.terms[k][t].row == i; t++) {
                    uint64_t c = column(&g, g.terms[k][t].var);
                    fr_add(&row[c], &row[c], &g.terms[k][t].coeff);
                }
                for (uint64_t c = 0; c < nv; c++)
                    used[k][c] |= !fr_is_zero(&row[c]);
            }
        }
        r1cs_density_t d;
        assert_int_equal(r1cs_density(&d, &r, 1 + (unsigned)rnd(3)), CUZK_OK);
        uint64_t ca = 0, cbi = 0, cba = 0;
        for (uint64_t i = 0; i < r.num_inputs; i++) {
            assert_int_equal(r1cs_bit(d.b_input, i), used[1][i]);
            cbi += used[1][i];
        }
        for (uint64_t j = 0; j < r.num_aux; j++) {
            assert_int_equal(r1cs_bit(d.a_aux, j), used[0][r.num_inputs + j]);
            assert_int_equal(r1cs_bit(d.b_aux, j), used[1][r.num_inputs + j]);
            ca += used[0][r.num_inputs + j];
            cba += used[1][r.num_inputs + j];
        }
        /* bits past the end stay clear */
        if (r.num_aux & 63)
            assert_int_equal(d.a_aux[r.num_aux / 64] >> (r.num_aux & 63), 0);
        assert_int_equal(d.a_aux_count, ca);
        assert_int_equal(d.b_input_count, cbi);
        assert_int_equal(d.b_aux_count, cba);
        r1cs_density_free(&d);
        for (int k = 0; k < 3; k++)
            free(used[k]);
        free(row);
        free(w);
        r1cs_free(&r);
        gen_free(&g);
    }
}

static void test_classify(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("r1cs_classify"));
    size_t n = 100000 + (size_t)rnd(1000);
    fr_t *w = malloc(n * sizeof(fr_t));
    uint8_t *cls = malloc(n);
    r1cs_value_counts expect = {0}, got;
    for (size_t i = 0; i < n; i++) {
        random_value(&w[i]);
        if (fr_is_zero(&w[i]))
            expect.zero++;
        else if (fr_is_one(&w[i]))
            expect.one++;
        else
            expect.other++;
    }
    r1cs_witness_classify(cls, &got, w, n, 3);
    assert_int_equal(got.zero, expect.zero);
    assert_int_equal(got.one, expect.one);
    assert_int_equal(got.other, expect.other);
    for (size_t i = 0; i < n; i++) {
        uint8_t k = fr_is_zero(&w[i])  ? R1CS_VALUE_ZERO
                    : fr_is_one(&w[i]) ? R1CS_VALUE_ONE
                                       : R1CS_VALUE_OTHER;
        assert_int_equal(cls[i], k);
    }
    r1cs_witness_classify(NULL, &got, w, n, 1);
    assert_int_equal(got.other, expect.other);
    free(w);
    free(cls);
}

/* r1cs_validate's vectorized checks against a row-by-row reference, on
 * systems damaged in memory one entry at a time. */
static bool naive_valid(const r1cs_t *r)
{
    const r1cs_matrix *ms[3] = {&r->a, &r->b, &r->c};
    for (int k = 0; k < 3; k++) {
        const r1cs_matrix *m = ms[k];
        if (m->row_ptr[0] != 0 || m->row_ptr[r->num_constraints] != m->nnz)
            return false;
        for (uint64_t i = 0; i < r->num_constraints; i++) {
            uint64_t b = m->row_ptr[i], e = m->row_ptr[i + 1];
            if (b > e || e > m->nnz)
                return false;
            for (uint64_t j = b; j < e; j++) {
                if (m->col[j] >= r1cs_num_vars(r) || r1cs_coeff_at(r, m, j) >= r->num_coeffs)
                    return false;
                if (j > b && m->col[j] <= m->col[j - 1])
                    return false;
            }
        }
    }
    return true;
}

static void test_validate(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("r1cs_validate"));
    gen g;
    gen_build(&g, 9000, 4); /* a few validation chunks */
    r1cs_t r;
    fr_t *w = compile_with_witness(&g, &r);
    assert_int_equal(r.coeff_width, 2);
    char msg[200];
    r1cs_matrix *ms[3] = {&r.a, &r.b, &r.c};
    for (int it = 0; it < test_iters(300); it++) {
        r1cs_matrix *m = ms[rnd(3)];
        if (m->nnz == 0)
            continue;
        uint64_t k = rnd(m->nnz), saved = 0;
        uint32_t nv = (uint32_t)r1cs_num_vars(&r);
        int what = (int)rnd(3);
        switch (what) {
        case 0: /* a column: neighbour values, the bound, or random */
            saved = m->col[k];
            m->col[k] = (uint32_t[]){m->col[k] + 1, m->col[k] - 1,           nv,
                                     nv - 1,        (uint32_t)rng_u64(&rng), 0}[rnd(6)];
            break;
        case 1: /* a coefficient index */
            saved = ((uint16_t *)m->coeff)[k];
            ((uint16_t *)m->coeff)[k] = (uint16_t)(rnd(2) ? r.num_coeffs : rnd(r.num_coeffs + 2));
            break;
        default: /* a row pointer */
            k = rnd(r.num_constraints + 1);
            saved = m->row_ptr[k];
            m->row_ptr[k] += rnd(2) ? 1 : (uint64_t)-1;
            break;
        }
        bool expect = naive_valid(&r);
        cuzk_status st = r1cs_validate(&r, 1 + (unsigned)rnd(3), msg, sizeof(msg));
        if ((st == CUZK_OK) != expect)
            fail_msg("iteration %d kind %d: validate says %d (%s), reference %d", it, what, (int)st,
                     msg, (int)expect);
        if (what == 0)
            m->col[k] = (uint32_t)saved;
        else if (what == 1)
            ((uint16_t *)m->coeff)[k] = (uint16_t)saved;
        else
            m->row_ptr[k] = saved;
    }
    assert_int_equal(r1cs_validate(&r, 2, msg, sizeof(msg)), CUZK_OK);
    free(w);
    r1cs_free(&r);
    gen_free(&g);
}

static void test_crc32c(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("r1cs_crc32c"));
    assert_int_equal(crc32c(0, "123456789", 9), 0xE3069283u);
    assert_int_equal(crc32c_portable(0, "123456789", 9), 0xE3069283u);
    /* RFC 3720 B.4: 32 bytes of zeros */
    uint8_t zeros[32] = {0};
    assert_int_equal(crc32c(0, zeros, 32), 0x8A9136AAu);
    uint8_t buf[4096];
    rng_bytes(&rng, buf, sizeof(buf));
    for (int it = 0; it < test_iters(300); it++) {
        size_t off = (size_t)rnd(64), len = (size_t)rnd(sizeof(buf) - 64);
        uint32_t x = crc32c(0, buf + off, len);
        assert_int_equal(x, crc32c_portable(0, buf + off, len));
        size_t cut = len ? (size_t)rnd(len) : 0;
        assert_int_equal(x, crc32c(crc32c(0, buf + off, cut), buf + off + cut, len - cut));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cubic),
        cmocka_unit_test(test_random_vs_naive),
        cmocka_unit_test(test_threads_and_bad_row),
        cmocka_unit_test(test_density),
        cmocka_unit_test(test_classify),
        cmocka_unit_test(test_validate),
        cmocka_unit_test(test_crc32c),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
