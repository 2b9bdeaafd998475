/* The Groth16 quotient over BN254's Fr: the tests of quotient_tests_impl.h
 * (BN254 is circom's default curve; snarkjs's coset of the odd 2n-th roots
 * is the one its keys use). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "field/bn254_fr.h"
#include "poly/bn254_domain.h"
#include "poly/bn254_quotient.h"

#include "field/bn254_fr_names.h"
#define TD_(name) bn254_domain_##name
#define TD_T bn254_domain_t
#define TQ_(name) bn254_poly_##name
#define TQ_PREFIX "bn254_quotient_"
#include "quotient_tests_impl.h"
