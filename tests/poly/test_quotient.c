/* The Groth16 quotient over BLS12-381's Fr: the tests of
 * quotient_tests_impl.h. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "field/fr.h"
#include "poly/domain.h"
#include "poly/quotient.h"

#include "field/fr_names.h"
#define TD_(name) domain_##name
#define TD_T domain_t
#define TQ_(name) poly_##name
#define TQ_PREFIX "quotient_"
#include "quotient_tests_impl.h"
