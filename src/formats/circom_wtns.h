#ifndef CUZK_FORMATS_CIRCOM_WTNS_H
#define CUZK_FORMATS_CIRCOM_WTNS_H

/* Witness files of the circom witness calculators and `snarkjs wtns
 * calculate` (iden3 container "wtns", version 2):
 *
 *   section 1: u32 n8 (32), prime[n8] (r, little-endian), u32 nWitness
 *   section 2: nWitness × value[n8], canonical little-endian integers (not
 *              Montgomery), in wire order: w[0] = 1, then the public
 *              outputs, public inputs, private inputs, internal signals
 *
 * nWitness equals the .r1cs file's nWires. The values can be decoded in
 * ranges straight into a caller's buffer (pinned memory bound for a GPU)
 * without a second copy. The prime says the curve (circom_wtns_t.curve):
 * BLS12-381's r or BN254's; any other is refused naming the file and the
 * prime. */

#include <stdint.h>

#include "curve/curve_id.h"
#include "field/fr.h"
#include "formats/common.h"

typedef struct circom_wtns {
    mapped_file_t file;
    curve_id curve; /* whose scalar field the values are in */
    uint64_t num_values;
    const uint8_t *values; /* num_values × 32 bytes inside the mapping */
} circom_wtns_t;

/* Maps and checks the file: header, prime, section sizes, and w[0] = 1.
 * The values themselves are checked as they are decoded. */
cuzk_status circom_wtns_open(circom_wtns_t *w, const char *path, char *msg, size_t msg_len);
/* The same on a caller's buffer, which must outlive w. */
cuzk_status circom_wtns_open_buffer(circom_wtns_t *w, const void *data, size_t size,
                                    const char *name, char *msg, size_t msg_len);
void circom_wtns_close(circom_wtns_t *w);

/* out[i] = w[start + i] (Montgomery form) for i < count, in the file's
 * curve's scalar field (BN254's in fr_t slots, field/scalar_slots.h). A
 * value >= r is CUZK_ERR_NOT_CANONICAL; a range past the end
 * CUZK_ERR_INVALID_ARGUMENT. */
cuzk_status circom_wtns_decode(fr_t *out, const circom_wtns_t *w, uint64_t start, uint64_t count,
                               char *msg, size_t msg_len);

/* The whole witness of a BLS12-381 file as a malloc'd array (free()); a
 * BN254 file is CUZK_ERR_UNSUPPORTED ("this file is for the bn128 curve"). */
cuzk_status circom_wtns_load(fr_t **out, uint64_t *n, const char *path, char *msg, size_t msg_len);

/* Writes w[0..n) (Montgomery form, w[0] = 1) as a version 2 .wtns file
 * for BLS12-381's r, sections 1 and 2 in that order, as the witness
 * calculators write them. w[0] other than 1 or n = 0 is
 * CUZK_ERR_INVALID_ARGUMENT, n above 2^32 - 1 CUZK_ERR_UNSUPPORTED, a
 * failed write CUZK_ERR_IO (path is then left as it was). */
cuzk_status circom_wtns_save(const fr_t *w, uint64_t n, const char *path, char *msg,
                             size_t msg_len);

#endif
