#ifndef CUZK_TEST_BUILTIN_PARAMS_H
#define CUZK_TEST_BUILTIN_PARAMS_H

#include <stddef.h>

#include "circuits/builtin.h"
#include "groth16/keys.h"

/* Development parameters for the built-in circuit at 2^10 constraints
 * (arity 8), the small circuit the engine's tests register: the setup runs
 * with test_seed(test_name) (printed), and the parameters go to a new
 * temporary file whose name is written to path. shape gets the circuit's
 * shape; pvk, when not NULL, its prepared verifying key. Fails the test on
 * any error. The caller unlinks path. */
void test_builtin_params_file(const char *test_name, porep_like_params *shape, char *path,
                              size_t path_len, groth16_pvk_t *pvk);

#endif
