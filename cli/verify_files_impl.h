/* `cuzk verify` over one curve: reads the verification key, public.json
 * and proof.json with the curve's snarkjs readers and verifies. A template
 * that cli/circom.c includes once per curve after defining
 *   VF_FN          the function's name
 *   VF_(name)      the curve's snarkjs readers (snarkjs_##name)
 *   VF_VK_T, VF_PROOF_T, VF_FR_T, VF_VK_FREE   its key, proof and scalars
 *   VF_VERIFY(vk, proof, inputs, n)   its verifier, a cuzk_status
 * and verify_verdict and public_count_fits. The macros are undefined at
 * the end. */

static int VF_FN(const char *vk_path, const char *public_path, const char *proof_path,
                 const cli_options *opt)
{
    char msg[512] = "";
    VF_VK_T vk;
    VF_PROOF_T proof;
    VF_FR_T *inputs = NULL;
    size_t n = 0;
    cuzk_status st = VF_(vk_load)(&vk, vk_path, FORMATS_CHECK_SUBGROUP, msg, sizeof(msg));
    if (st != CUZK_OK) {
        cli_file_error(vk_path, msg, st);
        return CLI_EXIT_BAD_INPUT;
    }
    int rc = CLI_EXIT_BAD_INPUT;
    if ((st = VF_(public_load)(&inputs, &n, public_path, msg, sizeof(msg))) != CUZK_OK) {
        cli_file_error(public_path, msg, st);
        goto done;
    }
    if ((st = VF_(proof_load)(&proof, proof_path, FORMATS_CHECK_SUBGROUP, msg, sizeof(msg))) !=
        CUZK_OK) {
        cli_file_error(proof_path, msg, st);
        goto done;
    }
    if (public_count_fits(n, vk.num_ic, public_path, vk_path))
        rc = verify_verdict(VF_VERIFY(&vk, &proof, inputs, n), vk_path, opt);
done:
    free(inputs);
    VF_VK_FREE(&vk);
    return rc;
}

#undef VF_FN
#undef VF_
#undef VF_VK_T
#undef VF_PROOF_T
#undef VF_FR_T
#undef VF_VK_FREE
#undef VF_VERIFY
