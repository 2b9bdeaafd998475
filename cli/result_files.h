#ifndef CUZK_CLI_RESULT_FILES_H
#define CUZK_CLI_RESULT_FILES_H

/* A done job's result as files, for `cuzk await` and `cuzk submit --wait`
 * (docs/SERVICE.md). Every file is written to a temporary beside it and
 * renamed over its name when complete (formats_save), so a reader never
 * sees half a file; a job of several partitions gives several files, each
 * whole, not one atomic set. */

#include <stddef.h>

/* The name of partition i's file when a job has several: "-i" before the
 * extension (the last '.' of the last path component, unless it starts the
 * component), else at the end: out/proof.json -> out/proof-1.json, proof ->
 * proof-1. malloc'd; NULL when out of memory. */
char *result_file_name(const char *path, size_t i);

/* The proof bytes (partitions × 192 for BLS12-381, × 256 for BN254) into
 * path. A CLI exit code, with a
 * message on stderr. */
int result_files_write_bellman(const char *path, const void *bytes, size_t len);

/* The answer of GET /v1/jobs/{id}/proof?format=snarkjs: each partition's
 * proof into proof_path, its public signals into public_path (either may
 * be NULL: not written), through formats/snarkjs_json.h, so the files are
 * those `cuzk prove` writes. One partition: the names as given; several:
 * result_file_name(path, i). A CLI exit code, with a message on stderr. */
int result_files_write_snarkjs(const char *proof_path, const char *public_path, const char *body,
                               size_t len);

#endif
