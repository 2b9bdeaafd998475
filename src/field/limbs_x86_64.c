/* x86-64 side of the limb layer: the run-time choice between the portable
 * and the mulx/adcx/adox bodies. */
#include "field/limbs.h"

#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>

bool limbs_cpu_has_mulx(void)
{
    unsigned eax, ebx, ecx, edx;
    if (__get_cpuid_max(0, NULL) < 7)
        return false;
    __cpuid_count(7, 0, eax, ebx, ecx, edx);
    (void)eax, (void)ecx, (void)edx;
    /* CPUID.(EAX=7,ECX=0):EBX bit 8 is BMI2 (mulx), bit 19 is ADX (adcx/adox). */
    return ((ebx >> 8) & 1) && ((ebx >> 19) & 1);
}
#else
bool limbs_cpu_has_mulx(void)
{
    return false;
}
#endif

#ifdef LIMBS_MULX
/* The assembly templates are laid out by hand. */
/* clang-format off */
/* Montgomery multiplication with mulx and the two carry chains of adcx (CF)
 * and adox (OF): Gueron, Krasnov, Ozturk et al., "New instructions supporting
 * large integer arithmetic on Intel architecture processors", Intel 2012.
 * CIOS order (Koç, Acar, Kaliski 1996): for each word b[i], t += a·b[i] on
 * the two chains, then t = (t + m·p) / 2^64 with m = t[0]·n0. The shift is a
 * renaming: the registers rotate by one each round, and the limb that the
 * reduction clears is the zero top limb of the next round. t stays below 2p,
 * and 2p < 2^(64n) for both moduli here, so no carry word survives a round. */

/* t[j] += lo(rdx·x[j]), t[j+1] += hi(rdx·x[j]), on the OF and CF chains. */
#define MULADD(x, off, tj, tj1)                                                                    \
    "mulx " off "(%[" x "]), %[lo], %[hi]\n\t"                                                    \
    "adox %[lo], %[" tj "]\n\t"                                                                   \
    "adcx %[hi], %[" tj1 "]\n\t"

/* A reduction round: t = (t + m·p) / 2^64 with m = t0·n0; t0 ends at zero. */
#define REDC6(t0, t1, t2, t3, t4, t5, t6)                                                          \
    "mov %[" t0 "], %%rdx\n\t"                                                                    \
    "imul %[n0], %%rdx\n\t"                                                                       \
    "xor %k[lo], %k[lo]\n\t"                                                                      \
    MULADD("p", "0", t0, t1) MULADD("p", "8", t1, t2) MULADD("p", "16", t2, t3)                    \
    MULADD("p", "24", t3, t4) MULADD("p", "32", t4, t5) MULADD("p", "40", t5, t6)                  \
    "adox %[" t0 "], %[" t6 "]\n\t"

/* One round for six limbs: t0..t6 name the rotated registers, t6 = 0. */
#define ROUND6(boff, t0, t1, t2, t3, t4, t5, t6)                                                   \
    "mov " boff "(%[b]), %%rdx\n\t"                                                               \
    "xor %k[lo], %k[lo]\n\t"                                                                      \
    MULADD("a", "0", t0, t1) MULADD("a", "8", t1, t2) MULADD("a", "16", t2, t3)                    \
    MULADD("a", "24", t3, t4) MULADD("a", "32", t4, t5) MULADD("a", "40", t5, t6)                  \
    "mov $0, %k[lo]\n\t"                                                                          \
    "adox %[lo], %[" t6 "]\n\t"                                                                   \
    REDC6(t0, t1, t2, t3, t4, t5, t6)

/* The first round's product t = a·b[0] needs no additions into t. */
#define FIRST6(t0, t1, t2, t3, t4, t5, t6)                                                         \
    "mov 0(%[b]), %%rdx\n\t"                                                                      \
    "mulx 0(%[a]), %[" t0 "], %[" t1 "]\n\t"                                                      \
    "mulx 8(%[a]), %[lo], %[" t2 "]\n\t"                                                          \
    "add %[lo], %[" t1 "]\n\t"                                                                    \
    "mulx 16(%[a]), %[lo], %[" t3 "]\n\t"                                                         \
    "adc %[lo], %[" t2 "]\n\t"                                                                    \
    "mulx 24(%[a]), %[lo], %[" t4 "]\n\t"                                                         \
    "adc %[lo], %[" t3 "]\n\t"                                                                    \
    "mulx 32(%[a]), %[lo], %[" t5 "]\n\t"                                                         \
    "adc %[lo], %[" t4 "]\n\t"                                                                    \
    "mulx 40(%[a]), %[lo], %[" t6 "]\n\t"                                                         \
    "adc %[lo], %[" t5 "]\n\t"                                                                    \
    "adc $0, %[" t6 "]\n\t"

void mont_mul_384_mulx(uint64_t r[6], const uint64_t a[6], const uint64_t b[6],
                       const uint64_t p[6], uint64_t n0)
{
    uint64_t r0, r1, r2, r3, r4, r5, r6, lo, hi, d;
    const uint64_t *pa = a, *pb = b;
    __asm__(FIRST6("r0", "r1", "r2", "r3", "r4", "r5", "r6")
            REDC6("r0", "r1", "r2", "r3", "r4", "r5", "r6")
            ROUND6("8", "r1", "r2", "r3", "r4", "r5", "r6", "r0")
            ROUND6("16", "r2", "r3", "r4", "r5", "r6", "r0", "r1")
            ROUND6("24", "r3", "r4", "r5", "r6", "r0", "r1", "r2")
            ROUND6("32", "r4", "r5", "r6", "r0", "r1", "r2", "r3")
            ROUND6("40", "r5", "r6", "r0", "r1", "r2", "r3", "r4")
            /* t = r6 r0 r1 r2 r3 r4 (low to high), r5 = 0. Subtract p into
             * rdx lo hi r5 a b; keep t when that borrows. */
            "mov %[r6], %%rdx\n\t"
            "mov %[r0], %[lo]\n\t"
            "mov %[r1], %[hi]\n\t"
            "mov %[r2], %[r5]\n\t"
            "mov %[r3], %[a]\n\t"
            "mov %[r4], %[b]\n\t"
            "sub 0(%[p]), %%rdx\n\t"
            "sbb 8(%[p]), %[lo]\n\t"
            "sbb 16(%[p]), %[hi]\n\t"
            "sbb 24(%[p]), %[r5]\n\t"
            "sbb 32(%[p]), %[a]\n\t"
            "sbb 40(%[p]), %[b]\n\t"
            "cmovc %[r6], %%rdx\n\t"
            "cmovc %[r0], %[lo]\n\t"
            "cmovc %[r1], %[hi]\n\t"
            "cmovc %[r2], %[r5]\n\t"
            "cmovc %[r3], %[a]\n\t"
            "cmovc %[r4], %[b]\n\t"
            : [r0] "=&r"(r0), [r1] "=&r"(r1), [r2] "=&r"(r2), [r3] "=&r"(r3), [r4] "=&r"(r4),
              [r5] "=&r"(r5), [r6] "=&r"(r6), [lo] "=&r"(lo), [hi] "=&r"(hi), "=&d"(d),
              [a] "+&r"(pa), [b] "+&r"(pb)
            : [p] "r"(p), [n0] "m"(n0)
            : "cc", "memory");
    r[0] = d;
    r[1] = lo;
    r[2] = hi;
    r[3] = r5;
    r[4] = (uint64_t)(uintptr_t)pa;
    r[5] = (uint64_t)(uintptr_t)pb;
}

/* Squaring: the off-diagonal products a[i]·a[j], i < j, row by row into
 * t[1..10], then t = 2t + sum a[i]²·2^(128i) with the doubling on the CF chain
 * and the squares on the OF chain (Menezes et al., HAC alg. 14.16), then a
 * separated Montgomery reduction (HAC alg. 14.32). 21 products instead of 36. */

/* One product of row rdx = a[i] added into (tj, tj1) on the two chains. */
#define SQRADD(off, tj, tj1)                                                                       \
    "mulx " off "(%[a]), %[lo], %[hi]\n\t"                                                        \
    "adox %[lo], %[" tj "]\n\t"                                                                   \
    "adcx %[hi], %[" tj1 "]\n\t"

/* t[k] = 2·t[k] + sq on the two chains, t[k] in memory (x a scratch register). */
#define DBLADD(k, x, sq)                                                                           \
    "mov " #k "*8(%[t]), %[" x "]\n\t"                                                            \
    "adcx %[" x "], %[" x "]\n\t"                                                                 \
    "adox %[" sq "], %[" x "]\n\t"                                                                \
    "mov %[" x "], " #k "*8(%[t])\n\t"

static void sqr_384_mulx(uint64_t t[12], const uint64_t a[6])
{
    uint64_t x0, x1, x2, x3, x4, x5, x6, x7, lo, hi;
    __asm__ volatile(
        /* Row 0: a0·a1 .. a0·a5 into positions 1..6 on one add/adc chain. */
        "mov 0(%[a]), %%rdx\n\t"
        "mulx 8(%[a]), %[x1], %[x2]\n\t"
        "mulx 16(%[a]), %[lo], %[x3]\n\t"
        "add %[lo], %[x2]\n\t"
        "mulx 24(%[a]), %[lo], %[x4]\n\t"
        "adc %[lo], %[x3]\n\t"
        "mulx 32(%[a]), %[lo], %[x5]\n\t"
        "adc %[lo], %[x4]\n\t"
        "mulx 40(%[a]), %[lo], %[x6]\n\t"
        "adc %[lo], %[x5]\n\t"
        "adc $0, %[x6]\n\t"
        "mov %[x1], 8(%[t])\n\t"
        "mov %[x2], 16(%[t])\n\t"
        /* Row 1: a1·a2 .. a1·a5 into positions 3..7. */
        "mov 8(%[a]), %%rdx\n\t"
        "xor %k[x7], %k[x7]\n\t"
        SQRADD("16", "x3", "x4") SQRADD("24", "x4", "x5") SQRADD("32", "x5", "x6")
        SQRADD("40", "x6", "x7")
        "mov $0, %k[lo]\n\t"
        "adox %[lo], %[x7]\n\t"
        "mov %[x3], 24(%[t])\n\t"
        "mov %[x4], 32(%[t])\n\t"
        /* Row 2: a2·a3 .. a2·a5 into positions 5..8. */
        "mov 16(%[a]), %%rdx\n\t"
        "xor %k[x0], %k[x0]\n\t"
        SQRADD("24", "x5", "x6") SQRADD("32", "x6", "x7") SQRADD("40", "x7", "x0")
        "mov $0, %k[lo]\n\t"
        "adox %[lo], %[x0]\n\t"
        "mov %[x5], 40(%[t])\n\t"
        "mov %[x6], 48(%[t])\n\t"
        /* Row 3: a3·a4, a3·a5 into positions 7..9. */
        "mov 24(%[a]), %%rdx\n\t"
        "xor %k[x1], %k[x1]\n\t"
        SQRADD("32", "x7", "x0") SQRADD("40", "x0", "x1")
        "mov $0, %k[lo]\n\t"
        "adox %[lo], %[x1]\n\t"
        "mov %[x7], 56(%[t])\n\t"
        "mov %[x0], 64(%[t])\n\t"
        /* Row 4: a4·a5 into positions 9..10. */
        "mov 32(%[a]), %%rdx\n\t"
        "mulx 40(%[a]), %[lo], %[x2]\n\t"
        "add %[lo], %[x1]\n\t"
        "adc $0, %[x2]\n\t"
        "mov %[x1], 72(%[t])\n\t"
        "mov %[x2], 80(%[t])\n\t"
        /* Double and add the squares: t[0] = lo(a0²), t[11] = 2·0 + carries + hi(a5²). */
        "xor %k[x3], %k[x3]\n\t"
        "mov 0(%[a]), %%rdx\n\t"
        "mulx %%rdx, %[lo], %[hi]\n\t"
        "mov %[lo], 0(%[t])\n\t"
        DBLADD(1, "x4", "hi")
        "mov 8(%[a]), %%rdx\n\t"
        "mulx %%rdx, %[lo], %[hi]\n\t"
        DBLADD(2, "x4", "lo") DBLADD(3, "x5", "hi")
        "mov 16(%[a]), %%rdx\n\t"
        "mulx %%rdx, %[lo], %[hi]\n\t"
        DBLADD(4, "x4", "lo") DBLADD(5, "x5", "hi")
        "mov 24(%[a]), %%rdx\n\t"
        "mulx %%rdx, %[lo], %[hi]\n\t"
        DBLADD(6, "x4", "lo") DBLADD(7, "x5", "hi")
        "mov 32(%[a]), %%rdx\n\t"
        "mulx %%rdx, %[lo], %[hi]\n\t"
        DBLADD(8, "x4", "lo") DBLADD(9, "x5", "hi")
        "mov 40(%[a]), %%rdx\n\t"
        "mulx %%rdx, %[lo], %[hi]\n\t"
        DBLADD(10, "x4", "lo")
        "adcx %[x3], %[x3]\n\t"
        "adox %[hi], %[x3]\n\t"
        "mov %[x3], 88(%[t])\n\t"
        : [x0] "=&r"(x0), [x1] "=&r"(x1), [x2] "=&r"(x2), [x3] "=&r"(x3), [x4] "=&r"(x4),
          [x5] "=&r"(x5), [x6] "=&r"(x6), [x7] "=&r"(x7), [lo] "=&r"(lo), [hi] "=&r"(hi)
        : [t] "r"(t), [a] "r"(a)
        : "rdx", "cc", "memory");
}

/* Montgomery reduction of the 12-limb t < p·2^384: six rounds clear the low
 * half (as in the product above, without the multiplication part), then the
 * high half is added and one conditional subtraction reduces below p. */
static void redc_384_mulx(uint64_t r[6], uint64_t t[12], const uint64_t p[6], uint64_t n0)
{
    uint64_t r0, r1, r2, r3, r4, r5, r6, lo, hi;
    __asm__ volatile(
        "mov 0(%[t]), %[r0]\n\t"
        "mov 8(%[t]), %[r1]\n\t"
        "mov 16(%[t]), %[r2]\n\t"
        "mov 24(%[t]), %[r3]\n\t"
        "mov 32(%[t]), %[r4]\n\t"
        "mov 40(%[t]), %[r5]\n\t"
        "xor %k[r6], %k[r6]\n\t"
        REDC6("r0", "r1", "r2", "r3", "r4", "r5", "r6")
        REDC6("r1", "r2", "r3", "r4", "r5", "r6", "r0")
        REDC6("r2", "r3", "r4", "r5", "r6", "r0", "r1")
        REDC6("r3", "r4", "r5", "r6", "r0", "r1", "r2")
        REDC6("r4", "r5", "r6", "r0", "r1", "r2", "r3")
        REDC6("r5", "r6", "r0", "r1", "r2", "r3", "r4")
        /* u = r6 r0 r1 r2 r3 r4 <= p; add the high half: u + t_hi < 2p. */
        "add 48(%[t]), %[r6]\n\t"
        "adc 56(%[t]), %[r0]\n\t"
        "adc 64(%[t]), %[r1]\n\t"
        "adc 72(%[t]), %[r2]\n\t"
        "adc 80(%[t]), %[r3]\n\t"
        "adc 88(%[t]), %[r4]\n\t"
        "mov %[r6], 0(%[t])\n\t"
        "mov %[r0], 8(%[t])\n\t"
        "mov %[r1], 16(%[t])\n\t"
        "mov %[r2], 24(%[t])\n\t"
        "mov %[r3], 32(%[t])\n\t"
        "mov %[r4], 40(%[t])\n\t"
        "sub 0(%[p]), %[r6]\n\t"
        "sbb 8(%[p]), %[r0]\n\t"
        "sbb 16(%[p]), %[r1]\n\t"
        "sbb 24(%[p]), %[r2]\n\t"
        "sbb 32(%[p]), %[r3]\n\t"
        "sbb 40(%[p]), %[r4]\n\t"
        "cmovc 0(%[t]), %[r6]\n\t"
        "cmovc 8(%[t]), %[r0]\n\t"
        "cmovc 16(%[t]), %[r1]\n\t"
        "cmovc 24(%[t]), %[r2]\n\t"
        "cmovc 32(%[t]), %[r3]\n\t"
        "cmovc 40(%[t]), %[r4]\n\t"
        "mov %[r6], 0(%[r])\n\t"
        "mov %[r0], 8(%[r])\n\t"
        "mov %[r1], 16(%[r])\n\t"
        "mov %[r2], 24(%[r])\n\t"
        "mov %[r3], 32(%[r])\n\t"
        "mov %[r4], 40(%[r])\n\t"
        : [r0] "=&r"(r0), [r1] "=&r"(r1), [r2] "=&r"(r2), [r3] "=&r"(r3), [r4] "=&r"(r4),
          [r5] "=&r"(r5), [r6] "=&r"(r6), [lo] "=&r"(lo), [hi] "=&r"(hi)
        : [r] "r"(r), [t] "r"(t), [p] "r"(p), [n0] "m"(n0)
        : "rdx", "cc", "memory");
}

void mont_sqr_384_mulx(uint64_t r[6], const uint64_t a[6], const uint64_t p[6], uint64_t n0)
{
    uint64_t t[12];
    sqr_384_mulx(t, a);
    redc_384_mulx(r, t, p, n0);
}

/* The same for four limbs. */
#define REDC4(t0, t1, t2, t3, t4)                                                                  \
    "mov %[" t0 "], %%rdx\n\t"                                                                    \
    "imul %[n0], %%rdx\n\t"                                                                       \
    "xor %k[lo], %k[lo]\n\t"                                                                      \
    MULADD("p", "0", t0, t1) MULADD("p", "8", t1, t2) MULADD("p", "16", t2, t3)                    \
    MULADD("p", "24", t3, t4)                                                                      \
    "adox %[" t0 "], %[" t4 "]\n\t"

#define ROUND4(boff, t0, t1, t2, t3, t4)                                                           \
    "mov " boff "(%[b]), %%rdx\n\t"                                                               \
    "xor %k[lo], %k[lo]\n\t"                                                                      \
    MULADD("a", "0", t0, t1) MULADD("a", "8", t1, t2) MULADD("a", "16", t2, t3)                    \
    MULADD("a", "24", t3, t4)                                                                      \
    "mov $0, %k[lo]\n\t"                                                                          \
    "adox %[lo], %[" t4 "]\n\t"                                                                   \
    REDC4(t0, t1, t2, t3, t4)

#define FIRST4(t0, t1, t2, t3, t4)                                                                 \
    "mov 0(%[b]), %%rdx\n\t"                                                                      \
    "mulx 0(%[a]), %[" t0 "], %[" t1 "]\n\t"                                                      \
    "mulx 8(%[a]), %[lo], %[" t2 "]\n\t"                                                          \
    "add %[lo], %[" t1 "]\n\t"                                                                    \
    "mulx 16(%[a]), %[lo], %[" t3 "]\n\t"                                                         \
    "adc %[lo], %[" t2 "]\n\t"                                                                    \
    "mulx 24(%[a]), %[lo], %[" t4 "]\n\t"                                                         \
    "adc %[lo], %[" t3 "]\n\t"                                                                    \
    "adc $0, %[" t4 "]\n\t"

void mont_mul_256_mulx(uint64_t r[4], const uint64_t a[4], const uint64_t b[4],
                       const uint64_t p[4], uint64_t n0)
{
    uint64_t r0, r1, r2, r3, r4, lo, hi, d;
    __asm__(FIRST4("r0", "r1", "r2", "r3", "r4")
            REDC4("r0", "r1", "r2", "r3", "r4")
            ROUND4("8", "r1", "r2", "r3", "r4", "r0")
            ROUND4("16", "r2", "r3", "r4", "r0", "r1")
            ROUND4("24", "r3", "r4", "r0", "r1", "r2")
            /* t = r4 r0 r1 r2 (low to high), r3 = 0. */
            "mov %[r4], %%rdx\n\t"
            "mov %[r0], %[lo]\n\t"
            "mov %[r1], %[hi]\n\t"
            "mov %[r2], %[r3]\n\t"
            "sub 0(%[p]), %%rdx\n\t"
            "sbb 8(%[p]), %[lo]\n\t"
            "sbb 16(%[p]), %[hi]\n\t"
            "sbb 24(%[p]), %[r3]\n\t"
            "cmovc %[r4], %%rdx\n\t"
            "cmovc %[r0], %[lo]\n\t"
            "cmovc %[r1], %[hi]\n\t"
            "cmovc %[r2], %[r3]\n\t"
            : [r0] "=&r"(r0), [r1] "=&r"(r1), [r2] "=&r"(r2), [r3] "=&r"(r3), [r4] "=&r"(r4),
              [lo] "=&r"(lo), [hi] "=&r"(hi), "=&d"(d)
            : [a] "r"(a), [b] "r"(b), [p] "r"(p), [n0] "m"(n0)
            : "cc", "memory");
    r[0] = d;
    r[1] = lo;
    r[2] = hi;
    r[3] = r3;
}

void mont_sqr_256_mulx(uint64_t r[4], const uint64_t a[4], const uint64_t p[4], uint64_t n0)
{
    mont_mul_256_mulx(r, a, a, p, n0);
}

/* Modular addition: add/adc, then subtract p and keep the sum when that
 * borrows past the carry word; the sum waits in r for the cmov. */
#define LIMB_LOAD(k) "mov " #k "*8(%[a]), %[t" #k "]\n\t"
#define LIMB_STORE(k) "mov %[t" #k "], " #k "*8(%[r])\n\t"
#define LIMB_OP(op, src, k) op " " #k "*8(%[" src "]), %[t" #k "]\n\t"

void add_mod_384_x86(uint64_t r[6], const uint64_t a[6], const uint64_t b[6], const uint64_t p[6])
{
    uint64_t t0, t1, t2, t3, t4, t5, c;
    __asm__ volatile("xor %k[c], %k[c]\n\t"
                     LIMB_LOAD(0) LIMB_LOAD(1) LIMB_LOAD(2) LIMB_LOAD(3) LIMB_LOAD(4) LIMB_LOAD(5)
                     LIMB_OP("add", "b", 0) LIMB_OP("adc", "b", 1) LIMB_OP("adc", "b", 2)
                     LIMB_OP("adc", "b", 3) LIMB_OP("adc", "b", 4) LIMB_OP("adc", "b", 5)
                     "adc $0, %[c]\n\t"
                     LIMB_STORE(0) LIMB_STORE(1) LIMB_STORE(2) LIMB_STORE(3) LIMB_STORE(4)
                     LIMB_STORE(5)
                     LIMB_OP("sub", "p", 0) LIMB_OP("sbb", "p", 1) LIMB_OP("sbb", "p", 2)
                     LIMB_OP("sbb", "p", 3) LIMB_OP("sbb", "p", 4) LIMB_OP("sbb", "p", 5)
                     "sbb $0, %[c]\n\t"
                     LIMB_OP("cmovc", "r", 0) LIMB_OP("cmovc", "r", 1) LIMB_OP("cmovc", "r", 2)
                     LIMB_OP("cmovc", "r", 3) LIMB_OP("cmovc", "r", 4) LIMB_OP("cmovc", "r", 5)
                     LIMB_STORE(0) LIMB_STORE(1) LIMB_STORE(2) LIMB_STORE(3) LIMB_STORE(4)
                     LIMB_STORE(5)
                     : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3),
                       [t4] "=&r"(t4), [t5] "=&r"(t5), [c] "=&r"(c)
                     : [r] "r"(r), [a] "r"(a), [b] "r"(b), [p] "r"(p)
                     : "cc", "memory");
}

/* Modular subtraction: sub/sbb, then add p back and keep the plain
 * difference when the first subtraction did not borrow. */
void sub_mod_384_x86(uint64_t r[6], const uint64_t a[6], const uint64_t b[6], const uint64_t p[6])
{
    uint64_t t0, t1, t2, t3, t4, t5, m;
    __asm__ volatile(LIMB_LOAD(0) LIMB_LOAD(1) LIMB_LOAD(2) LIMB_LOAD(3) LIMB_LOAD(4) LIMB_LOAD(5)
                     LIMB_OP("sub", "b", 0) LIMB_OP("sbb", "b", 1) LIMB_OP("sbb", "b", 2)
                     LIMB_OP("sbb", "b", 3) LIMB_OP("sbb", "b", 4) LIMB_OP("sbb", "b", 5)
                     "sbb %[m], %[m]\n\t"
                     LIMB_STORE(0) LIMB_STORE(1) LIMB_STORE(2) LIMB_STORE(3) LIMB_STORE(4)
                     LIMB_STORE(5)
                     LIMB_OP("add", "p", 0) LIMB_OP("adc", "p", 1) LIMB_OP("adc", "p", 2)
                     LIMB_OP("adc", "p", 3) LIMB_OP("adc", "p", 4) LIMB_OP("adc", "p", 5)
                     "test %[m], %[m]\n\t"
                     LIMB_OP("cmovz", "r", 0) LIMB_OP("cmovz", "r", 1) LIMB_OP("cmovz", "r", 2)
                     LIMB_OP("cmovz", "r", 3) LIMB_OP("cmovz", "r", 4) LIMB_OP("cmovz", "r", 5)
                     LIMB_STORE(0) LIMB_STORE(1) LIMB_STORE(2) LIMB_STORE(3) LIMB_STORE(4)
                     LIMB_STORE(5)
                     : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3),
                       [t4] "=&r"(t4), [t5] "=&r"(t5), [m] "=&r"(m)
                     : [r] "r"(r), [a] "r"(a), [b] "r"(b), [p] "r"(p)
                     : "cc", "memory");
}

void add_mod_256_x86(uint64_t r[4], const uint64_t a[4], const uint64_t b[4], const uint64_t p[4])
{
    uint64_t t0, t1, t2, t3, c;
    __asm__ volatile("xor %k[c], %k[c]\n\t"
                     LIMB_LOAD(0) LIMB_LOAD(1) LIMB_LOAD(2) LIMB_LOAD(3)
                     LIMB_OP("add", "b", 0) LIMB_OP("adc", "b", 1) LIMB_OP("adc", "b", 2)
                     LIMB_OP("adc", "b", 3)
                     "adc $0, %[c]\n\t"
                     LIMB_STORE(0) LIMB_STORE(1) LIMB_STORE(2) LIMB_STORE(3)
                     LIMB_OP("sub", "p", 0) LIMB_OP("sbb", "p", 1) LIMB_OP("sbb", "p", 2)
                     LIMB_OP("sbb", "p", 3)
                     "sbb $0, %[c]\n\t"
                     LIMB_OP("cmovc", "r", 0) LIMB_OP("cmovc", "r", 1) LIMB_OP("cmovc", "r", 2)
                     LIMB_OP("cmovc", "r", 3)
                     LIMB_STORE(0) LIMB_STORE(1) LIMB_STORE(2) LIMB_STORE(3)
                     : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3),
                       [c] "=&r"(c)
                     : [r] "r"(r), [a] "r"(a), [b] "r"(b), [p] "r"(p)
                     : "cc", "memory");
}

void sub_mod_256_x86(uint64_t r[4], const uint64_t a[4], const uint64_t b[4], const uint64_t p[4])
{
    uint64_t t0, t1, t2, t3, m;
    __asm__ volatile(LIMB_LOAD(0) LIMB_LOAD(1) LIMB_LOAD(2) LIMB_LOAD(3)
                     LIMB_OP("sub", "b", 0) LIMB_OP("sbb", "b", 1) LIMB_OP("sbb", "b", 2)
                     LIMB_OP("sbb", "b", 3)
                     "sbb %[m], %[m]\n\t"
                     LIMB_STORE(0) LIMB_STORE(1) LIMB_STORE(2) LIMB_STORE(3)
                     LIMB_OP("add", "p", 0) LIMB_OP("adc", "p", 1) LIMB_OP("adc", "p", 2)
                     LIMB_OP("adc", "p", 3)
                     "test %[m], %[m]\n\t"
                     LIMB_OP("cmovz", "r", 0) LIMB_OP("cmovz", "r", 1) LIMB_OP("cmovz", "r", 2)
                     LIMB_OP("cmovz", "r", 3)
                     LIMB_STORE(0) LIMB_STORE(1) LIMB_STORE(2) LIMB_STORE(3)
                     : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3),
                       [m] "=&r"(m)
                     : [r] "r"(r), [a] "r"(a), [b] "r"(b), [p] "r"(p)
                     : "cc", "memory");
}

/* clang-format on */

int limbs_use_asm;

/* Runs before main(), so every thread sees the flag already set. */
__attribute__((constructor)) static void limbs_choose(void)
{
    const char *off = getenv("CUZK_NO_ASM");
    bool forced_off = off && *off && strcmp(off, "0") != 0;
    limbs_use_asm = !forced_off && limbs_cpu_has_mulx();
}

bool limbs_mulx_active(void)
{
    return limbs_use_asm != 0;
}
#else
bool limbs_mulx_active(void)
{
    return false;
}
#endif
