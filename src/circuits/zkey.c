/* The zkey circuit of both curves: the helpers they share, then
 * zkey_circuit_impl.h once per curve. */
#include "circuits/zkey.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "field/scalar_slots.h"
#include "groth16/assemble.h"
#include "util/wipe.h"

/* The coefficient section as a constraint system of domain_size rows, over
 * the key's curve. */
static cuzk_status compile_coeffs(r1cs_t *cs, const zkey_t *z, unsigned threads, char *msg,
                                  size_t msg_len)
{
    /* +1: an empty section still gets a valid pointer */
    r1cs_entry *entries = malloc(sizeof(r1cs_entry) * ((uint64_t)z->num_coeffs + 1));
    if (!entries) {
        if (msg && msg_len)
            snprintf(msg, msg_len, "out of memory for the zkey's coefficients");
        return CUZK_ERR_OUT_OF_MEMORY;
    }
    cuzk_status st = zkey_decode_coeffs(entries, z, threads, msg, msg_len);
    if (st == CUZK_OK) {
        char why[256] = "";
        st = r1cs_from_entries_over(cs, z->curve, entries, z->num_coeffs, z->domain_size,
                                    (uint64_t)z->num_public + 1, z->num_vars - z->num_public - 1,
                                    why, sizeof(why));
        if (st != CUZK_OK && msg && msg_len)
            snprintf(msg, msg_len, "%s: the coefficient section: %s", z->file.name, why);
    }
    free(entries);
    return st;
}

/* Moves the n points' finite ones to the front, in order, and marks them
 * in a bitmap over the n variables (*density; stays NULL when no point is
 * at infinity). A variable absent from A or B has the point at infinity
 * there; in a Poseidon-shaped circom circuit about half of B's are, and
 * each would cost the MSM a bucket entry for nothing (on the GPU, G2's
 * accumulation took 48 ms instead of 25 at 2^20 with them). */
static cuzk_status drop_infinity(void *points, size_t size, uint64_t n,
                                 bool (*at_infinity)(const void *), uint64_t **density,
                                 uint64_t *kept)
{
    *density = NULL;
    *kept = n;
    unsigned char *base = points;
    uint64_t first = 0;
    while (first < n && !at_infinity(base + first * size))
        first++;
    if (first == n)
        return CUZK_OK;
    uint64_t *bits = calloc((n + 63) / 64, sizeof(uint64_t));
    if (!bits)
        return CUZK_ERR_OUT_OF_MEMORY;
    for (uint64_t i = 0; i < first; i++)
        bits[i / 64] |= 1ull << (i % 64);
    uint64_t out = first;
    for (uint64_t i = first + 1; i < n; i++) {
        if (at_infinity(base + i * size))
            continue;
        memmove(base + out * size, base + i * size, size);
        bits[i / 64] |= 1ull << (i % 64);
        out++;
    }
    *density = bits;
    *kept = out;
    return CUZK_OK;
}

static inline const fr_t *bls12_381_as_slots_const(const fr_t *p)
{
    return p;
}

static inline fr_t *bls12_381_as_slots(fr_t *p)
{
    return p;
}

#include "circuits/zkey_circuit_names_bls12_381.h"
#define ZI_(name) bls12_381_##name
#define ZI_CURVE CURVE_BLS12_381
#define ZI_DECODE_G1 zkey_decode_g1
#define ZI_DECODE_G2 zkey_decode_g2
#define ZI_DOMAIN(name) domain_##name
#define ZI_PLAN groth16_plan_snarkjs
#define ZI_ASSEMBLE groth16_assemble
#define ZI_VK vk
#define ZI_SUMS(sums) (&(sums))
#define ZI_FR(name) fr_##name
#define ZI_AS_SLOTS bls12_381_as_slots
#define ZI_AS_SLOTS_CONST bls12_381_as_slots_const
#include "circuits/zkey_circuit_impl.h"

#include "circuits/zkey_circuit_names_bn254.h"
#define ZI_(name) bn254_##name
#define ZI_CURVE CURVE_BN254
#define ZI_DECODE_G1 bn254_zkey_decode_g1
#define ZI_DECODE_G2 bn254_zkey_decode_g2
#define ZI_DOMAIN(name) bn254_domain_##name
#define ZI_PLAN groth16_plan_snarkjs_bn254
#define ZI_ASSEMBLE bn254_groth16_assemble
#define ZI_VK bn254_vk
#define ZI_SUMS(sums) (&(sums).bn254)
#define ZI_FR(name) bn254_fr_##name
#define ZI_AS_SLOTS bn254_fr_as_slots
#define ZI_AS_SLOTS_CONST bn254_fr_as_slots_const
#include "circuits/zkey_circuit_impl.h"
