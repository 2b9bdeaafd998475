#ifndef CUZK_CIRCUITS_POREP_LIKE_H
#define CUZK_CIRCUITS_POREP_LIKE_H

/* The built-in benchmark circuit: shaped like one partition of a Filecoin
 * storage proof (PoRep), scalable from 2^10 to 2^27 constraints.
 *
 * Per challenge c (K of them), with index i_c of a leaf in a tree of
 * arity^depth leaves:
 *   1. i_c (a public input) is unpacked into depth·log2(arity) bits;
 *   2. the label of the leaf is computed:
 *      - SHA labels (the default from 2^15 constraints up):
 *          label = SHA-256(replica_id as 32 bytes little-endian
 *                          || i_c as 8 bytes big-endian
 *                          || `parents` 32-byte parent labels)
 *        the parent labels being private bits, as the labels of the
 *        parents of a node are in PoRep; the digest's first 254 bits
 *        (bytes little-endian, bit 0 of byte 0 first; the two top bits of
 *        byte 31 dropped, as Filecoin fits a SHA-256 digest into Fr) are
 *        packed into the leaf;
 *      - Poseidon labels (the small sizes, where a SHA block does not fit):
 *          label = Poseidon-hash2(replica_id, i_c);
 *   3. a Merkle path (Poseidon, merkle.h) proves the leaf under the public
 *      root, directions taken from the bits of i_c.
 * Before the challenges, the replica id (public) is unpacked into 254
 * bits (SHA labels only).
 *
 * Public inputs, in order: replica_id, root, i_0 .. i_{K-1}.
 *
 * Witness from a 64-bit seed: the replica id (254 bits), the indices,
 * the parent labels (a function of the seed and the index, so a repeated
 * index has one label) and the tree. The tree is virtual: the nodes on the
 * challenged paths are computed, every other node is a pseudo-random field
 * element of the seed, its level and position (as if its subtree were
 * there), so depths of 30 and more cost K·depth hashes, not 2^depth.
 *
 * The same seed gives the same witness; shape-only synthesis ignores it. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuzk/status.h"
#include "field/fr.h"
#include "r1cs/builder.h"

typedef struct porep_like_params {
    uint32_t challenges; /* K ≥ 1 */
    uint32_t depth;      /* tree levels ≥ 1; depth·log2(arity) ≤ 62 */
    uint32_t arity;      /* 2 or 8 */
    uint32_t parents;    /* parent labels hashed into each SHA label */
    bool sha_label;      /* SHA-256 labels, else Poseidon labels */
} porep_like_params;

/* CUZK_OK, or CUZK_ERR_INVALID_ARGUMENT for a shape outside the limits
 * above (parents ≤ 2^20, challenges ≤ 2^20). */
cuzk_status porep_like_params_check(const porep_like_params *p);

/* Parameters whose circuit has about 2^target_log2 constraints
 * (target_log2 in 10..27; arity 2 or 8). Below 2^15 the labels are
 * Poseidon's; from 2^15 on they are SHA-256, K grows as 2^(k-19) up to 18
 * (a 32 GiB PoRep partition proves 176/10 ≈ 18 challenges), the tree
 * spans min(k + 3, 30) index bits (30: 32 GiB of 32-byte nodes), and the
 * number of parents fills the rest (one parent pair is one SHA block, so
 * the steps are coarse at the small end). The constraints plus one row
 * per public input never exceed 2^target_log2, so the Groth16 domain is
 * exactly 2^target_log2; within that the size is as near the target as
 * the coarse steps allow. */
cuzk_status porep_like_params_for_constraints(porep_like_params *out, size_t target_log2,
                                              unsigned arity);

/* Exact counts of the circuit, without synthesizing it (not including
 * bellman's input rows, r1cs_builder_enforce_input_rows). */
cuzk_status porep_like_count(const porep_like_params *p, uint64_t *constraints, uint64_t *aux);

/* Public inputs excluding ONE: K + 2. */
uint64_t porep_like_num_inputs(const porep_like_params *p);

/* The public inputs for a seed: out[0..K+2) = replica_id, root, indices. */
cuzk_status porep_like_public_inputs(fr_t *out, size_t n, const porep_like_params *p,
                                     uint64_t seed);

/* Synthesizes the circuit into b (fresh, no variables yet). `flags` are
 * the builder's R1CS_BUILD_* flags: SHAPE records the constraints (setup),
 * VALUES computes the witness from seed (per proof; fast, no linear
 * combinations built), both for tests. */
cuzk_status porep_like_synthesize(r1cs_builder *b, unsigned flags, const porep_like_params *p,
                                  uint64_t seed);

/* The full assignment w = [1, inputs..., aux...] (num_vars values, the
 * circuit's count) for seed: what porep_like_synthesize in VALUES mode
 * and r1cs_builder_assignment give, bit for bit, computed challenge by
 * challenge on `threads` threads (0: all CPUs), each writing its slice of
 * w in place. */
cuzk_status porep_like_witness(fr_t *w, size_t num_vars, const porep_like_params *p, uint64_t seed,
                               unsigned threads);

/* The shape into b (a fresh SHAPE builder): what
 * porep_like_synthesize(b, R1CS_BUILD_SHAPE, p, 0) leaves there (the same
 * rows, columns and coefficient table in the same order), with the
 * challenges synthesized on `threads` threads (0: all CPUs) and joined in
 * order. While they are joined, memory peaks near twice the system's. */
cuzk_status porep_like_synthesize_shape(r1cs_builder *b, const porep_like_params *p,
                                        unsigned threads);

#endif
