/* Ends one instantiation of cuda/ec_impl.cuh: the names a group header
 * (ec_g1.cuh, ec_g2.cuh, ec_bn254_g1.cuh, ec_bn254_g2.cuh) defined for it,
 * so the next group header can define its own. No include guard: every
 * group header includes it once. */
#undef EC_
#undef FE_T
#undef FE_ADD
#undef FE_SUB
#undef FE_DBL
#undef FE_NEG
#undef FE_MUL
#undef FE_SQR
#undef FE_IS_ZERO
#undef FE_SET_ZERO
#undef FE_SET_ONE
#undef FE_INV
#undef FE_LOAD
#undef FE_STORE
#undef FE_SHFL_DOWN
