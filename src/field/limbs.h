#ifndef CUZK_FIELD_LIMBS_H
#define CUZK_FIELD_LIMBS_H

/* Limb primitives under Fp (6 limbs, 384 bits) and Fr (4 limbs, 256 bits):
 * little-endian 64-bit limbs, the modulus p and n0 = -p^-1 mod 2^64 passed
 * explicitly. Inputs are < p, outputs are < p. Constant time. Outputs may
 * alias inputs.
 *
 * Each primitive has a portable C body (limbs_portable.c). On x86-64 with
 * CUZK_ASM_X86_64 the Montgomery products also have a mulx/adcx/adox body and
 * the additions an add/adc/cmov body (limbs_x86_64.c; they assume 2p < 2^(64n),
 * true for both moduli), chosen at start-up from cpuid (BMI2 and ADX) unless
 * the environment has CUZK_NO_ASM=1. The choice is one global flag read by
 * the inline dispatchers below: a branch that always goes the same way, which
 * measured no slower than a call through a function pointer set once. */

#include <stdbool.h>
#include <stdint.h>

#if defined(CUZK_ASM_X86_64) && defined(__x86_64__) && defined(__GNUC__)
#define LIMBS_MULX 1
#endif

/* Portable bodies. */
void add_mod_384_portable(uint64_t r[6], const uint64_t a[6], const uint64_t b[6],
                          const uint64_t p[6]);
void sub_mod_384_portable(uint64_t r[6], const uint64_t a[6], const uint64_t b[6],
                          const uint64_t p[6]);
void mont_mul_384_portable(uint64_t r[6], const uint64_t a[6], const uint64_t b[6],
                           const uint64_t p[6], uint64_t n0);
void mont_sqr_384_portable(uint64_t r[6], const uint64_t a[6], const uint64_t p[6], uint64_t n0);

void add_mod_256_portable(uint64_t r[4], const uint64_t a[4], const uint64_t b[4],
                          const uint64_t p[4]);
void sub_mod_256_portable(uint64_t r[4], const uint64_t a[4], const uint64_t b[4],
                          const uint64_t p[4]);
void mont_mul_256_portable(uint64_t r[4], const uint64_t a[4], const uint64_t b[4],
                           const uint64_t p[4], uint64_t n0);
void mont_sqr_256_portable(uint64_t r[4], const uint64_t a[4], const uint64_t p[4], uint64_t n0);

/* Montgomery reduction of a single-width value: r = a · 2^-(64n) mod p,
 * for any a < 2^(64n) (used to leave Montgomery form). */
void from_mont_384(uint64_t r[6], const uint64_t a[6], const uint64_t p[6], uint64_t n0);
void from_mont_256(uint64_t r[4], const uint64_t a[4], const uint64_t p[4], uint64_t n0);

/* Variable-time inverse of the integer a modulo an odd prime p (n = 4 or 6
 * limbs, a < p): r = a^-1 mod p, and 0 for a = 0. Bernstein-Yang divsteps
 * (limbs_inv.c); for public values only. */
void limbs_inv_var(uint64_t *r, const uint64_t *a, const uint64_t *p, unsigned n);

/* Limb helpers on n limbs (n <= 6). */
/* Returns 1 when a < b as integers, else 0; constant time. */
uint64_t limbs_lt(const uint64_t *a, const uint64_t *b, unsigned n);
/* Returns 1 when every limb is zero, else 0; constant time. */
uint64_t limbs_is_zero(const uint64_t *a, unsigned n);
/* Big-endian and little-endian bytes (8n of them) <-> limbs. */
void limbs_from_be(uint64_t *r, const uint8_t *in, unsigned n);
void limbs_to_be(uint8_t *out, const uint64_t *a, unsigned n);
void limbs_from_le(uint64_t *r, const uint8_t *in, unsigned n);
void limbs_to_le(uint8_t *out, const uint64_t *a, unsigned n);

/* The x86-64 bodies and the run-time choice. */
#ifdef LIMBS_MULX
void mont_mul_384_mulx(uint64_t r[6], const uint64_t a[6], const uint64_t b[6], const uint64_t p[6],
                       uint64_t n0);
void mont_sqr_384_mulx(uint64_t r[6], const uint64_t a[6], const uint64_t p[6], uint64_t n0);
void mont_mul_256_mulx(uint64_t r[4], const uint64_t a[4], const uint64_t b[4], const uint64_t p[4],
                       uint64_t n0);
void mont_sqr_256_mulx(uint64_t r[4], const uint64_t a[4], const uint64_t p[4], uint64_t n0);
/* Additions with add/adc and cmov (baseline x86-64; switched with the rest). */
void add_mod_384_x86(uint64_t r[6], const uint64_t a[6], const uint64_t b[6], const uint64_t p[6]);
void sub_mod_384_x86(uint64_t r[6], const uint64_t a[6], const uint64_t b[6], const uint64_t p[6]);
void add_mod_256_x86(uint64_t r[4], const uint64_t a[4], const uint64_t b[4], const uint64_t p[4]);
void sub_mod_256_x86(uint64_t r[4], const uint64_t a[4], const uint64_t b[4], const uint64_t p[4]);
/* Nonzero when the assembly bodies are in use; set once before main(). */
extern int limbs_use_asm;
#endif

/* True when the CPU has BMI2 and ADX (whatever the CUZK_NO_ASM setting). */
bool limbs_cpu_has_mulx(void);
/* True when the Montgomery products run on the mulx bodies. */
bool limbs_mulx_active(void);

static inline void mont_mul_384(uint64_t r[6], const uint64_t a[6], const uint64_t b[6],
                                const uint64_t p[6], uint64_t n0)
{
#ifdef LIMBS_MULX
    if (limbs_use_asm) {
        mont_mul_384_mulx(r, a, b, p, n0);
        return;
    }
#endif
    mont_mul_384_portable(r, a, b, p, n0);
}

static inline void mont_sqr_384(uint64_t r[6], const uint64_t a[6], const uint64_t p[6],
                                uint64_t n0)
{
#ifdef LIMBS_MULX
    if (limbs_use_asm) {
        mont_sqr_384_mulx(r, a, p, n0);
        return;
    }
#endif
    mont_sqr_384_portable(r, a, p, n0);
}

static inline void mont_mul_256(uint64_t r[4], const uint64_t a[4], const uint64_t b[4],
                                const uint64_t p[4], uint64_t n0)
{
#ifdef LIMBS_MULX
    if (limbs_use_asm) {
        mont_mul_256_mulx(r, a, b, p, n0);
        return;
    }
#endif
    mont_mul_256_portable(r, a, b, p, n0);
}

static inline void mont_sqr_256(uint64_t r[4], const uint64_t a[4], const uint64_t p[4],
                                uint64_t n0)
{
#ifdef LIMBS_MULX
    if (limbs_use_asm) {
        mont_sqr_256_mulx(r, a, p, n0);
        return;
    }
#endif
    mont_sqr_256_portable(r, a, p, n0);
}

static inline void add_mod_384(uint64_t r[6], const uint64_t a[6], const uint64_t b[6],
                               const uint64_t p[6])
{
#ifdef LIMBS_MULX
    if (limbs_use_asm) {
        add_mod_384_x86(r, a, b, p);
        return;
    }
#endif
    add_mod_384_portable(r, a, b, p);
}

static inline void sub_mod_384(uint64_t r[6], const uint64_t a[6], const uint64_t b[6],
                               const uint64_t p[6])
{
#ifdef LIMBS_MULX
    if (limbs_use_asm) {
        sub_mod_384_x86(r, a, b, p);
        return;
    }
#endif
    sub_mod_384_portable(r, a, b, p);
}

static inline void add_mod_256(uint64_t r[4], const uint64_t a[4], const uint64_t b[4],
                               const uint64_t p[4])
{
#ifdef LIMBS_MULX
    if (limbs_use_asm) {
        add_mod_256_x86(r, a, b, p);
        return;
    }
#endif
    add_mod_256_portable(r, a, b, p);
}

static inline void sub_mod_256(uint64_t r[4], const uint64_t a[4], const uint64_t b[4],
                               const uint64_t p[4])
{
#ifdef LIMBS_MULX
    if (limbs_use_asm) {
        sub_mod_256_x86(r, a, b, p);
        return;
    }
#endif
    sub_mod_256_portable(r, a, b, p);
}

#endif
