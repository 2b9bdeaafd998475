/* cuzk prove / verify with circom and snarkjs files, in the argument order
 * snarkjs users know:
 *   cuzk prove circuit.zkey witness.wtns proof.json public.json [more triples]
 *   cuzk verify verification_key.json public.json proof.json
 * Proving goes through the engine (cli/engine_run.h), on the GPU when
 * there is one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/engine_run.h"
#include "cli/util.h"
#include "field/scalar_slots.h"
#include "formats/bellman_params.h"
#include "formats/bn254_proof.h"
#include "formats/bn254_snarkjs_json.h"
#include "formats/circom_wtns.h"
#include "formats/iden3_curve.h"
#include "formats/snarkjs_json.h"
#include "groth16/verifier.h"

/* The witness's public values (w[1 .. num_public], in its curve's field)
 * for public.json, and a check that it fits the key before the engine sees
 * it: a file that is missing, corrupt, for another prime or another
 * circuit is bad input. */
static int read_public(fr_t *pub, const char *wtns_path, const char *zkey_path,
                       const engine_circuit_info *ci)
{
    char msg[512] = "";
    circom_wtns_t wt;
    cuzk_status st = circom_wtns_open(&wt, wtns_path, msg, sizeof(msg));
    if (st != CUZK_OK) {
        cli_file_error(wtns_path, msg, st);
        return CLI_EXIT_BAD_INPUT;
    }
    int rc = CLI_EXIT_OK;
    if (wt.num_values != ci->num_vars) {
        cli_error("%s: the witness has %llu values but %s expects %llu: witness and key are for "
                  "different circuits",
                  wtns_path, (unsigned long long)wt.num_values, zkey_path,
                  (unsigned long long)ci->num_vars);
        rc = CLI_EXIT_BAD_INPUT;
    } else if ((st = circom_wtns_decode(pub, &wt, 1, ci->num_public, msg, sizeof(msg))) !=
               CUZK_OK) {
        cli_file_error(wtns_path, msg, st);
        rc = CLI_EXIT_BAD_INPUT;
    }
    circom_wtns_close(&wt);
    return rc;
}

/* The curve of the key, from its primes, and the same curve for every
 * witness: a witness of the other curve is refused naming both files,
 * before anything is proved. */
static int read_curve(curve_id *curve, const char *zkey_path, const cli_proof_files *files,
                      size_t n)
{
    char msg[512] = "";
    cuzk_status st = iden3_file_curve(curve, zkey_path, msg, sizeof(msg));
    if (st != CUZK_OK) {
        cli_file_error(zkey_path, msg, st);
        return CLI_EXIT_BAD_INPUT;
    }
    for (size_t i = 0; i < n; i++) {
        curve_id wc;
        st = iden3_file_curve(&wc, files[i].witness, msg, sizeof(msg));
        if (st == CUZK_OK)
            st = formats_curves_match(files[i].witness, wc, zkey_path, *curve, msg, sizeof(msg));
        if (st != CUZK_OK) {
            cli_file_error(files[i].witness, msg, st);
            return CLI_EXIT_BAD_INPUT;
        }
    }
    return CLI_EXIT_OK;
}

/* proof.json and public.json of one proof of the engine (its bytes:
 * bellman's for BLS12-381, formats/bn254_proof.h's for BN254), in the
 * curve's snarkjs form; pub in the curve's field (field/scalar_slots.h). */
static int write_proof(curve_id curve, const uint8_t *bytes, const fr_t *pub, size_t num_public,
                       const cli_proof_files *files)
{
    char msg[512] = "";
    cuzk_status st;
    if (curve == CURVE_BN254) {
        bn254_groth16_proof_t proof;
        if ((st = bn254_proof_decode(&proof, bytes, msg, sizeof(msg))) == CUZK_OK &&
            (st = bn254_snarkjs_proof_save(&proof, files->proof, msg, sizeof(msg))) == CUZK_OK)
            st = bn254_snarkjs_public_save(bn254_fr_slots_const(pub), num_public,
                                           files->public_json, msg, sizeof(msg));
    } else {
        groth16_proof_t proof;
        if ((st = bellman_proof_decode(&proof, bytes, msg, sizeof(msg))) == CUZK_OK &&
            (st = snarkjs_proof_save(&proof, files->proof, msg, sizeof(msg))) == CUZK_OK)
            st = snarkjs_public_save(pub, num_public, files->public_json, msg, sizeof(msg));
    }
    if (st == CUZK_OK)
        return CLI_EXIT_OK;
    cli_error("%s: cannot write the proof: %s", files->witness, msg[0] ? msg : cuzk_status_str(st));
    return CLI_EXIT_FAILURE;
}

int cli_prove_circom(const char *zkey_path, const cli_proof_files *files, size_t n,
                     const cli_options *opt)
{
    engine_t *e = NULL;
    fr_t *pub = NULL;
    uint64_t *ids = NULL;
    curve_id curve;
    int rc = read_curve(&curve, zkey_path, files, n);
    if (rc != CLI_EXIT_OK)
        return rc;
    rc = cli_engine_start(&e, opt, (unsigned)n);
    if (rc != CLI_EXIT_OK)
        return rc;
    /* The proving sections get the curve check unless --check-subgroup (a
     * subgroup check costs ~40 us a point, more than the proof itself); the
     * verifying key always gets the full one, and every proof is verified
     * against it before it is written unless --no-verify. */
    circuit_spec spec = {.name = "zkey",
                         .kind = CIRCUIT_ZKEY,
                         .zkey_path = zkey_path,
                         .check =
                             opt->check_subgroup ? FORMATS_CHECK_SUBGROUP : FORMATS_CHECK_CURVE};
    double load_s = 0;
    if ((rc = cli_engine_load(e, &spec, zkey_path, &load_s)) != CLI_EXIT_OK)
        goto done;
    engine_circuit_info ci;
    engine_stats stats;
    engine_get_stats(e, &stats, &ci, 1);
    pub = malloc(sizeof(fr_t) * (ci.num_public ? ci.num_public : 1) * n);
    ids = calloc(n, sizeof(uint64_t));
    if (!pub || !ids) {
        cli_error("out of memory");
        rc = CLI_EXIT_FAILURE;
        goto done;
    }
    for (size_t i = 0; i < n; i++)
        if ((rc = read_public(pub + i * ci.num_public, files[i].witness, zkey_path, &ci)) !=
            CLI_EXIT_OK)
            goto done;

    /* One job a witness: the engine pipelines them, and one that fails
     * leaves the others' proofs to be written. */
    fr_t *blind_r = NULL, *blind_s = NULL;
    if ((rc = cli_engine_blinding(opt, curve, 1, &blind_r, &blind_s)) != CLI_EXIT_OK)
        goto done;
    double t0 = cli_now();
    char msg[512] = "";
    for (size_t i = 0; i < n; i++) {
        engine_partition_input in = {.wtns_path = files[i].witness};
        engine_job_spec job = {.circuit = spec.name,
                               .priority = ENGINE_PRIORITY_NORMAL,
                               .partitions = 1,
                               .inputs = &in,
                               .r = blind_r,
                               .s = blind_s};
        cuzk_status st = engine_submit(e, &job, &ids[i], msg, sizeof(msg));
        if (st != CUZK_OK) {
            cli_error("%s: %s", files[i].witness, msg[0] ? msg : cuzk_status_str(st));
            rc = CLI_EXIT_FAILURE;
            break;
        }
    }
    free(blind_r);
    free(blind_s);
    if (rc != CLI_EXIT_OK)
        goto done;
    for (size_t i = 0; i < n; i++) {
        uint8_t bytes[CURVE_PROOF_MAX_BYTES];
        size_t len = 0;
        char what[600];
        snprintf(what, sizeof(what), "proving %s", files[i].witness);
        int one = cli_engine_await(e, ids[i], what);
        if (one == CLI_EXIT_OK &&
            (engine_job_proof(e, ids[i], bytes, sizeof(bytes), &len) != CUZK_OK ||
             len != ci.proof_bytes)) {
            cli_error("%s: the engine's proof cannot be read back", files[i].witness);
            one = CLI_EXIT_FAILURE;
        }
        if (one == CLI_EXIT_OK)
            one = write_proof(curve, bytes, pub + i * ci.num_public, ci.num_public, &files[i]);
        if (one != CLI_EXIT_OK)
            rc = one;
    }
    if (!opt->quiet)
        fprintf(
            stderr,
            "cuzk prove: domain %llu, %llu signals, %s backend; key %.3f s, %zu proof%s %.3f s\n",
            (unsigned long long)ci.domain_n, (unsigned long long)ci.num_vars, stats.backend, load_s,
            n, n == 1 ? "" : "s", cli_now() - t0);
done:
    free(ids);
    free(pub);
    engine_destroy(e);
    return rc;
}

/* The verdict of one verification (st from the curve's verifier). */
static int verify_verdict(cuzk_status st, const char *vk_path, const cli_options *opt)
{
    if (st == CUZK_OK) {
        if (!opt->quiet)
            printf("OK: the proof is valid\n");
        return CLI_EXIT_OK;
    }
    if (st == CUZK_ERR_VERIFY_FAILED) {
        printf("INVALID: the proof does not verify\n");
        return CLI_EXIT_FAILURE;
    }
    cli_error("%s: %s", vk_path, cuzk_status_str(st));
    return CLI_EXIT_BAD_INPUT;
}

static bool public_count_fits(size_t n, size_t num_ic, const char *public_path, const char *vk_path)
{
    if (n + 1 == num_ic)
        return true;
    cli_error("%s has %zu public values but %s expects %zu", public_path, n, vk_path, num_ic - 1);
    return false;
}

/* BLS12-381's verifier takes a prepared key (e(α, β) and the lines of −γ,
 * −δ, worth it for many proofs); one proof here. */
static cuzk_status bls12_381_verify(const groth16_vk_t *vk, const groth16_proof_t *proof,
                                    const fr_t *inputs, size_t n)
{
    groth16_pvk_t pvk;
    cuzk_status st = groth16_prepare_vk(&pvk, vk);
    if (st == CUZK_OK) {
        st = groth16_verify(&pvk, proof, inputs, n);
        groth16_pvk_free(&pvk);
    }
    return st;
}

#define VF_FN verify_bls12_381
#define VF_(name) snarkjs_##name
#define VF_VK_T groth16_vk_t
#define VF_PROOF_T groth16_proof_t
#define VF_FR_T fr_t
#define VF_VK_FREE groth16_vk_free
#define VF_VERIFY bls12_381_verify
#include "cli/verify_files_impl.h"

#define VF_FN verify_bn254
#define VF_(name) bn254_snarkjs_##name
#define VF_VK_T bn254_groth16_vk_t
#define VF_PROOF_T bn254_groth16_proof_t
#define VF_FR_T bn254_fr_t
#define VF_VK_FREE bn254_groth16_vk_free
#define VF_VERIFY bn254_groth16_verify
#include "cli/verify_files_impl.h"

int cli_verify_snarkjs(const char *vk_path, const char *public_path, const char *proof_path,
                       const cli_options *opt)
{
    /* The key names the curve; a proof that names one (rapidsnark's do
     * not) must name the same. */
    char msg[512] = "";
    curve_id curve, proof_curve;
    bool named, proof_named;
    cuzk_status st = snarkjs_json_file_curve(&curve, &named, vk_path, msg, sizeof(msg));
    if (st != CUZK_OK) {
        cli_file_error(vk_path, msg, st);
        return CLI_EXIT_BAD_INPUT;
    }
    st = snarkjs_json_file_curve(&proof_curve, &proof_named, proof_path, msg, sizeof(msg));
    if (st == CUZK_OK && named && proof_named)
        st = formats_curves_match(proof_path, proof_curve, vk_path, curve, msg, sizeof(msg));
    if (st != CUZK_OK) {
        cli_file_error(proof_path, msg, st);
        return CLI_EXIT_BAD_INPUT;
    }
    return curve == CURVE_BN254 ? verify_bn254(vk_path, public_path, proof_path, opt)
                                : verify_bls12_381(vk_path, public_path, proof_path, opt);
}
