/* The zkey circuit (zkey.h) for one curve. No include guard: zkey.c
 * includes it once per curve after defining zkey_circuit_decl.h's macros
 * and
 *   ZI_(name)      its static helpers' names
 *   ZI_CURVE       the curve_id
 *   ZI_DECODE_G1, ZI_DECODE_G2   the key's point decoders (formats/zkey.h)
 *   ZI_DOMAIN(name)              the domain's functions (domain_##name)
 *   ZI_PLAN        the plan builder (groth16_plan_snarkjs)
 *   ZI_ASSEMBLE, ZI_VK, ZI_SUMS(sums)   assembly, the zkey's key member,
 *                  the sums' member
 *   ZI_FR(name)    the scalar field's functions
 *   ZI_AS_SLOTS(p), ZI_AS_SLOTS_CONST(p)   elements as fr_t slots
 * It undefines them all. */

static bool ZI_(g1_at_infinity)(const void *p)
{
    return ((const ZD_G1 *)p)->infinity;
}

static bool ZI_(g2_at_infinity)(const void *p)
{
    return ((const ZD_G2 *)p)->infinity;
}

cuzk_status ZD_(init)(ZD_(t) * c, const zkey_t *z, formats_check check, unsigned threads,
                      char *msg, size_t msg_len)
{
    memset(c, 0, sizeof(*c));
    if (z->curve != ZI_CURVE) {
        if (msg && msg_len)
            snprintf(msg, msg_len, "%s: a key for the %s curve, not %s", z->file.name,
                     curve_id_snarkjs_name(z->curve), curve_id_snarkjs_name(ZI_CURVE));
        return CUZK_ERR_INVALID_ARGUMENT;
    }
    c->zkey = z;
    uint64_t nv = z->num_vars, np = z->num_public, n = z->domain_size;
    uint64_t nc = nv - np - 1;
    c->a = malloc(sizeof(ZD_G1) * (nv + 1));
    c->b1 = malloc(sizeof(ZD_G1) * (nv + 1));
    c->b2 = malloc(sizeof(ZD_G2) * (nv + 1));
    /* H and C in one allocation, C right after H: the plan sums both in
     * one MSM. */
    c->h = malloc(sizeof(ZD_G1) * (n + nc + 1));
    c->c = c->h ? c->h + n : NULL;
    cuzk_status st = CUZK_ERR_OUT_OF_MEMORY;
    if (!c->a || !c->b1 || !c->b2 || !c->h) {
        if (msg && msg_len)
            snprintf(msg, msg_len, "out of memory for the zkey's sections");
        goto fail;
    }
    if ((st = compile_coeffs(&c->cs, z, threads, msg, msg_len)) != CUZK_OK ||
        (st = ZI_DECODE_G1(c->a, z, ZKEY_POINTS_A, 0, nv, check, threads, msg, msg_len)) !=
            CUZK_OK ||
        (st = ZI_DECODE_G1(c->b1, z, ZKEY_POINTS_B1, 0, nv, check, threads, msg, msg_len)) !=
            CUZK_OK ||
        (st = ZI_DECODE_G2(c->b2, z, 0, nv, check, threads, msg, msg_len)) != CUZK_OK ||
        (st = ZI_DECODE_G1(c->c, z, ZKEY_POINTS_C, 0, nc, check, threads, msg, msg_len)) !=
            CUZK_OK ||
        (st = ZI_DECODE_G1(c->h, z, ZKEY_POINTS_H, 0, n, check, threads, msg, msg_len)) !=
            CUZK_OK)
        goto fail;
    if ((st = ZI_DOMAIN(init)(&c->domain, n, DOMAIN_ROOTS_SNARKJS, threads)) != CUZK_OK) {
        if (msg && msg_len)
            snprintf(msg, msg_len, "cannot build the evaluation domain of size %llu: %s",
                     (unsigned long long)n, cuzk_status_str(st));
        goto fail;
    }
    if (c->domain.n != n) {
        if (msg && msg_len)
            snprintf(msg, msg_len, "the zkey's domain size %llu is not a power of two",
                     (unsigned long long)n);
        st = CUZK_ERR_CORRUPT;
        goto fail;
    }
    if ((st = drop_infinity(c->a, sizeof(ZD_G1), nv, ZI_(g1_at_infinity), &c->a_density,
                            &c->a_points)) != CUZK_OK ||
        (st = drop_infinity(c->b1, sizeof(ZD_G1), nv, ZI_(g1_at_infinity), &c->b1_density,
                            &c->b1_points)) != CUZK_OK ||
        (st = drop_infinity(c->b2, sizeof(ZD_G2), nv, ZI_(g2_at_infinity), &c->b2_density,
                            &c->b2_points)) != CUZK_OK) {
        if (msg && msg_len)
            snprintf(msg, msg_len, "out of memory for the zkey's density bitmaps");
        goto fail;
    }
    groth16_snarkjs_query q = {.h = c->h,
                               .c = c->c,
                               .a = c->a,
                               .b1 = c->b1,
                               .b2 = c->b2,
                               .num_vars = nv,
                               .num_public = np,
                               .a_density = c->a_density,
                               .b1_density = c->b1_density,
                               .b2_density = c->b2_density,
                               .a_points = c->a_points,
                               .b1_points = c->b1_points,
                               .b2_points = c->b2_points};
    ZI_PLAN(&c->plan, &q, &c->domain);
    return CUZK_OK;
fail:
    ZD_(free)(c);
    return st;
}

void ZD_(free)(ZD_(t) * c)
{
    r1cs_free(&c->cs);
    free(c->a);
    free(c->b1);
    free(c->b2);
    free(c->h); /* and C, in the same block */
    free(c->a_density);
    free(c->b1_density);
    free(c->b2_density);
    ZI_DOMAIN(free)(&c->domain);
    memset(c, 0, sizeof(*c));
}

uint64_t ZD_(bytes)(const ZD_(t) * c)
{
    const zkey_t *z = c->zkey;
    uint64_t nv = z->num_vars, n = z->domain_size, nc = nv - z->num_public - 1;
    uint64_t bytes = (2 * nv + n + nc) * sizeof(ZD_G1) + nv * sizeof(ZD_G2) +
                     n * sizeof(ZD_FR_T) + c->cs.num_coeffs * sizeof(ZD_FR_T);
    const uint64_t *bitmaps[3] = {c->a_density, c->b1_density, c->b2_density};
    for (int k = 0; k < 3; k++)
        bytes += bitmaps[k] ? (nv + 63) / 64 * 8 : 0;
    const r1cs_matrix *ms[3] = {&c->cs.a, &c->cs.b, &c->cs.c};
    for (int k = 0; k < 3; k++)
        bytes += (c->cs.num_constraints + 1) * 8 + ms[k]->nnz * (4 + c->cs.coeff_width);
    return bytes;
}

void ZD_(eval_abc)(const ZD_(t) * c, const ZD_FR_T *w, ZD_FR_T *abc, unsigned threads)
{
    size_t n = c->zkey->domain_size;
    fr_t *a = ZI_AS_SLOTS(abc), *b = a + n, *cc = b + n;
    r1cs_eval(&c->cs, ZI_AS_SLOTS_CONST(w), a, b, NULL, threads);
    r1cs_mul_rows_over(ZI_CURVE, cc, a, b, n, threads);
}

size_t ZD_(scratch_bytes)(const ZD_(t) * c)
{
    return 3 * (size_t)c->zkey->domain_size * sizeof(ZD_FR_T);
}

cuzk_status ZD_(prove_with)(ZD_PROOF_T *proof, const ZD_(t) * c, const ZD_FR_T *w,
                            const ZD_FR_T *r, const ZD_FR_T *s, void *scratch, unsigned threads)
{
    size_t n = c->zkey->domain_size;
    ZD_(eval_abc)(c, w, scratch, threads);
    groth16_sums sums;
    cuzk_status st = groth16_plan_sums(&sums, &c->plan, ZI_AS_SLOTS_CONST(w), scratch, n, threads,
                                       NULL, NULL, NULL);
    if (st != CUZK_OK)
        return st;
    ZI_ASSEMBLE(proof, &c->zkey->ZI_VK, ZI_SUMS(sums), r, s);
    return CUZK_OK;
}

cuzk_status ZD_(prove)(ZD_PROOF_T *proof, const ZD_(t) * c, const ZD_FR_T *w, rng_t *rng,
                       void *scratch, unsigned threads)
{
    ZD_FR_T r, s;
    ZI_FR(random)(&r, rng);
    ZI_FR(random)(&s, rng);
    cuzk_status st = ZD_(prove_with)(proof, c, w, &r, &s, scratch, threads);
    cuzk_wipe(&r, sizeof(r));
    cuzk_wipe(&s, sizeof(s));
    return st;
}

#undef ZI_
#undef ZI_CURVE
#undef ZI_DECODE_G1
#undef ZI_DECODE_G2
#undef ZI_DOMAIN
#undef ZI_PLAN
#undef ZI_ASSEMBLE
#undef ZI_VK
#undef ZI_SUMS
#undef ZI_FR
#undef ZI_AS_SLOTS
#undef ZI_AS_SLOTS_CONST
#include "circuits/zkey_circuit_undef.h"
