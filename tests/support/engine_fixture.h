#ifndef CUZK_TEST_ENGINE_FIXTURE_H
#define CUZK_TEST_ENGINE_FIXTURE_H

/* What the engine's tests share: the built-in circuit at 2^10 constraints
 * (development parameters in a temporary file, builtin_params.h), jobs of
 * seeded partitions on it, waiting for a state, checking a job's proofs
 * independently, and a backend around the CPU backend that fails chosen
 * calls. Every helper fails the test on an error; msg holds the last
 * message. */

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "backend/backend.h"
#include "circuits/builtin.h"
#include "engine/engine.h"
#include "groth16/keys.h"

typedef struct engine_fixture {
    porep_like_params shape;
    char params[64];
    groth16_pvk_t pvk;
    uint64_t num_inputs;
} engine_fixture;

extern char efx_msg[512];

/* A test program's fixture: efx_group_setup (a cmocka group setup) makes
 * it, naming the setup's seed line after efx_name (set it before running
 * the tests; "engine" when not), and efx_group_teardown frees it. */
extern engine_fixture efx;
extern const char *efx_name;
int efx_group_setup(void **state);
int efx_group_teardown(void **state);

/* The tests' engine: the CPU backend, 2 threads a device, one synthesis
 * worker, quiet. */
void efx_base_config(engine_config *cfg);

/* Fails the test unless st is CUZK_OK, with efx_msg. */
void efx_ok(cuzk_status st);
void efx_setup(engine_fixture *fx, const char *test_name);
void efx_teardown(engine_fixture *fx);
void efx_register(const engine_fixture *fx, engine_t *e, const char *name);
/* A job of parts partitions with seeds seed, seed + 1, ... */
uint64_t efx_submit(engine_t *e, const char *circuit, engine_priority prio, uint32_t parts,
                    uint64_t seed);
/* Waits (up to 120 s) for the job to end in state want. */
void efx_expect_state(engine_t *e, uint64_t id, engine_state want);
/* The job's proofs against the built-in circuit's public inputs for its
 * seeds; a partition's proof does not verify for another's inputs. */
void efx_check_proofs(const engine_fixture *fx, engine_t *e, uint64_t id, uint32_t parts,
                      uint64_t seed);

/* A backend around the CPU backend (posing as `devices` devices, named
 * name, is_cpu as given: false makes the engine add its CPU fallback)
 * that fails the first fail_first calls, or every call with always
 * ("injected failure on device D", CUZK_ERR_DEVICE); with refuse_bn254 its
 * prepare refuses BN254 plans as the CUDA backend does
 * (CUZK_ERR_UNSUPPORTED, naming the curve). */
typedef struct flaky {
    backend_t base;
    backend_t *inner;
    pthread_mutex_t mu;
    unsigned calls, fail_first;
    bool always;
    bool refuse_bn254;
    int devices_called[8];
} flaky;

void flaky_init(flaky *f, const char *name, bool is_cpu, unsigned devices);
void flaky_free(flaky *f);

#endif
