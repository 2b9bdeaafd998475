#ifndef CUZK_CIRCUITS_ZKEY_H
#define CUZK_CIRCUITS_ZKEY_H

/* A snarkjs proving key (.zkey) as a circuit, following snarkjs's groth16
 * prove:
 *   a, b = A·w, B·w from the key's coefficient section, compiled once into
 *   the constraint system's sparse form (r1cs.h); c = a·b row by row;
 *   a·b − c evaluated on the odd coset of the 2n-th roots of unity (roots
 *   from 5, as ffjavascript builds them), paired with the H section
 *   undivided (the key's H points carry the 1/Z factor);
 *   Σc = Σ h_i·H_i + Σ_{i > nPublic} w_i·C_i.
 * The proof plan (groth16/plan.h) says this to every backend. Proofs verify
 * with snarkjs and with groth16_verify against the key. One implementation
 * for both curves (zkey_circuit_impl.h): zkey_circuit_ for BLS12-381 keys,
 * bn254_zkey_circuit_ for BN254 ones. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/status.h"
#include "formats/zkey.h"
#include "groth16/assemble.h"
#include "groth16/keys.h"
#include "groth16/bn254_groth16.h"
#include "groth16/plan.h"
#include "poly/bn254_domain.h"
#include "poly/domain.h"
#include "r1cs/r1cs.h"
#include "util/rng.h"

#include "circuits/zkey_circuit_names_bls12_381.h"
#include "circuits/zkey_circuit_decl.h"
#include "circuits/zkey_circuit_undef.h"

#include "circuits/zkey_circuit_names_bn254.h"
#include "circuits/zkey_circuit_decl.h"
#include "circuits/zkey_circuit_undef.h"

#endif
