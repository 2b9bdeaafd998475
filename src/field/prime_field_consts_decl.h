/* The constants of a prime field private to the field layer and its tests
 * (prime_field_impl.h says what each is; the tests recompute them from the
 * modulus), declared once. No include guard: a field's _consts.h includes
 * it between its _names.h and prime_field_names_undef.h. */

extern const FE_T FE_R2;                         /* R² mod m, R = 2^(64·limbs) */
extern const FE_T FE_R3;                         /* R³ mod m */
extern const uint64_t FE_N0;                     /* -m^-1 mod 2^64 */
extern const uint64_t FE_MINUS_2[FE_LIMBS];      /* m - 2 */
extern const uint64_t FE_MINUS_1_HALF[FE_LIMBS]; /* (m - 1) / 2 */
#ifdef FE_PLUS_1_QUARTER
extern const uint64_t FE_PLUS_1_QUARTER[FE_LIMBS]; /* (m + 1) / 4 */
#else
extern const uint64_t FE_ODD_T[FE_LIMBS];          /* t, m - 1 = 2^s · t */
extern const uint64_t FE_T_MINUS_1_HALF[FE_LIMBS]; /* (t - 1) / 2 */
#endif
