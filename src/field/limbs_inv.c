/* Variable-time modular inversion (field/limbs.h): the implementation is
 * field/limbs_inv_impl.h, shared with the device. */
#include "field/limbs.h"

#include "field/limbs_inv_impl.h"

void limbs_inv_var(uint64_t *r, const uint64_t *a, const uint64_t *p, unsigned n)
{
    limbs_inv_var_impl(r, a, p, n);
}
