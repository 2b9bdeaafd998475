/* Undoes zkey_circuit_decl.h's macros. No include guard. */
#undef ZD_
#undef ZD_G1
#undef ZD_G2
#undef ZD_FR_T
#undef ZD_DOMAIN_T
#undef ZD_PROOF_T
