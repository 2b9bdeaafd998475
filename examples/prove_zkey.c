/* Proves a snarkjs Groth16 key (.zkey, BLS12-381) with a witness (.wtns)
 * through libcuzk, writes snarkjs's proof.json and public.json, and checks
 * them against a verification key when one is given:
 *
 *   prove_zkey circuit.zkey witness.wtns proof.json public.json [verification_key.json]
 *
 * Uses nothing but the installed header; build with the Makefile beside it
 * (pkg-config --cflags --libs cuzk). Exit codes: 0 proved (and verified),
 * 1 failed, 2 bad command line. */
#include <cuzk/cuzk.h>
#include <stdio.h>
#include <string.h>

static int write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) == EOF || fclose(f) != 0) {
        fprintf(stderr, "prove_zkey: cannot write %s\n", path);
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 5 && argc != 6) {
        fprintf(stderr,
                "usage: %s circuit.zkey witness.wtns proof.json public.json "
                "[verification_key.json]\n",
                argv[0]);
        return 2;
    }
    if (cuzk_api_version() != CUZK_API_VERSION)
        fprintf(stderr, "prove_zkey: built with cuzk.h %d, running libcuzk %s\n", CUZK_API_VERSION,
                cuzk_version());

    /* A GPU when the library has CUDA and finds one, else the CPU. */
    cuzk_engine_config cfg;
    cuzk_engine_config_init(&cfg);
    cuzk_engine *engine;
    if (cuzk_engine_create(&engine, &cfg) != CUZK_OK) {
        fprintf(stderr, "prove_zkey: %s\n", cuzk_last_error());
        return 1;
    }
    int rc = 1;
    char *proof = NULL, *pub = NULL;
    if (cuzk_prove_zkey(engine, &proof, &pub, argv[1], argv[2]) != CUZK_OK) {
        fprintf(stderr, "prove_zkey: %s\n", cuzk_last_error());
        goto done;
    }
    if (write_text(argv[3], proof) != 0 || write_text(argv[4], pub) != 0)
        goto done;
    if (argc == 6) {
        cuzk_status st = cuzk_verify_snarkjs_files(argv[5], argv[3], argv[4]);
        if (st != CUZK_OK) {
            fprintf(stderr, "prove_zkey: %s (%s)\n", cuzk_last_error(), cuzk_status_str(st));
            goto done;
        }
        printf("OK: the proof verifies against %s\n", argv[5]);
    } else {
        printf("OK: wrote %s and %s\n", argv[3], argv[4]);
    }
    rc = 0;
done:
    cuzk_free(proof);
    cuzk_free(pub);
    cuzk_engine_destroy(engine);
    return rc;
}
