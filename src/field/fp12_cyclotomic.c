/* Arithmetic in the cyclotomic subgroup G_Φ6(p²) of Fp12*, where the final
 * exponentiation does its work after the easy part.
 *
 * Granger and Scott ("Faster squaring in the cyclotomic subgroup of sixth
 * degree extensions", PKC 2010, §3.1) view Fp12 as Fp4[s] / (s³ − t) with
 * Fp4 = Fp2[t] / (t² − ξ). In our tower s = w and t = w³, so an element
 * a0 + a1 w + … + a5 w⁵ (fp12.c) is A + B w + C w² with
 *   A = a0 + a3 t = (c0.c0, c1.c1), B = a1 + a4 t = (c1.c0, c0.c2),
 *   C = a2 + a5 t = (c0.c1, c1.c2),
 * and for a in the subgroup
 *   a² = (3A² − 2Ā) + (3tC² + 2B̄) w + (3B² − 2C̄) w²,  (x + y t)‾ = x − y t,
 * nine Fp2 squarings instead of the twelve products of fp12_sqr. */

#include "field/fp12.h"

#include "field/tower_names_bls12_381.h"
#include "field/fp12_cyclotomic_impl.h"

/* |x| for the BLS12-381 parameter x = −0xd201000000010000. */
#define BLS_X_ABS 0xd201000000010000ULL

/* Square-and-multiply over the six set bits of |x|, then conjugation
 * (the inverse in the subgroup) for the sign. */
void fp12_cyclotomic_exp_x(fp12_t *r, const fp12_t *a)
{
    fp12_t acc = *a, base = *a;
    for (int i = 62; i >= 0; i--) {
        fp12_cyclotomic_sqr(&acc, &acc);
        if ((BLS_X_ABS >> i) & 1)
            fp12_mul(&acc, &acc, &base);
    }
    fp12_conj(r, &acc);
}
