/* G2: the property and known-answer tests of test_g1.c, instantiated over
 * Fp2 (G2 uses the same formulas as G1, so it gets the same tests). */

#include "curve/g2.h"

#define TG_(name) g2_##name
#define TF_(name) fp2_##name
#define TF_T fp2_t
#define TG_GENERATOR G2_GENERATOR
#define TG_UBYTES G2_UNCOMPRESSED_BYTES
#define TG_CBYTES G2_COMPRESSED_BYTES
#define TG_VECTORS "g2.txt"
#define TG_IS_G1 0
/* h = 13² · 23² · 2713 · 11953 · (a 466-bit rest), and the 13-torsion is
 * Z13 × Z13, so h / 13² leaves a point of order 13 (or O): */
#define TG_SMALL_L 13
#define TG_COFACTOR_DIV_L                                                                          \
    0x3336b3150941cfddULL, 0xedf4046db800a837ULL, 0x45e0aef29c5e8629ULL, 0x5a5b213dcb710859ULL,    \
        0x81be2a9b0c648304ULL, 0x60a5f9bdc250555dULL, 0xd5a3c5663541d68bULL, 0x0008d5fc7522f6c4ULL

#include "test_g1.c"
