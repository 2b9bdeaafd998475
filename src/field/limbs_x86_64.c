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

/* One round for six limbs: t0..t6 name the rotated registers, t6 = 0. */
#define ROUND6(boff, t0, t1, t2, t3, t4, t5, t6)                                                   \
    "mov " boff "(%[b]), %%rdx\n\t"                                                               \
    "xor %k[lo], %k[lo]\n\t"                                                                      \
    MULADD("a", "0", t0, t1) MULADD("a", "8", t1, t2) MULADD("a", "16", t2, t3)                    \
    MULADD("a", "24", t3, t4) MULADD("a", "32", t4, t5) MULADD("a", "40", t5, t6)                  \
    "mov $0, %k[lo]\n\t"                                                                          \
    "adox %[lo], %[" t6 "]\n\t"                                                                   \
    "mov %[" t0 "], %%rdx\n\t"                                                                    \
    "imul %[n0], %%rdx\n\t"                                                                       \
    "xor %k[lo], %k[lo]\n\t"                                                                      \
    MULADD("p", "0", t0, t1) MULADD("p", "8", t1, t2) MULADD("p", "16", t2, t3)                    \
    MULADD("p", "24", t3, t4) MULADD("p", "32", t4, t5) MULADD("p", "40", t5, t6)                  \
    "adox %[" t0 "], %[" t6 "]\n\t"

void mont_mul_384_mulx(uint64_t r[6], const uint64_t a[6], const uint64_t b[6],
                       const uint64_t p[6], uint64_t n0)
{
    uint64_t r0, r1, r2, r3, r4, r5, r6, lo, hi, d;
    const uint64_t *pa = a, *pb = b;
    __asm__("xor %k[r0], %k[r0]\n\t"
            "xor %k[r1], %k[r1]\n\t"
            "xor %k[r2], %k[r2]\n\t"
            "xor %k[r3], %k[r3]\n\t"
            "xor %k[r4], %k[r4]\n\t"
            "xor %k[r5], %k[r5]\n\t"
            "xor %k[r6], %k[r6]\n\t"
            ROUND6("0", "r0", "r1", "r2", "r3", "r4", "r5", "r6")
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

void mont_sqr_384_mulx(uint64_t r[6], const uint64_t a[6], const uint64_t p[6], uint64_t n0)
{
    mont_mul_384_mulx(r, a, a, p, n0);
}

/* One round for four limbs: t0..t4 name the rotated registers, t4 = 0. */
#define ROUND4(boff, t0, t1, t2, t3, t4)                                                           \
    "mov " boff "(%[b]), %%rdx\n\t"                                                               \
    "xor %k[lo], %k[lo]\n\t"                                                                      \
    MULADD("a", "0", t0, t1) MULADD("a", "8", t1, t2) MULADD("a", "16", t2, t3)                    \
    MULADD("a", "24", t3, t4)                                                                      \
    "mov $0, %k[lo]\n\t"                                                                          \
    "adox %[lo], %[" t4 "]\n\t"                                                                   \
    "mov %[" t0 "], %%rdx\n\t"                                                                    \
    "imul %[n0], %%rdx\n\t"                                                                       \
    "xor %k[lo], %k[lo]\n\t"                                                                      \
    MULADD("p", "0", t0, t1) MULADD("p", "8", t1, t2) MULADD("p", "16", t2, t3)                    \
    MULADD("p", "24", t3, t4)                                                                      \
    "adox %[" t0 "], %[" t4 "]\n\t"

void mont_mul_256_mulx(uint64_t r[4], const uint64_t a[4], const uint64_t b[4],
                       const uint64_t p[4], uint64_t n0)
{
    uint64_t r0, r1, r2, r3, r4, lo, hi, d;
    __asm__("xor %k[r0], %k[r0]\n\t"
            "xor %k[r1], %k[r1]\n\t"
            "xor %k[r2], %k[r2]\n\t"
            "xor %k[r3], %k[r3]\n\t"
            "xor %k[r4], %k[r4]\n\t"
            ROUND4("0", "r0", "r1", "r2", "r3", "r4")
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
