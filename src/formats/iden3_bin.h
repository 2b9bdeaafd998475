#ifndef CUZK_FORMATS_IDEN3_BIN_H
#define CUZK_FORMATS_IDEN3_BIN_H

/* The binary container of the iden3 tools (circom's .r1cs, the witness
 * calculators' .wtns, snarkjs's .zkey and .ptau), all integers
 * little-endian:
 *
 *   magic[4]  u32 version  u32 nSections
 *   nSections × { u32 id, u64 size, byte[size] }
 *
 * Sections may come in any order (circom writes .r1cs sections as 2, 1, 3;
 * `snarkjs groth16 setup` writes a zkey as 1, 2, 4, 3, 9, 8, 5, 6, 7, 10), so
 * readers look sections up by id in the table parsed here. The table is
 * checked against the file size: every section lies inside the file, and
 * nothing follows the last one. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "formats/common.h"

#define IDEN3_MAX_SECTIONS 64

typedef struct iden3_section {
    uint32_t id;
    uint64_t offset; /* of the contents, past the 12-byte section header */
    uint64_t size;
} iden3_section;

typedef struct iden3_file {
    const mapped_file_t *file;
    uint32_t version;
    uint32_t num_sections;
    iden3_section sections[IDEN3_MAX_SECTIONS];
} iden3_file_t;

/* Parses the header and the section table of f, which must start with
 * magic (4 characters) and carry the given version. */
cuzk_status iden3_parse(iden3_file_t *out, const mapped_file_t *f, const char *magic,
                        uint32_t version, char *msg, size_t msg_len);

/* The contents of the one section with this id. `what` names the section in
 * messages ("header", "constraints"). A missing or repeated section is
 * CUZK_ERR_CORRUPT. */
cuzk_status iden3_section_get(const iden3_file_t *f, uint32_t id, const char *what,
                              const uint8_t **data, uint64_t *size, char *msg, size_t msg_len);
bool iden3_has_section(const iden3_file_t *f, uint32_t id);

/* The primes the iden3 files carry (little-endian, n8 bytes). */
typedef enum iden3_prime {
    IDEN3_PRIME_OTHER = 0,
    IDEN3_PRIME_BLS12_381_R, /* scalar field */
    IDEN3_PRIME_BLS12_381_Q, /* base field */
    IDEN3_PRIME_BN254_R,
    IDEN3_PRIME_BN254_Q,
} iden3_prime;

iden3_prime iden3_identify_prime(const uint8_t *le, uint32_t n8);

/* CUZK_ERR_UNSUPPORTED with a message naming the file, the section and the
 * prime (n8 little-endian bytes, written as big-endian hex; past 64 bytes
 * cut with "..."): a prime of neither curve. */
cuzk_status iden3_unknown_prime(char *msg, size_t msg_len, const char *name, const char *section,
                                uint32_t n8, const uint8_t *prime);

/* Checks that (n8, prime) is BLS12-381's r (want = IDEN3_PRIME_BLS12_381_R)
 * or q (IDEN3_PRIME_BLS12_381_Q). A BN254 prime gives CUZK_ERR_UNSUPPORTED
 * and "this file is for the bn128 curve; cuzk supports BLS12-381 only so
 * far"; anything else CUZK_ERR_UNSUPPORTED naming the prime. The
 * caller has checked that n8 bytes are there. */
cuzk_status iden3_check_prime(const iden3_file_t *f, const char *section, uint32_t n8,
                              const uint8_t *prime, iden3_prime want, char *msg, size_t msg_len);

#endif
