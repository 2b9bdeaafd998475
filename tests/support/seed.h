#ifndef CUZK_TEST_SEED_H
#define CUZK_TEST_SEED_H

#include <stdint.h>

/* The seed of a randomized test: CUZK_TEST_SEED from the environment when
 * set, otherwise derived from the clock. Always printed, with the command
 * line that replays the run. */
uint64_t test_seed(const char *test_name);

/* Iterations for a property test: CUZK_TEST_ITERS when set (a multiplier
 * for long runs), otherwise default_iters. */
int test_iters(int default_iters);

#endif
