#define _POSIX_C_SOURCE 200809L
#include "seed.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

uint64_t test_seed(const char *test_name)
{
    const char *env = getenv("CUZK_TEST_SEED");
    uint64_t seed;
    if (env && *env) {
        seed = strtoull(env, NULL, 0);
    } else {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        seed = (uint64_t)ts.tv_sec * 1000000007ULL ^ (uint64_t)ts.tv_nsec;
    }
    printf("%s: seed %" PRIu64 " (replay with CUZK_TEST_SEED=%" PRIu64 ")\n", test_name, seed,
           seed);
    fflush(stdout);
    return seed;
}

int test_iters(int default_iters)
{
    const char *env = getenv("CUZK_TEST_ITERS");
    if (env && *env) {
        long mult = strtol(env, NULL, 10);
        if (mult > 0)
            return (int)(default_iters * mult);
    }
    return default_iters;
}
