/* BN254 Fr: constants recomputed from r, field axioms, encodings, inversions, square
 * roots, powers and the known-answer vectors of tests/vectors/bn254_fr.txt, from
 * prime_field_tests_impl.h instantiated for a 2-adic field (t, the generator
 * 5, the 2^28-th root of unity and the square roots Tonelli-Shanks meets). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "field/bn254_fr.h"
#include "field/bn254_consts.h"
#include "field/limbs.h"
#include "seed.h"
#include "vector_file.h"

#include "field/bn254_fr_names.h"
#include "prime_field_tests_impl.h"

int main(void)
{
    const struct CMUnitTest tests[] = {
        PRIME_FIELD_TESTS,
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
