/* cuzk prove / verify with circom and snarkjs files, in the argument order
 * snarkjs users know:
 *   cuzk prove circuit.zkey witness.wtns proof.json public.json
 *   cuzk verify verification_key.json public.json proof.json */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/util.h"
#include "formats/circom_wtns.h"
#include "formats/snarkjs_json.h"
#include "groth16/verifier.h"
#include "groth16/zkey_prover.h"

int cli_prove_circom(const char *zkey_path, const char *wtns_path, const char *proof_path,
                     const char *public_path, const cli_options *opt)
{
    char msg[512] = "";
    zkey_t z;
    groth16_zkey_circuit_t circuit;
    fr_t *w = NULL;
    uint64_t nw = 0;
    void *scratch = NULL;
    int rc = CLI_EXIT_BAD_INPUT;
    double t0 = cli_now();
    /* The verifying key's few points get the full subgroup check; the
     * proving sections (thousands to millions of points) the curve check,
     * unless --check-subgroup: a subgroup check costs ~40 us a point, more
     * than the proof itself. The new proof is verified against the checked
     * key before it is written either way. */
    cuzk_status st = zkey_open(&z, zkey_path, FORMATS_CHECK_SUBGROUP, msg, sizeof(msg));
    if (st != CUZK_OK) {
        cli_file_error(zkey_path, msg, st);
        return CLI_EXIT_BAD_INPUT;
    }
    st = groth16_zkey_circuit_init(
        &circuit, &z, opt->check_subgroup ? FORMATS_CHECK_SUBGROUP : FORMATS_CHECK_CURVE,
        opt->threads, msg, sizeof(msg));
    if (st != CUZK_OK) {
        cli_file_error(zkey_path, msg, st);
        zkey_close(&z);
        return CLI_EXIT_BAD_INPUT;
    }
    double t_key = cli_now();
    st = circom_wtns_load(&w, &nw, wtns_path, msg, sizeof(msg));
    if (st != CUZK_OK) {
        cli_file_error(wtns_path, msg, st);
        goto done;
    }
    if (nw != z.num_vars) {
        cli_error("%s: the witness has %llu values but %s expects %u: witness and key are for "
                  "different circuits",
                  wtns_path, (unsigned long long)nw, zkey_path, z.num_vars);
        goto done;
    }
    scratch = malloc(groth16_zkey_scratch_bytes(&circuit));
    if (!scratch) {
        cli_error("out of memory for the prover's scratch buffers");
        rc = CLI_EXIT_FAILURE;
        goto done;
    }
    rng_t rng;
    if (rng_seed_secure(&rng) != CUZK_OK) {
        cli_error("the system random number generator failed");
        rc = CLI_EXIT_FAILURE;
        goto done;
    }
    double t_wtns = cli_now();
    groth16_proof_t proof;
    st = groth16_zkey_prove(&proof, &circuit, w, &rng, scratch, opt->threads);
    rng_wipe(&rng);
    if (st != CUZK_OK) {
        cli_error("proving failed: %s", cuzk_status_str(st));
        rc = CLI_EXIT_FAILURE;
        goto done;
    }
    double t_prove = cli_now();
    if (opt->verify) {
        /* Cheap insurance: one pairing check before the proof leaves. */
        groth16_pvk_t pvk;
        st = groth16_prepare_vk(&pvk, &z.vk);
        if (st == CUZK_OK)
            st = groth16_verify(&pvk, &proof, w + 1, z.num_public);
        groth16_pvk_free(&pvk);
        if (st != CUZK_OK) {
            cli_error("the proof does not verify: the witness %s does not satisfy the circuit of "
                      "%s",
                      wtns_path, zkey_path);
            rc = CLI_EXIT_FAILURE;
            goto done;
        }
    }
    double t_verify = cli_now();
    if ((st = snarkjs_proof_save(&proof, proof_path, msg, sizeof(msg))) != CUZK_OK ||
        (st = snarkjs_public_save(w + 1, z.num_public, public_path, msg, sizeof(msg))) != CUZK_OK) {
        cli_error("cannot write the proof: %s", msg[0] ? msg : cuzk_status_str(st));
        rc = CLI_EXIT_FAILURE;
        goto done;
    }
    if (!opt->quiet)
        fprintf(stderr,
                "cuzk prove: domain %u, %u signals; key %.3f s, witness %.3f s, prove %.3f s, "
                "verify %.3f s\n",
                z.domain_size, z.num_vars, t_key - t0, t_wtns - t_key, t_prove - t_wtns,
                t_verify - t_prove);
    rc = CLI_EXIT_OK;
done:
    free(scratch);
    free(w);
    groth16_zkey_circuit_free(&circuit);
    zkey_close(&z);
    return rc;
}

int cli_verify_snarkjs(const char *vk_path, const char *public_path, const char *proof_path,
                       const cli_options *opt)
{
    char msg[512] = "";
    groth16_vk_t vk;
    groth16_proof_t proof;
    fr_t *inputs = NULL;
    size_t n = 0;
    cuzk_status st = snarkjs_vk_load(&vk, vk_path, FORMATS_CHECK_SUBGROUP, msg, sizeof(msg));
    if (st != CUZK_OK) {
        cli_file_error(vk_path, msg, st);
        return CLI_EXIT_BAD_INPUT;
    }
    int rc = CLI_EXIT_BAD_INPUT;
    if ((st = snarkjs_public_load(&inputs, &n, public_path, msg, sizeof(msg))) != CUZK_OK) {
        cli_file_error(public_path, msg, st);
        goto done;
    }
    if ((st = snarkjs_proof_load(&proof, proof_path, FORMATS_CHECK_SUBGROUP, msg, sizeof(msg))) !=
        CUZK_OK) {
        cli_file_error(proof_path, msg, st);
        goto done;
    }
    if (n + 1 != vk.num_ic) {
        cli_error("%s has %zu public values but %s expects %zu", public_path, n, vk_path,
                  vk.num_ic - 1);
        goto done;
    }
    groth16_pvk_t pvk;
    if ((st = groth16_prepare_vk(&pvk, &vk)) != CUZK_OK) {
        cli_error("%s: %s", vk_path, cuzk_status_str(st));
        goto done;
    }
    st = groth16_verify(&pvk, &proof, inputs, n);
    groth16_pvk_free(&pvk);
    if (st == CUZK_OK) {
        if (!opt->quiet)
            printf("OK: the proof is valid\n");
        rc = CLI_EXIT_OK;
    } else {
        printf("INVALID: the proof does not verify\n");
        rc = CLI_EXIT_FAILURE;
    }
done:
    free(inputs);
    groth16_vk_free(&vk);
    return rc;
}
