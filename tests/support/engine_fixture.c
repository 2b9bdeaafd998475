#define _POSIX_C_SOURCE 200809L
#include "engine_fixture.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin_params.h"
#include "formats/bellman_params.h"
#include "groth16/verifier.h"

char efx_msg[512];
engine_fixture efx;
const char *efx_name = "engine";

void efx_ok(cuzk_status st)
{
    if (st != CUZK_OK)
        fail_msg("status %s: %s", cuzk_status_str(st), efx_msg);
}

void efx_setup(engine_fixture *fx, const char *test_name)
{
    test_builtin_params_file(test_name, &fx->shape, fx->params, sizeof(fx->params), &fx->pvk);
    fx->num_inputs = porep_like_num_inputs(&fx->shape);
}

void efx_teardown(engine_fixture *fx)
{
    unlink(fx->params);
    groth16_pvk_free(&fx->pvk);
}

int efx_group_setup(void **state)
{
    (void)state;
    efx_setup(&efx, efx_name);
    return 0;
}

int efx_group_teardown(void **state)
{
    (void)state;
    efx_teardown(&efx);
    return 0;
}

void efx_base_config(engine_config *cfg)
{
    engine_config_default(cfg);
    cfg->backend = BACKEND_CPU;
    cfg->device_threads = 2;
    cfg->synth_workers = 1;
    cfg->quiet = true;
}

void efx_register(const engine_fixture *fx, engine_t *e, const char *name)
{
    circuit_spec spec = {.name = name,
                         .kind = CIRCUIT_BUILTIN,
                         .shape = fx->shape,
                         .params_path = fx->params,
                         .check = FORMATS_CHECK_CURVE};
    efx_ok(engine_register(e, &spec, efx_msg, sizeof(efx_msg)));
}

uint64_t efx_submit(engine_t *e, const char *circuit, engine_priority prio, uint32_t parts,
                    uint64_t seed)
{
    engine_job_spec js = {.circuit = circuit, .priority = prio, .partitions = parts, .seed = seed};
    uint64_t id;
    efx_ok(engine_submit(e, &js, &id, efx_msg, sizeof(efx_msg)));
    return id;
}

void efx_expect_state(engine_t *e, uint64_t id, engine_state want)
{
    engine_state st;
    efx_ok(engine_wait(e, id, 120, &st));
    if (st != want) {
        engine_job_info info;
        engine_job_status(e, id, &info, NULL, 0);
        fail_msg("job %llu is %s, expected %s: %s", (unsigned long long)id, engine_state_name(st),
                 engine_state_name(want), info.message);
    }
}

void efx_check_proofs(const engine_fixture *fx, engine_t *e, uint64_t id, uint32_t parts,
                      uint64_t seed)
{
    uint8_t *bytes = malloc((size_t)parts * GROTH16_PROOF_BYTES);
    groth16_proof_t *proofs = calloc(parts, sizeof(groth16_proof_t));
    fr_t *inputs = calloc((size_t)parts * fx->num_inputs, sizeof(fr_t));
    size_t len = 0, n = 0;
    efx_ok(engine_job_proof(e, id, bytes, (size_t)parts * GROTH16_PROOF_BYTES, &len));
    assert_int_equal(len, (size_t)parts * GROTH16_PROOF_BYTES);
    efx_ok(bellman_proofs_decode(proofs, parts, &n, bytes, len, efx_msg, sizeof(efx_msg)));
    assert_int_equal(n, parts);
    for (uint32_t i = 0; i < parts; i++)
        efx_ok(porep_like_public_inputs(inputs + i * fx->num_inputs, fx->num_inputs, &fx->shape,
                                        seed + i));
    for (uint32_t i = 0; i < parts; i++)
        efx_ok(groth16_verify(&fx->pvk, &proofs[i], inputs + i * fx->num_inputs, fx->num_inputs));
    if (parts > 1)
        assert_int_equal(
            groth16_verify(&fx->pvk, &proofs[0], inputs + fx->num_inputs, fx->num_inputs),
            CUZK_ERR_VERIFY_FAILED);
    free(bytes);
    free(proofs);
    free(inputs);
}

/* ------------------------------------------------------------- flaky */

static cuzk_status flaky_prepare(backend_t *b, const backend_circuit_desc *d, void **h,
                                 uint64_t *bytes, char *m, size_t ml)
{
    flaky *f = b->impl;
    if (f->refuse_bn254 && d->plan->curve == CURVE_BN254) {
        snprintf(m, ml, "%s: the %s backend does not prove BN254 circuits yet", d->name, b->name);
        return CUZK_ERR_UNSUPPORTED;
    }
    return f->inner->prepare(f->inner, d, h, bytes, m, ml);
}

static void flaky_release(backend_t *b, void *h)
{
    flaky *f = b->impl;
    f->inner->release(f->inner, h);
}

static cuzk_status flaky_prove(backend_t *b, unsigned dev, void *h, const backend_input *in,
                               groth16_sums *out, backend_phase_fn fn, void *ctx, char *m,
                               size_t ml)
{
    flaky *f = b->impl;
    pthread_mutex_lock(&f->mu);
    unsigned call = f->calls++;
    if (call < 8)
        f->devices_called[call] = (int)dev;
    bool fail = f->always || call < f->fail_first;
    pthread_mutex_unlock(&f->mu);
    if (fail) {
        snprintf(m, ml, "injected failure on device %u", dev);
        return CUZK_ERR_DEVICE;
    }
    return f->inner->prove(f->inner, dev, h, in, out, fn, ctx, m, ml);
}

void flaky_init(flaky *f, const char *name, bool is_cpu, unsigned devices)
{
    memset(f, 0, sizeof(*f));
    backend_cpu_opts o = {.devices = devices, .threads = 2};
    efx_ok(backend_cpu_create(&f->inner, &o));
    pthread_mutex_init(&f->mu, NULL);
    f->base = (backend_t){.name = name,
                          .is_cpu = is_cpu,
                          .num_devices = devices,
                          .impl = f,
                          .prepare = flaky_prepare,
                          .release = flaky_release,
                          .prove = flaky_prove};
}

void flaky_free(flaky *f)
{
    f->inner->destroy(f->inner);
    pthread_mutex_destroy(&f->mu);
}
