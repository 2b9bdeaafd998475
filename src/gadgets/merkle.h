#ifndef CUZK_GADGETS_MERKLE_H
#define CUZK_GADGETS_MERKLE_H

/* Merkle-path inclusion with Poseidon in Merkle mode (poseidon.h), arity 2
 * or 8.
 *
 * Conventions: levels are numbered from the leaves (level 0) up. The
 * leaf's index, in base `arity`, gives the position among its siblings at
 * each level: digit l (the l-th least significant) at level l. The path
 * lists, level by level, the arity - 1 siblings in child order with the
 * node on the path left out. In the circuit the digits are boolean
 * literals, log2(arity) per level, least significant first: the index bits
 * in little-endian order.
 *
 * Cost per level (plus one Poseidon hash, poseidon.h):
 *   arity 2: 1 constraint (conditional swap: d = b·(sib - cur);
 *            left = cur + d, right = sib - d);
 *   arity 8: 19 (the current node allocated unless it is a variable
 *            already, as the leaf usually is; the four products of the
 *            three index bits; then for each of the 8 positions one or two
 *            selector products). */

#include <stddef.h>
#include <stdint.h>

#include "gadgets/boolean.h"
#include "gadgets/cs.h"
#include "field/fr.h"

/* Plain: the root over leaf at `index` with the given path. */
void merkle_root_from_path(fr_t *root, const fr_t *leaf, const fr_t *siblings, uint64_t index,
                           unsigned depth, unsigned arity);

/* Number of index bits per level: 1 (arity 2) or 3 (arity 8). */
unsigned merkle_bits_per_level(unsigned arity);

/* root ← the root recomputed from leaf, siblings (depth·(arity - 1)) and
 * index_bits (depth·merkle_bits_per_level(arity)). root must not alias the
 * inputs. */
void merkle_gadget_root(gadget_cs *cs, gnum *root, const gnum *leaf, const gnum *siblings,
                        const gbit *index_bits, unsigned depth, unsigned arity);

/* The same, then enforces root = expected (1 more constraint). */
void merkle_gadget_verify(gadget_cs *cs, const gnum *expected_root, const gnum *leaf,
                          const gnum *siblings, const gbit *index_bits, unsigned depth,
                          unsigned arity);

#endif
