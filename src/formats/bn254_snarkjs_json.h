#ifndef CUZK_FORMATS_BN254_SNARKJS_JSON_H
#define CUZK_FORMATS_BN254_SNARKJS_JSON_H

/* snarkjs's JSON files over BN254 ("curve": "bn128"): the readers of
 * snarkjs_json.h and its proof and public writers, the same code compiled
 * over BN254's fields and groups (snarkjs_json_read_impl.h,
 * snarkjs_json_write_impl.h). Coordinates are below BN254's p, public
 * values below its r; a file that names another curve is
 * CUZK_ERR_UNSUPPORTED ("this file is for the bls12381 curve, not
 * bn128"). The key's beta_g1 and delta_g1 are left at infinity. */

#include <stddef.h>

#include "field/bn254_fr.h"
#include "formats/common.h"
#include "groth16/bn254_groth16.h"

#define SD_(name) bn254_snarkjs_##name
#define SD_FR_T bn254_fr_t
#define SD_VK_T bn254_groth16_vk_t
#define SD_PROOF_T bn254_groth16_proof_t
#include "formats/snarkjs_json_read_decl.h"

/* proof.json ("curve": "bn128") and public.json, laid out as snarkjs lays
 * them out: malloc'd strings (NULL when out of memory), or saved to path. */
char *bn254_snarkjs_proof_to_json(const bn254_groth16_proof_t *proof);
cuzk_status bn254_snarkjs_proof_save(const bn254_groth16_proof_t *proof, const char *path,
                                     char *msg, size_t msg_len);
char *bn254_snarkjs_public_to_json(const bn254_fr_t *inputs, size_t n);
cuzk_status bn254_snarkjs_public_save(const bn254_fr_t *inputs, size_t n, const char *path,
                                      char *msg, size_t msg_len);

#endif
