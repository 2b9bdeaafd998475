#ifndef CUZK_CUDA_FF_PTX_CUH
#define CUZK_CUDA_FF_PTX_CUH

/* 32-bit carry-chain primitives in inline PTX (PTX ISA manual, "Extended-
 * Precision Integer Arithmetic Instructions": add.cc, addc, sub.cc, subc,
 * mad.cc, madc).
 *
 * The carry flag (CC.CF) is an implicit register that lives from one of these
 * statements to the next. Every statement is `asm volatile`, so the compiler
 * keeps them in program order, and nothing the compiler emits for plain C
 * between them (mul.lo, loads, moves) writes the flag; ptxas schedules with
 * the flag as a real dependency. A chain therefore is: one instruction that
 * only writes the flag (add.cc, sub.cc, mad.lo.cc), then any number that read
 * and write it (the *c_cc forms), then optionally one that only reads it
 * (addc, subc, madc without .cc). */

#include <stdint.h>

/* Writes the carry. */
static __device__ __forceinline__ uint32_t ptx_add_cc(uint32_t a, uint32_t b)
{
    uint32_t r;
    asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
}

/* Reads and writes the carry. */
static __device__ __forceinline__ uint32_t ptx_addc_cc(uint32_t a, uint32_t b)
{
    uint32_t r;
    asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
}

/* Reads the carry. */
static __device__ __forceinline__ uint32_t ptx_addc(uint32_t a, uint32_t b)
{
    uint32_t r;
    asm volatile("addc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
}

/* Writes the borrow. */
static __device__ __forceinline__ uint32_t ptx_sub_cc(uint32_t a, uint32_t b)
{
    uint32_t r;
    asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
}

/* Reads and writes the borrow. */
static __device__ __forceinline__ uint32_t ptx_subc_cc(uint32_t a, uint32_t b)
{
    uint32_t r;
    asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
}

/* Reads the borrow. subc(0, 0) is 0 without a borrow and 0xffffffff with one:
 * the mask the reductions select with. */
static __device__ __forceinline__ uint32_t ptx_subc(uint32_t a, uint32_t b)
{
    uint32_t r;
    asm volatile("subc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
}

/* lo(a·b) + c; writes the carry. */
static __device__ __forceinline__ uint32_t ptx_mad_lo_cc(uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t r;
    asm volatile("mad.lo.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
}

/* lo(a·b) + c + carry; reads and writes the carry. */
static __device__ __forceinline__ uint32_t ptx_madc_lo_cc(uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t r;
    asm volatile("madc.lo.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
}

/* hi(a·b) + c + carry; reads and writes the carry. */
static __device__ __forceinline__ uint32_t ptx_madc_hi_cc(uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t r;
    asm volatile("madc.hi.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
}

/* hi(a·b) + c + carry; reads the carry. */
static __device__ __forceinline__ uint32_t ptx_madc_hi(uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t r;
    asm volatile("madc.hi.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
}

#endif
