/* The readers of snarkjs's JSON files for one curve (snarkjs_json.h
 * describes the files and the checks), declared for BLS12-381
 * (snarkjs_json.h) and BN254 (bn254_snarkjs_json.h); the template
 * snarkjs_json_read_impl.h defines them. No include guard: each header
 * includes it after defining
 *   SD_(name)   the names (snarkjs_##name)
 *   SD_FR_T, SD_VK_T, SD_PROOF_T   the curve's scalars, key and proof
 * The macros are undefined at the end. */

cuzk_status SD_(proof_from_json)(SD_PROOF_T *out, const char *text, size_t len, const char *name,
                                 formats_check check, char *msg, size_t msg_len);
cuzk_status SD_(proof_load)(SD_PROOF_T *out, const char *path, formats_check check, char *msg,
                            size_t msg_len);

/* *out: a malloc'd array of *n values (free()); NULL for an empty list. */
cuzk_status SD_(public_from_json)(SD_FR_T **out, size_t *n, const char *text, size_t len,
                                  const char *name, char *msg, size_t msg_len);
cuzk_status SD_(public_load)(SD_FR_T **out, size_t *n, const char *path, char *msg, size_t msg_len);

/* *out owns vk.ic (freed by the key's _vk_free). */
cuzk_status SD_(vk_from_json)(SD_VK_T *out, const char *text, size_t len, const char *name,
                              formats_check check, char *msg, size_t msg_len);
cuzk_status SD_(vk_load)(SD_VK_T *out, const char *path, formats_check check, char *msg,
                         size_t msg_len);

#undef SD_
#undef SD_FR_T
#undef SD_VK_T
#undef SD_PROOF_T
