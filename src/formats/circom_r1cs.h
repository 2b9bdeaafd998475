#ifndef CUZK_FORMATS_CIRCOM_R1CS_H
#define CUZK_FORMATS_CIRCOM_R1CS_H

/* circom's .r1cs files (iden3 container "r1cs", version 1), for BLS12-381
 * (`circom --prime bls12381`):
 *
 *   section 1 header:      u32 n8 (32), prime[n8] (r, little-endian),
 *                          u32 nWires, u32 nPubOut, u32 nPubIn, u32 nPrvIn,
 *                          u64 nLabels, u32 nConstraints
 *   section 2 constraints: nConstraints × (A, B, C), each a linear
 *                          combination u32 nTerms, nTerms × (u32 wire,
 *                          coefficient[n8]): canonical little-endian
 *                          integers (not Montgomery; −1 is r − 1)
 *   section 3 wire → label map: nWires × u64 label id
 *   sections 4, 5: custom gates (PLONK only): refused
 *
 * Wires are numbered [ONE, public outputs, public inputs, private inputs,
 * internal signals]; the r1cs_t keeps that numbering as its columns, with
 * num_inputs = 1 + nPubOut + nPubIn (the public part, outputs first, as
 * snarkjs's public.json lists them) and everything else aux.
 *
 * The prime names the curve (circom_r1cs_header.curve): BLS12-381 or BN254
 * (`circom --prime bn128`, circom's default). A BN254 system is over BN254's
 * scalar field (r1cs_t.curve), its coefficients in fr_t slots
 * (field/scalar_slots.h); it is compiled from the terms as coordinate
 * entries (r1cs_from_entries_over), since the builder's linear
 * combinations are BLS12-381's. A prime of neither curve is refused naming
 * it. */

#include <stdint.h>

#include "curve/curve_id.h"
#include "formats/common.h"
#include "r1cs/r1cs.h"

typedef struct circom_r1cs_header {
    curve_id curve; /* from the prime */
    uint32_t n8;
    uint32_t num_wires;
    uint32_t num_pub_out;
    uint32_t num_pub_in;
    uint32_t num_prv_in;
    uint64_t num_labels;
    uint32_t num_constraints;
} circom_r1cs_header;

/* Number of public signals (outputs and public inputs, ONE excluded). */
static inline uint64_t circom_r1cs_num_public(const circom_r1cs_header *h)
{
    return (uint64_t)h->num_pub_out + h->num_pub_in;
}

/* The header alone (section 1), checked for a known prime and for
 * consistent counts. */
cuzk_status circom_r1cs_read_header(circom_r1cs_header *hdr, const mapped_file_t *f, char *msg,
                                    size_t msg_len);

/* The whole file: the constraint system into *out (zeroed on failure,
 * r1cs_free to release), the header into *hdr (may be NULL), and, when
 * labels is not NULL, the wire → label map as a malloc'd array of
 * num_wires entries (free()); a file without the map gives NULL there.
 * `threads` bounds the compile pass (0: all CPUs). */
cuzk_status circom_r1cs_parse(r1cs_t *out, circom_r1cs_header *hdr, uint64_t **labels,
                              const mapped_file_t *f, unsigned threads, char *msg, size_t msg_len);

/* The terms of the constraints in the file's order, checked as
 * circom_r1cs_parse checks them: term(ctx, constraint, lc, wire,
 * coefficient) for each term, lc 0, 1, 2 for A, B, C, the coefficient an
 * element of the file's scalar field (Montgomery form; BN254's in an fr_t
 * slot); then row_end(ctx, constraint) after each constraint
 * (row_end may be NULL). Terms are not merged or sorted, unlike the
 * r1cs_t's rows. The first status other than CUZK_OK from a callback stops
 * the walk and is returned. */
typedef cuzk_status (*circom_r1cs_term_fn)(void *ctx, uint32_t constraint, unsigned lc,
                                           uint32_t wire, const fr_t *coeff);
typedef cuzk_status (*circom_r1cs_row_fn)(void *ctx, uint32_t constraint);
cuzk_status circom_r1cs_for_each_term(const mapped_file_t *f, circom_r1cs_term_fn term,
                                      circom_r1cs_row_fn row_end, void *ctx, char *msg,
                                      size_t msg_len);

/* circom_r1cs_parse on the mapped file at path. */
cuzk_status circom_r1cs_load(r1cs_t *out, circom_r1cs_header *hdr, uint64_t **labels,
                             const char *path, unsigned threads, char *msg, size_t msg_len);

/* Writing. The columns of r are the wires, in order: circom numbers wires
 * [ONE, public outputs, public inputs, private inputs, internal signals]
 * and an r1cs_t [ONE, inputs, aux], so the public part of r must be the
 * outputs then the public inputs (num_inputs = 1 + num_pub_out +
 * num_pub_in), and the private inputs its first num_prv_in aux columns.
 * A system read by circom_r1cs_load is already in that order. */
typedef struct circom_r1cs_wires {
    uint32_t num_pub_out;
    uint32_t num_pub_in;
    uint32_t num_prv_in;
    /* The wire-to-label map (r1cs_num_vars(r) entries, labels[0] = 0, each
     * below num_labels), or NULL: wire i has label i and nLabels is the
     * number of wires. */
    const uint64_t *labels;
    uint64_t num_labels;
} circom_r1cs_wires;

/* Writes r as a version 1 .r1cs file for BLS12-381's r, as circom 2 lays
 * it out: sections 2 (constraints), 1 (header), 3 (labels); coefficients
 * canonical little-endian, terms sorted by wire. A counts/labels mismatch
 * is CUZK_ERR_INVALID_ARGUMENT, more than 2^32 - 1 wires or constraints
 * or a system over BN254 CUZK_ERR_UNSUPPORTED, a failed write CUZK_ERR_IO (path is then left as
 * it was). */
cuzk_status circom_r1cs_save(const r1cs_t *r, const circom_r1cs_wires *wires, const char *path,
                             char *msg, size_t msg_len);

#endif
