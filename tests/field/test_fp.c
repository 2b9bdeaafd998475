/* Fp: constants recomputed from p, field axioms, encodings, inversions, square
 * roots, powers and the known-answer vectors of tests/vectors/fp.txt, from
 * prime_field_tests_impl.h instantiated for a base field with p = 3 mod 4
 * ((p + 1)/4 roots, small multiples and lexicographic order). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "field/fp.h"
#include "field/fp_consts.h"
#include "field/limbs.h"
#include "seed.h"
#include "vector_file.h"

#include "field/fp_names.h"
#include "prime_field_tests_impl.h"

int main(void)
{
    const struct CMUnitTest tests[] = {
        PRIME_FIELD_TESTS,
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
