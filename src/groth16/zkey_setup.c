#include "groth16/zkey_setup.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "groth16/fixed_base.h"
#include "groth16/setup_common.h"
#include "poly/bn254_domain.h"
#include "poly/domain.h"
#include "poly/lagrange.h"
#include "util/parallel.h"
#include "util/wipe.h"

/* The points made per call of the sink: 2^16 points are 6.6 MB of G1 or
 * 13 MB of G2, and keep the memory of a key of any size to its scalars. */
#define ZKEY_SETUP_CHUNK ((size_t)1 << 16)
/* With the caller's batches (a GPU) a chunk is one call, and each call has
 * a fixed cost (the device's window table, about 0.1 s): 2^22 points a
 * call (0.8 GB of G2 points on the host) instead of 2^16. */
#define ZKEY_SETUP_BATCH_CHUNK ((size_t)1 << 22)

unsigned groth16_zkey_max_log_domain(curve_id curve)
{
    /* H needs the 2n-th roots: n = 2^(two-adicity − 1) at most; BLS12-381's
     * 2^31 is also the largest power of two a u32 domainSize holds. */
    return (curve == CURVE_BN254 ? BN254_DOMAIN_MAX_LOG : DOMAIN_MAX_LOG) - 1;
}

uint64_t groth16_zkey_domain_size_over(curve_id curve, uint64_t num_constraints,
                                       uint64_t num_public)
{
    uint64_t m = num_constraints + num_public;
    uint64_t n = 2;
    while (n <= m) {
        if (n == (uint64_t)1 << groth16_zkey_max_log_domain(curve))
            return 0;
        n <<= 1;
    }
    return n;
}

uint64_t groth16_zkey_domain_size(uint64_t num_constraints, uint64_t num_public)
{
    return groth16_zkey_domain_size_over(CURVE_BLS12_381, num_constraints, num_public);
}

static uint64_t part_count(const groth16_zkey_shape *sh, groth16_zkey_part part)
{
    switch (part) {
    case GROTH16_ZKEY_PART_C:
        return (uint64_t)sh->num_vars - sh->num_public - 1;
    case GROTH16_ZKEY_PART_H:
        return sh->domain_size;
    default:
        return sh->num_vars;
    }
}

#include "field/fr_names.h"
#define ZS_(name) bls12_381_zkey_##name
#define ZS_G1(name) g1_##name
#define ZS_G2(name) g2_##name
#define ZS_G1_GENERATOR G1_GENERATOR
#define ZS_G2_GENERATOR G2_GENERATOR
#define ZS_DOMAIN(name) domain_##name
#define ZS_LAGRANGE poly_lagrange_at
#define ZS_SETUP(name) setup_##name
#define ZS_VK_T groth16_vk_t
#define ZS_VK_FREE groth16_vk_free
#define ZS_BEGIN(sink) (sink)->begin
#define ZS_FIXED_BASE_OPS 1
#include "groth16/zkey_setup_impl.h"

#include "field/bn254_fr_names.h"
#define ZS_(name) bn254_zkey_##name
#define ZS_G1(name) bn254_g1_##name
#define ZS_G2(name) bn254_g2_##name
#define ZS_G1_GENERATOR BN254_G1_GENERATOR
#define ZS_G2_GENERATOR BN254_G2_GENERATOR
#define ZS_DOMAIN(name) bn254_domain_##name
#define ZS_LAGRANGE bn254_poly_lagrange_at
#define ZS_SETUP(name) bn254_setup_##name
#define ZS_VK_T bn254_groth16_vk_t
#define ZS_VK_FREE bn254_groth16_vk_free
#define ZS_BEGIN(sink) (sink)->begin_bn254
/* the caller's batches take and give BLS12-381's scalars and points */
#define ZS_FIXED_BASE_OPS 0
#include "groth16/zkey_setup_impl.h"

cuzk_status groth16_zkey_setup_dev(const r1cs_t *r, rng_t *rng, const groth16_setup_opts *opts,
                                   const groth16_zkey_sink *sink)
{
    static const groth16_setup_opts defaults = {0};
    if (!opts)
        opts = &defaults;
    if (r->num_inputs < 1)
        return CUZK_ERR_INVALID_ARGUMENT;
    bool bn254 = r->curve == CURVE_BN254;
    /* A BN254 key needs the sink's BN254 begin, and its points are made on
     * the CPU: the caller's batches are BLS12-381's. */
    if (bn254 && (!sink->begin_bn254 || opts->fixed_base))
        return CUZK_ERR_UNSUPPORTED;
    uint64_t nv = r1cs_num_vars(r), np = r->num_inputs - 1;
    uint64_t n = groth16_zkey_domain_size_over(r->curve, r->num_constraints, np);
    if (nv > UINT32_MAX || n == 0)
        return CUZK_ERR_UNSUPPORTED;
    groth16_zkey_shape shape = {.curve = r->curve,
                                .num_vars = (uint32_t)nv,
                                .num_public = (uint32_t)np,
                                .domain_size = (uint32_t)n};
    return bn254 ? bn254_zkey_setup_dev(r, &shape, rng, opts, sink)
                 : bls12_381_zkey_setup_dev(r, &shape, rng, opts, sink);
}
