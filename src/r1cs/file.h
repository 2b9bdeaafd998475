#ifndef CUZK_R1CS_FILE_H
#define CUZK_R1CS_FILE_H

/* The compiled-circuit file: a compiled r1cs_t written once (after setup)
 * and loaded at start-up, so synthesis of the constraints never runs again.
 *
 * Layout, all integers little-endian, every section 8-byte aligned:
 *
 *   header (128 bytes)
 *     0  magic "CUZKR1CS"          8  u32 version (1)     12 u32 header bytes (128)
 *     16 u64 num_constraints       24 u64 num_inputs      32 u64 num_aux
 *     40 u64 num_coeffs            48 u32 coeff_width     52 u32 flags (0)
 *     56 u64 nnz[A, B, C]          80 u64 long_rows[A, B, C]
 *     104 u64 payload bytes        112 u32 payload CRC-32C
 *     116 u32 0                    120 u32 header CRC-32C (bytes 0..119)   124 u32 0
 *   payload
 *     coefficient table: num_coeffs × 32 bytes, canonical little-endian
 *     for each matrix A, B, C:
 *       long rows: long_rows × (u64 row, u64 length), rows increasing
 *       row lengths: num_constraints × u8, 255 meaning "in the long-row
 *         list"; zero padding to 8
 *       columns: nnz × u32; zero padding to 8
 *       coefficient indices: nnz × coeff_width bytes; zero padding to 8
 *
 * Row lengths instead of u64 row pointers: rows hold 1-3 nonzeros, so this
 * is 1 byte per row on disk instead of 8 (at 130M rows, 0.4 GB instead of
 * 3.1 GB over the three matrices); rebuilding the pointers is one prefix
 * sum per row while reading. Columns and coefficient indices go to and from
 * the arrays with block fread/fwrite, no per-nonzero parsing.
 *
 * Reading checks the header checksum before trusting any count, the counts
 * against the file size before allocating, the payload checksum, and every
 * invariant of r1cs_validate() before returning: a corrupt or hostile file
 * gives a status and a message, never a crash or an unchecked index.
 * Status: CUZK_ERR_IO (cannot read/write, truncated), CUZK_ERR_UNSUPPORTED
 * (other version, big-endian host), CUZK_ERR_NOT_CANONICAL (a coefficient
 * >= r), CUZK_ERR_OUT_OF_MEMORY, CUZK_ERR_INVALID_ARGUMENT (anything else
 * wrong with the contents). */

#include <stdio.h>

#include "cuzk/status.h"
#include "r1cs/r1cs.h"

#define R1CS_FILE_MAGIC "CUZKR1CS"
#define R1CS_FILE_VERSION 1u
#define R1CS_FILE_HEADER_BYTES 128u

/* Writes r to f from the current position. f must be seekable (the header
 * is patched with the payload checksum at the end). */
cuzk_status r1cs_file_write(const r1cs_t *r, FILE *f, char *msg, size_t msg_len);

/* Reads a system from f's current position into *out (zeroed on failure).
 * `threads` bounds the validation pass. */
cuzk_status r1cs_file_read(r1cs_t *out, FILE *f, unsigned threads, char *msg, size_t msg_len);

/* Path versions. Saving writes "<path>.tmp" and renames it over path, so a
 * crash never leaves a half-written file under the real name. */
cuzk_status r1cs_save(const r1cs_t *r, const char *path, char *msg, size_t msg_len);
cuzk_status r1cs_load(r1cs_t *out, const char *path, unsigned threads, char *msg, size_t msg_len);

#endif
