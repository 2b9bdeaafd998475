/* cuzk_wipe: zeroes exactly the bytes it is given, at any alignment and
 * length; rng_wipe clears a secure generator's whole state. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <string.h>

#include "util/rng.h"
#include "util/wipe.h"

#define GUARD 0xa5
#define BUF_BYTES 160

/* Wipes buf[offset, offset + len) of a buffer filled with GUARD and checks
 * every byte: zero inside the range, untouched outside it. */
static void check_range(size_t offset, size_t len)
{
    uint8_t buf[BUF_BYTES];
    memset(buf, GUARD, sizeof(buf));
    cuzk_wipe(buf + offset, len);
    for (size_t i = 0; i < sizeof(buf); i++) {
        bool inside = i >= offset && i < offset + len;
        if (buf[i] != (inside ? 0 : GUARD))
            fail_msg("wipe of [%zu, %zu): byte %zu is 0x%02x", offset, offset + len, i, buf[i]);
    }
}

static void test_wipe_exact_range(void **state)
{
    (void)state;
    /* Offsets and lengths around word sizes, so an implementation storing
     * whole words cannot spill over either end. */
    static const size_t offsets[] = {0, 1, 3, 7, 8, 9, 15, 16, 31};
    static const size_t lens[] = {0, 1, 2, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 96};
    for (size_t o = 0; o < sizeof(offsets) / sizeof(offsets[0]); o++)
        for (size_t l = 0; l < sizeof(lens) / sizeof(lens[0]); l++)
            check_range(offsets[o], lens[l]);
    check_range(0, BUF_BYTES);
}

static void test_wipe_secret_scalar(void **state)
{
    (void)state;
    /* The shape the provers wipe: a few 64-bit limbs between neighbours. */
    struct {
        uint64_t before;
        uint64_t secret[4];
        uint64_t after;
    } s = {UINT64_MAX, {1, 2, 3, 4}, UINT64_MAX};
    cuzk_wipe(s.secret, sizeof(s.secret));
    for (int i = 0; i < 4; i++)
        assert_true(s.secret[i] == 0);
    assert_true(s.before == UINT64_MAX);
    assert_true(s.after == UINT64_MAX);
}

static void test_rng_wipe(void **state)
{
    (void)state;
    rng_t rng;
    assert_int_equal(rng_seed_secure(&rng), CUZK_OK);
    (void)rng_u64(&rng); /* a keystream block in the state too */
    rng_wipe(&rng);
    static const uint8_t zero[sizeof(rng_t)];
    assert_memory_equal(&rng, zero, sizeof(rng));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wipe_exact_range),
        cmocka_unit_test(test_wipe_secret_scalar),
        cmocka_unit_test(test_rng_wipe),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
