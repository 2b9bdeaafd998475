#ifndef CUZK_FORMATS_IDEN3_CURVE_H
#define CUZK_FORMATS_IDEN3_CURVE_H

/* Which curve a circom or snarkjs file is for, from the primes its header
 * carries: a .r1cs and a .wtns name the scalar field r (section 1), a
 * Groth16 .zkey the base field q and r (section 2), which must belong to one
 * curve. This is how cuzk picks the curve of a proof: from the files, with
 * no flag. */

#include <stddef.h>

#include "cuzk/status.h"
#include "curve/curve_id.h"

/* Reads just enough of the file at path (magic "r1cs", "wtns" or "zkey")
 * to find its curve.
 * Returns CUZK_OK and *curve; CUZK_ERR_UNSUPPORTED for a prime that is
 * neither BN254's nor BLS12-381's (the message names the file and the prime
 * in hex) or a zkey whose q and r are of different curves; the readers'
 * statuses for a missing, truncated or corrupt file or another magic. The
 * message always names the file. */
cuzk_status iden3_file_curve(curve_id *curve, const char *path, char *msg, size_t msg_len);

/* For any two files of a proof (binary or JSON): CUZK_OK when their curves are equal, else
 * CUZK_ERR_UNSUPPORTED and a message naming both files and both curves: a witness for one curve and
 * a key for the other must never make a (wrong) proof. */
cuzk_status formats_curves_match(const char *path_a, curve_id a, const char *path_b, curve_id b,
                                 char *msg, size_t msg_len);

#endif
