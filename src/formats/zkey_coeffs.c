#include <string.h>

#include "field/limbs.h"
#include "field/scalar_slots.h"
#include "formats/zkey.h"

/* A stored value X = v·2^512 mod r read as Montgomery limbs is the element
 * v·2^256; leaving Montgomery form once gives the integer v·2^256 mod r,
 * which is exactly how the scalar field's code holds v (either curve: both
 * have R = 2^256). */
static bool coeff_value(curve_id curve, fr_t *v, const uint8_t *in)
{
    if (curve == CURVE_BN254) {
        bn254_fr_t x;
        limbs_from_le(x.l, in, BN254_FR_LIMBS);
        if (!limbs_lt(x.l, BN254_FR_MODULUS, BN254_FR_LIMBS))
            return false;
        bn254_fr_to_raw(bn254_fr_slots(v)->l, &x);
        return true;
    }
    fr_t x;
    limbs_from_le(x.l, in, FR_LIMBS);
    if (!limbs_lt(x.l, FR_MODULUS, FR_LIMBS))
        return false;
    fr_to_raw(v->l, &x);
    return true;
}

typedef struct decode_job {
    r1cs_entry *out;
    const zkey_t *z;
} decode_job;

/* Entry i, or the reason it is wrong (*why, when why is not NULL). */
static cuzk_status decode_entry(const decode_job *j, uint64_t i, const char **why)
{
    const uint8_t *p = j->z->coeffs + i * ZKEY_COEFF_BYTES;
    r1cs_entry *c = &j->out[i];
    c->matrix = ld_le32(p);
    c->row = ld_le32(p + 4);
    c->col = ld_le32(p + 8);
    const char *bad = NULL;
    cuzk_status st = CUZK_ERR_CORRUPT;
    if (c->matrix > 1)
        bad = "matrix is neither 0 (A) nor 1 (B)";
    else if (c->row >= j->z->domain_size)
        bad = "row is not below domainSize";
    else if (c->col >= j->z->num_vars)
        bad = "signal is not below nVars";
    else if (!coeff_value(j->z->curve, &c->value, p + 12)) {
        bad = "value is not below r";
        st = CUZK_ERR_NOT_CANONICAL;
    }
    if (why)
        *why = bad;
    return bad ? st : CUZK_OK;
}

static cuzk_status decode_one(void *ctx, uint64_t i)
{
    return decode_entry(ctx, i, NULL);
}

cuzk_status zkey_decode_coeffs(r1cs_entry *out, const zkey_t *z, unsigned threads, char *msg,
                               size_t msg_len)
{
    decode_job j = {out, z};
    uint64_t bad = formats_parallel_first_failure(z->num_coeffs, 4096, threads, decode_one, &j);
    if (bad == UINT64_MAX)
        return CUZK_OK;
    const char *why;
    cuzk_status st = decode_entry(&j, bad, &why);
    const r1cs_entry *c = &out[bad];
    formats_msg(msg, msg_len,
                "%s: section 4 (coefficients), entry %llu (matrix %u, row %u, signal %u): %s",
                z->file.name, (unsigned long long)bad, c->matrix, c->row, c->col, why);
    return st;
}
