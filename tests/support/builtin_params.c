#define _POSIX_C_SOURCE 200809L
#include "builtin_params.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "formats/bellman_params.h"
#include "groth16/setup.h"
#include "groth16/verifier.h"
#include "seed.h"
#include "util/rng.h"

void test_builtin_params_file(const char *test_name, porep_like_params *shape, char *path,
                              size_t path_len, groth16_pvk_t *pvk)
{
    uint64_t seed = test_seed(test_name);
    assert_int_equal(porep_like_params_for_constraints(shape, 10, 8), CUZK_OK);
    r1cs_t r;
    assert_int_equal(builtin_compile(&r, shape, 0), CUZK_OK);
    rng_t rng;
    rng_seed(&rng, seed);
    groth16_params_t p;
    groth16_setup_opts so = {0};
    assert_int_equal(groth16_setup_dev(&p, &r, &rng, &so), CUZK_OK);
    snprintf(path, path_len, "/tmp/cuzk-%s-params-XXXXXX", test_name);
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    char msg[512] = "";
    cuzk_status st = bellman_params_save(&p, path, msg, sizeof(msg));
    if (st != CUZK_OK)
        fail_msg("saving %s: %s", path, msg);
    if (pvk)
        assert_int_equal(groth16_prepare_vk(pvk, &p.vk), CUZK_OK);
    groth16_params_free(&p);
    r1cs_free(&r);
}
