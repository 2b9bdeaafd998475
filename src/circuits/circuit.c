/* The circuit kinds' operations (circuit.h): the built-in circuit over
 * bellman parameters, and snarkjs keys. */
#define _POSIX_C_SOURCE 200809L
#include "circuits/circuit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "circuits/builtin.h"
#include "circuits/zkey.h"
#include "formats/bellman_params.h"
#include "groth16/prover.h"
#include "msm/msm.h"
#include "util/msg.h"
#include "util/rng.h"

static uint64_t next_pow2(uint64_t x)
{
    uint64_t n = 1;
    while (n < x)
        n <<= 1;
    return n;
}

static uint64_t r1cs_bytes(const r1cs_t *r)
{
    uint64_t b = r->num_coeffs * sizeof(fr_t);
    const r1cs_matrix *ms[3] = {&r->a, &r->b, &r->c};
    for (int i = 0; i < 3; i++)
        b += (r->num_constraints + 1) * 8 + ms[i]->nnz * (4 + r->coeff_width);
    return b;
}

/* ------------------------------------------------------------ builtin */

/* The resident size of a circuit whose parameters are not read yet: the
 * queries (A, B_G1 and B_G2 at most one point a variable), the domain, and
 * the compiled matrices (about 6 nonzeros a row, 6 bytes each, and three
 * row pointers). */
static uint64_t builtin_dev_estimate(uint64_t ni, uint64_t aux, uint64_t domain_n, uint64_t rows)
{
    uint64_t nv = 1 + ni + aux;
    return (domain_n - 1 + aux + 2 * nv + 1 + ni) * sizeof(g1_affine_t) + nv * sizeof(g2_affine_t) +
           domain_n * sizeof(fr_t) + rows * (3 * 8 + 6 * 6);
}

/* The counts of a built-in circuit, from its shape and its parameter file's
 * header (mapped, not decoded); development parameters ("dev:SEED") are not
 * made here: their counts follow from the shape alone. */
static cuzk_status builtin_probe(const circuit_spec *spec, circuit_counts *out, char *msg,
                                 size_t msg_len)
{
    cuzk_status st = porep_like_params_check(&spec->shape);
    uint64_t cons = 0, aux = 0;
    if (st == CUZK_OK)
        st = porep_like_count(&spec->shape, &cons, &aux);
    if (st != CUZK_OK) {
        msg_set(msg, msg_len, "circuit %s: the built-in shape is out of range", spec->name);
        return st;
    }
    if (!spec->params_path) {
        msg_set(msg, msg_len, "circuit %s: needs its parameters path", spec->name);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    uint64_t ni = porep_like_num_inputs(&spec->shape);
    out->num_public = ni;
    out->num_vars = 1 + ni + aux;
    uint64_t rows = cons + 1 + ni; /* bellman's input rows */
    out->rows = rows;
    uint64_t seed;
    char why[256] = "";
    int dev = circuit_params_dev(spec->params_path, &seed, why, sizeof(why));
    if (dev < 0) {
        msg_set(msg, msg_len, "circuit %s: %s", spec->name, why);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    if (dev > 0) {
        out->domain_n = next_pow2(rows);
        out->estimate_bytes = builtin_dev_estimate(ni, aux, out->domain_n, rows);
        return CUZK_OK;
    }
    bellman_params_map_t m;
    st = bellman_params_open(&m, spec->params_path, spec->check, why, sizeof(why));
    if (st != CUZK_OK) {
        msg_set(msg, msg_len, "circuit %s: %s", spec->name, why[0] ? why : cuzk_status_str(st));
        return st;
    }
    uint64_t *n = m.count;
    if (m.vk.num_ic != 1 + ni || n[BELLMAN_L] != aux) {
        msg_set(msg, msg_len,
                "circuit %s: %s does not fit the shape: it has %zu inputs and %llu aux "
                "variables, the shape %llu and %llu",
                spec->name, spec->params_path, m.vk.num_ic, (unsigned long long)n[BELLMAN_L],
                (unsigned long long)(1 + ni), (unsigned long long)aux);
        bellman_params_close(&m);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    out->domain_n = n[BELLMAN_H] + 1;
    if (out->domain_n != next_pow2(rows)) {
        msg_set(msg, msg_len,
                "circuit %s: %s does not fit the shape: it is for a domain of %llu, the shape "
                "needs %llu",
                spec->name, spec->params_path, (unsigned long long)out->domain_n,
                (unsigned long long)next_pow2(rows));
        bellman_params_close(&m);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    /* Parameters, the density bitmaps and domain, and the compiled matrices
     * (about 6 nonzeros a row, 6 bytes each, and three row pointers). */
    out->estimate_bytes = (n[BELLMAN_H] + n[BELLMAN_L] + n[BELLMAN_A] + n[BELLMAN_B_G1] + 1 + ni) *
                              sizeof(g1_affine_t) +
                          n[BELLMAN_B_G2] * sizeof(g2_affine_t) + out->domain_n * sizeof(fr_t) +
                          rows * (3 * 8 + 6 * 6);
    bellman_params_close(&m);
    return CUZK_OK;
}

/* The built-in circuit's resident state. */
typedef struct builtin_state {
    r1cs_t r1cs;
    groth16_params_t params;
    groth16_circuit_t g; /* density, domain and plan over params */
} builtin_state;

static void builtin_unload(circuit_loaded *c)
{
    builtin_state *s = c->state;
    if (s) {
        groth16_circuit_free(&s->g);
        groth16_params_free(&s->params);
        r1cs_free(&s->r1cs);
        free(s);
    }
    memset(c, 0, sizeof(*c));
}

/* Host bytes of a parameter set's points (the verifying key's IC included). */
static uint64_t params_point_bytes(const groth16_params_t *p)
{
    return (p->num_h + p->num_l + p->num_a + p->num_b_g1 + p->vk.num_ic) * sizeof(g1_affine_t) +
           p->num_b_g2 * sizeof(g2_affine_t);
}

/* Development parameters for r from the seed, made here (groth16/setup.h). */
static cuzk_status builtin_make_dev(groth16_params_t *params, const r1cs_t *r, uint64_t seed,
                                    const circuit_load_opts *opts, char *msg, size_t msg_len)
{
    rng_t rng;
    rng_seed_chacha(&rng, seed);
    char why[256] = "";
    groth16_setup_opts so = {.threads = opts->threads,
                             .fixed_base = opts->fixed_base,
                             .msg = why,
                             .msg_len = sizeof(why)};
    cuzk_status st = groth16_setup_dev(params, r, &rng, &so);
    rng_wipe(&rng);
    if (st != CUZK_OK)
        msg_set(msg, msg_len, "cannot make the development parameters (dev:%llu): %s",
                (unsigned long long)seed, why[0] ? why : cuzk_status_str(st));
    return st;
}

static cuzk_status builtin_load(const circuit_spec *spec, const circuit_load_opts *opts,
                                circuit_loaded *out, char *msg, size_t msg_len)
{
    memset(out, 0, sizeof(*out));
    uint64_t seed = 0;
    int dev = circuit_params_dev(spec->params_path, &seed, msg, msg_len);
    if (dev < 0)
        return CUZK_ERR_INVALID_ARGUMENT;
    builtin_state *s = calloc(1, sizeof(*s));
    if (!s)
        return CUZK_ERR_OUT_OF_MEMORY;
    out->state = s;
    unsigned threads = opts->threads;
    /* The shape is synthesized once: the setup's constraint system is the
     * resident one. */
    cuzk_status st = builtin_compile(&s->r1cs, &spec->shape, threads);
    if (st != CUZK_OK) {
        msg_set(msg, msg_len, "cannot build the constraint system: %s", cuzk_status_str(st));
        goto fail;
    }
    st = dev ? builtin_make_dev(&s->params, &s->r1cs, seed, opts, msg, msg_len)
             : bellman_params_load(&s->params, spec->params_path, spec->check, threads, msg,
                                   msg_len);
    if (st != CUZK_OK ||
        (st = groth16_circuit_init(&s->g, &s->r1cs, &s->params, threads, msg, msg_len)) != CUZK_OK)
        goto fail;
    const groth16_params_t *p = &s->params;
    const r1cs_density_t *den = &s->g.density;
    out->cs = &s->r1cs;
    out->rows = s->r1cs.num_constraints;
    out->plan = &s->g.plan;
    out->vk = &p->vk;
    out->bytes = r1cs_bytes(&s->r1cs) + params_point_bytes(p) +
                 (2 * den->num_aux + den->num_inputs + 63) / 64 * 8 + s->g.domain.n * sizeof(fr_t);
    return CUZK_OK;
fail:
    builtin_unload(out);
    return st;
}

/* Frees the query points of params and clears every pointer to them in
 * plan; returns the bytes freed. The verifying key stays: the finalizer
 * assembles and checks proofs with it. */
static uint64_t drop_query_points(groth16_params_t *p, groth16_plan *plan)
{
    uint64_t freed = (p->num_h + p->num_l + p->num_a + p->num_b_g1) * sizeof(g1_affine_t) +
                     p->num_b_g2 * sizeof(g2_affine_t);
    free(p->h);
    free(p->l);
    free(p->a);
    free(p->b_g1);
    free(p->b_g2);
    p->h = p->l = p->a = p->b_g1 = NULL;
    p->b_g2 = NULL;
    for (unsigned i = 0; i < plan->num_msms; i++)
        for (unsigned k = 0; k < plan->msm[i].num_parts; k++)
            plan->msm[i].part[k].points = NULL;
    return freed;
}

static void builtin_drop_points(circuit_loaded *c)
{
    builtin_state *s = c->state;
    if (!s || !s->params.h)
        return;
    c->bytes -= drop_query_points(&s->params, &s->g.plan);
}

static cuzk_status builtin_seed_witness(const circuit_spec *spec, uint64_t seed, fr_t *w,
                                        uint64_t num_vars, unsigned threads)
{
    return builtin_witness(w, num_vars, &spec->shape, seed, threads);
}

/* ------------------------------------------------------------ zkey */

/* The verifying key's few points always get the subgroup check; the
 * proving sections get the spec's. */
static cuzk_status zkey_probe(const circuit_spec *spec, circuit_counts *out, char *msg,
                              size_t msg_len)
{
    if (!spec->zkey_path) {
        msg_set(msg, msg_len, "circuit %s: needs its zkey path", spec->name);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    zkey_t z;
    cuzk_status st = zkey_open(&z, spec->zkey_path, FORMATS_CHECK_SUBGROUP, msg, msg_len);
    if (st != CUZK_OK)
        return st;
    out->curve = z.curve;
    out->num_vars = z.num_vars;
    out->num_public = z.num_public;
    out->domain_n = z.domain_size;
    out->rows = z.domain_size; /* the coefficient rows, padded: a, b, c are domain-sized */
    uint64_t nv = z.num_vars, nc = nv - z.num_public - 1, n = z.domain_size;
    /* the points (BLS12-381's sizes: BN254's are smaller), the domain, and
     * about 6 bytes a coefficient plus row pointers for the compiled
     * matrices */
    out->estimate_bytes = (3 * nv + nc + n + z.num_public + 1) * sizeof(g1_affine_t) +
                          nv * sizeof(g2_affine_t) + n * sizeof(fr_t) + (uint64_t)z.num_coeffs * 8 +
                          3 * (n + 1) * 8;
    zkey_close(&z);
    return CUZK_OK;
}

typedef struct zkey_state {
    zkey_t zkey; /* mapped */
    union {      /* by the key's curve */
        zkey_circuit_t zc;
        bn254_zkey_circuit_t bn254_zc;
    };
} zkey_state;

static void zkey_unload(circuit_loaded *c)
{
    zkey_state *s = c->state;
    if (s) {
        if (s->zkey.curve == CURVE_BN254)
            bn254_zkey_circuit_free(&s->bn254_zc);
        else
            zkey_circuit_free(&s->zc);
        zkey_close(&s->zkey);
        free(s);
    }
    memset(c, 0, sizeof(*c));
}

static cuzk_status zkey_load(const circuit_spec *spec, const circuit_load_opts *opts,
                             circuit_loaded *out, char *msg, size_t msg_len)
{
    unsigned threads = opts->threads;
    memset(out, 0, sizeof(*out));
    zkey_state *s = calloc(1, sizeof(*s));
    if (!s)
        return CUZK_ERR_OUT_OF_MEMORY;
    cuzk_status st = zkey_open(&s->zkey, spec->zkey_path, FORMATS_CHECK_SUBGROUP, msg, msg_len);
    if (st != CUZK_OK) {
        free(s);
        return st;
    }
    out->state = s;
    bool bn254 = s->zkey.curve == CURVE_BN254;
    st = bn254 ? bn254_zkey_circuit_init(&s->bn254_zc, &s->zkey, spec->check, threads, msg, msg_len)
               : zkey_circuit_init(&s->zc, &s->zkey, spec->check, threads, msg, msg_len);
    if (st != CUZK_OK) {
        zkey_close(&s->zkey);
        free(s);
        out->state = NULL;
        return st;
    }
    out->curve = s->zkey.curve;
    out->c_is_ab = true;
    if (bn254) {
        out->cs = &s->bn254_zc.cs;
        out->plan = &s->bn254_zc.plan;
        out->bn254_vk = &s->zkey.bn254_vk;
        out->bytes = bn254_zkey_circuit_bytes(&s->bn254_zc);
    } else {
        out->cs = &s->zc.cs;
        out->plan = &s->zc.plan;
        out->vk = &s->zkey.vk;
        out->bytes = zkey_circuit_bytes(&s->zc);
    }
    out->rows = out->cs->num_constraints;
    return CUZK_OK;
}

/* ------------------------------------------------------------ external */

/* The counts the caller gave against the parameter file's header: every
 * query's length follows from them and the bitmaps (bellman's
 * create_random_proof reads the same queries). */
static cuzk_status external_probe(const circuit_spec *spec, circuit_counts *out, char *msg,
                                  size_t msg_len)
{
    if (!spec->params_path || spec->num_inputs < 1 || spec->num_constraints < 1 ||
        !spec->b_input_density ||
        (spec->num_aux && (!spec->a_aux_density || !spec->b_aux_density))) {
        msg_set(msg, msg_len,
                "circuit %s: an external circuit needs its parameters, at least one input "
                "(ONE), its constraint count and three density bitmaps",
                spec->name);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    uint64_t seed;
    if (circuit_params_dev(spec->params_path, &seed, NULL, 0) != 0) {
        msg_set(msg, msg_len,
                "circuit %s: development parameters (\"dev:SEED\") are for the built-in "
                "circuit only; an external circuit needs its parameter file",
                spec->name);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    bellman_params_map_t m;
    char why[256] = "";
    cuzk_status st = bellman_params_open(&m, spec->params_path, spec->check, why, sizeof(why));
    if (st != CUZK_OK) {
        msg_set(msg, msg_len, "circuit %s: %s", spec->name, why[0] ? why : cuzk_status_str(st));
        return st;
    }
    uint64_t ni = spec->num_inputs, na = spec->num_aux, *n = m.count;
    uint64_t domain = next_pow2(spec->num_constraints);
    groth16_bellman_query q = {.num_inputs = ni,
                               .num_aux = na,
                               .a_aux_count = msm_popcount(spec->a_aux_density, na),
                               .b_input_count = msm_popcount(spec->b_input_density, ni),
                               .b_aux_count = msm_popcount(spec->b_aux_density, na)};
    groth16_query_lengths have = {.ic = m.vk.num_ic,
                                  .h = n[BELLMAN_H],
                                  .l = n[BELLMAN_L],
                                  .a = n[BELLMAN_A],
                                  .b_g1 = n[BELLMAN_B_G1],
                                  .b_g2 = n[BELLMAN_B_G2]};
    uint64_t have_len, want_len;
    const char *bad = groth16_query_mismatch(&have, &q, domain, &have_len, &want_len);
    if (bad) {
        msg_set(msg, msg_len,
                "circuit %s: %s does not fit the counts and densities given: query %s has %llu "
                "points, they need %llu",
                spec->name, spec->params_path, bad, (unsigned long long)have_len,
                (unsigned long long)want_len);
        bellman_params_close(&m);
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    out->num_vars = ni + na;
    out->num_public = ni - 1;
    out->domain_n = domain;
    out->rows = spec->num_constraints;
    out->estimate_bytes =
        (n[BELLMAN_H] + n[BELLMAN_L] + n[BELLMAN_A] + n[BELLMAN_B_G1] + ni) * sizeof(g1_affine_t) +
        n[BELLMAN_B_G2] * sizeof(g2_affine_t) + domain * sizeof(fr_t);
    bellman_params_close(&m);
    return CUZK_OK;
}

typedef struct external_state {
    groth16_params_t params;
    domain_t domain;
    groth16_plan plan;
} external_state;

static void external_unload(circuit_loaded *c)
{
    external_state *s = c->state;
    if (s) {
        domain_free(&s->domain);
        groth16_params_free(&s->params);
        free(s);
    }
    memset(c, 0, sizeof(*c));
}

static cuzk_status external_load(const circuit_spec *spec, const circuit_load_opts *opts,
                                 circuit_loaded *out, char *msg, size_t msg_len)
{
    unsigned threads = opts->threads;
    memset(out, 0, sizeof(*out));
    external_state *s = calloc(1, sizeof(*s));
    if (!s)
        return CUZK_ERR_OUT_OF_MEMORY;
    out->state = s;
    cuzk_status st =
        bellman_params_load(&s->params, spec->params_path, spec->check, threads, msg, msg_len);
    if (st == CUZK_OK && (st = domain_init(&s->domain, spec->num_constraints, DOMAIN_ROOTS_BELLMAN,
                                           threads)) != CUZK_OK)
        msg_set(msg, msg_len, "cannot build the evaluation domain: %s", cuzk_status_str(st));
    if (st != CUZK_OK) {
        external_unload(out);
        return st;
    }
    const groth16_params_t *p = &s->params;
    uint64_t na = spec->num_aux;
    groth16_bellman_query q = {.h = p->h,
                               .l = p->l,
                               .a = p->a,
                               .b_g1 = p->b_g1,
                               .b_g2 = p->b_g2,
                               .num_inputs = spec->num_inputs,
                               .num_aux = na,
                               .a_aux_density = spec->a_aux_density,
                               .b_input_density = spec->b_input_density,
                               .b_aux_density = spec->b_aux_density,
                               .a_aux_count = msm_popcount(spec->a_aux_density, na),
                               .b_input_count =
                                   msm_popcount(spec->b_input_density, spec->num_inputs),
                               .b_aux_count = msm_popcount(spec->b_aux_density, na)};
    groth16_plan_bellman(&s->plan, &q, &s->domain);
    if ((st = groth16_plan_check(&s->plan, msg, msg_len)) != CUZK_OK) {
        external_unload(out);
        return st;
    }
    out->rows = spec->num_constraints;
    out->plan = &s->plan;
    out->vk = &p->vk;
    out->bytes = params_point_bytes(p) + s->domain.n * sizeof(fr_t);
    return CUZK_OK;
}

static void external_drop_points(circuit_loaded *c)
{
    external_state *s = c->state;
    if (!s || !s->params.h)
        return;
    c->bytes -= drop_query_points(&s->params, &s->plan);
}

/* ------------------------------------------------------------ the table */

static const circuit_ops kinds[CIRCUIT_KIND_COUNT] = {
    [CIRCUIT_BUILTIN] = {.name = "builtin",
                         .probe = builtin_probe,
                         .load = builtin_load,
                         .unload = builtin_unload,
                         .drop_points = builtin_drop_points,
                         .witness_from_seed = builtin_seed_witness},
    [CIRCUIT_ZKEY] = {.name = "zkey",
                      .probe = zkey_probe,
                      .load = zkey_load,
                      .unload = zkey_unload},
    [CIRCUIT_EXTERNAL] = {.name = "external",
                          .probe = external_probe,
                          .load = external_load,
                          .unload = external_unload,
                          .drop_points = external_drop_points,
                          .needs_abc = true},
};

const circuit_ops *circuit_kind_ops(circuit_kind kind)
{
    return (unsigned)kind < CIRCUIT_KIND_COUNT ? &kinds[kind] : NULL;
}

static uint64_t *copy_bits(const uint64_t *bits, uint64_t n, bool *failed)
{
    if (!bits)
        return NULL;
    size_t words = (size_t)((n + 63) / 64);
    uint64_t *c = malloc(sizeof(uint64_t) * (words ? words : 1));
    if (!c)
        *failed = true;
    else
        memcpy(c, bits, sizeof(uint64_t) * words);
    return c;
}

static char *copy_str(const char *s, bool *failed)
{
    if (!s)
        return NULL;
    char *c = strdup(s);
    if (!c)
        *failed = true;
    return c;
}

cuzk_status circuit_spec_copy(circuit_spec *out, const circuit_spec *spec)
{
    bool failed = false;
    *out = *spec;
    out->name = copy_str(spec->name, &failed);
    out->params_path = copy_str(spec->params_path, &failed);
    out->zkey_path = copy_str(spec->zkey_path, &failed);
    out->a_aux_density = copy_bits(spec->a_aux_density, spec->num_aux, &failed);
    out->b_input_density = copy_bits(spec->b_input_density, spec->num_inputs, &failed);
    out->b_aux_density = copy_bits(spec->b_aux_density, spec->num_aux, &failed);
    if (failed) {
        circuit_spec_free(out);
        return CUZK_ERR_OUT_OF_MEMORY;
    }
    return CUZK_OK;
}

void circuit_spec_free(circuit_spec *spec)
{
    free((char *)spec->name);
    free((char *)spec->params_path);
    free((char *)spec->zkey_path);
    free((uint64_t *)spec->a_aux_density);
    free((uint64_t *)spec->b_input_density);
    free((uint64_t *)spec->b_aux_density);
    memset(spec, 0, sizeof(*spec));
}

const char *circuit_spec_key_path(const circuit_spec *spec)
{
    return spec->kind == CIRCUIT_ZKEY ? spec->zkey_path : spec->params_path;
}

int circuit_params_dev(const char *path, uint64_t *seed, char *msg, size_t msg_len)
{
    const size_t plen = sizeof(CIRCUIT_DEV_PREFIX) - 1;
    if (!path || strncmp(path, CIRCUIT_DEV_PREFIX, plen) != 0)
        return 0;
    const char *digits = path + plen;
    uint64_t v = 0;
    bool ok = *digits != 0;
    for (const char *c = digits; ok && *c; c++) {
        unsigned d = (unsigned)(*c - '0');
        if (d > 9 || v > (UINT64_MAX - d) / 10)
            ok = false;
        else
            v = v * 10 + d;
    }
    if (!ok) {
        msg_set(msg, msg_len,
                "params '%s': development parameters are \"dev:SEED\" with SEED a decimal "
                "integer from 0 to 18446744073709551615 (a file named so: './%s')",
                path, path);
        return -1;
    }
    *seed = v;
    return 1;
}

const char *circuit_kind_name(circuit_kind kind)
{
    return (unsigned)kind < CIRCUIT_KIND_COUNT ? kinds[kind].name : "unknown";
}

bool circuit_kind_parse(const char *s, circuit_kind *out)
{
    for (unsigned k = 0; s && k < CIRCUIT_KIND_COUNT; k++)
        if (!strcmp(s, kinds[k].name)) {
            *out = (circuit_kind)k;
            return true;
        }
    return false;
}

/* ------------------------------------------------------------ a, b, c */

void circuit_eval_abc(const circuit_loaded *c, const fr_t *w, fr_t *abc, uint64_t domain_n,
                      unsigned threads)
{
    fr_t *a = abc, *b = a + domain_n, *cc = b + domain_n;
    uint64_t rows = c->rows;
    r1cs_eval(c->cs, w, a, b, c->c_is_ab ? NULL : cc, threads);
    if (c->c_is_ab)
        r1cs_mul_rows_over(c->curve, cc, a, b, rows, threads);
}
