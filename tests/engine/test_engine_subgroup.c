/* Where the subgroup checks of a proving key run. A circuit registered with
 * the subgroup check (FORMATS_CHECK_SUBGROUP) on an engine whose primary
 * backend checks_subgroup is loaded with the curve check only, and the
 * backend's prepare is asked for the queries' subgroup test
 * (desc.check_subgroup); the verifying key's points are still tested on
 * the host (at registration, and again at load), so a key whose α is
 * outside the subgroup is refused either way.
 * A backend that does not check gets no such request. The stand-in backend
 * is the CPU backend that claims to check: the device's own test is
 * test_cuda_backend's. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/engine.h"
#include "engine_fixture.h"
#include "off_subgroup.h"
#include "seed.h"

/* What the stand-in's prepare was asked. */
static int prepares, prepares_checking;

static cuzk_status recording_prepare(backend_t *b, const backend_circuit_desc *d, void **h,
                                     uint64_t *bytes, char *m, size_t ml)
{
    flaky *f = b->impl;
    prepares++;
    prepares_checking += d->check_subgroup;
    return f->inner->prepare(f->inner, d, h, bytes, m, ml);
}

/* An engine on the stand-in (checks_subgroup as given). */
static engine_t *start_engine(flaky *f, bool checks)
{
    flaky_init(f, "checker", true, 1);
    f->base.prepare = recording_prepare;
    f->base.checks_subgroup = checks;
    engine_config cfg;
    efx_base_config(&cfg);
    cfg.backend_override = &f->base;
    engine_t *e;
    efx_ok(engine_create(&e, &cfg, efx_msg, sizeof(efx_msg)));
    prepares = prepares_checking = 0;
    return e;
}

/* Circuit "k" from params_path with the subgroup check. */
static cuzk_status register_k(engine_t *e, const char *params_path, char *m, size_t ml)
{
    circuit_spec spec = {.name = "k",
                         .kind = CIRCUIT_BUILTIN,
                         .shape = efx.shape,
                         .params_path = params_path,
                         .check = FORMATS_CHECK_SUBGROUP};
    return engine_register(e, &spec, m, ml);
}

static void test_backend_asked(void **state)
{
    (void)state;
    for (int checks = 0; checks <= 1; checks++) {
        flaky f;
        engine_t *e = start_engine(&f, checks);
        efx_ok(register_k(e, efx.params, efx_msg, sizeof(efx_msg)));
        uint64_t id = efx_submit(e, "k", ENGINE_PRIORITY_NORMAL, 2, 5);
        efx_expect_state(e, id, ENGINE_STATE_DONE);
        efx_check_proofs(&efx, e, id, 2, 5);
        assert_int_equal(prepares, 1);
        assert_int_equal(prepares_checking, checks);
        engine_destroy(e);
        flaky_free(&f);
    }
}

/* A copy of the fixture's parameters whose α (the first 96 bytes: the
 * verifying key's first point, uncompressed) is on the curve but outside
 * G1. */
static void write_bad_alpha(const char *path)
{
    FILE *in = fopen(efx.params, "rb"), *out = fopen(path, "wb");
    assert_non_null(in);
    assert_non_null(out);
    char buf[1 << 16];
    size_t got;
    while ((got = fread(buf, 1, sizeof(buf), in)) > 0)
        assert_int_equal(fwrite(buf, 1, got, out), got);
    fclose(in);
    rng_t rng;
    rng_seed(&rng, test_seed("engine_subgroup"));
    g1_affine_t bad;
    g1_off_subgroup(&bad, &rng);
    assert_false(g1_affine_in_subgroup(&bad));
    uint8_t enc[G1_UNCOMPRESSED_BYTES];
    g1_affine_to_uncompressed(enc, &bad);
    assert_int_equal(fseek(out, 0, SEEK_SET), 0);
    assert_int_equal(fwrite(enc, 1, sizeof(enc), out), sizeof(enc));
    assert_int_equal(fclose(out), 0);
}

/* Registration reads the verifying key with the circuit's check, the
 * subgroup's here, whoever checks the queries later. */
static void test_vk_refused(void **state)
{
    (void)state;
    char path[] = "/tmp/cuzk-subgroup-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    write_bad_alpha(path);
    for (int checks = 0; checks <= 1; checks++) {
        flaky f;
        engine_t *e = start_engine(&f, checks);
        char m[512] = "";
        assert_int_not_equal(register_k(e, path, m, sizeof(m)), CUZK_OK);
        printf("checks_subgroup %d: %s\n", checks, m);
        assert_non_null(strstr(m, "alpha_g1"));
        assert_non_null(strstr(m, "subgroup"));
        assert_int_equal(prepares, 0);
        engine_destroy(e);
        flaky_free(&f);
    }
    unlink(path);
}

int main(void)
{
    efx_name = "engine_subgroup";
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_backend_asked),
        cmocka_unit_test(test_vk_refused),
    };
    return cmocka_run_group_tests(tests, efx_group_setup, efx_group_teardown);
}
