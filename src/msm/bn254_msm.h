#ifndef CUZK_MSM_BN254_MSM_H
#define CUZK_MSM_BN254_MSM_H

/* Multi-scalar multiplication over BN254's G1 and G2 on the CPU: the MSM of
 * msm.h (Pippenger, the 0/1/other split, the density-filtered form), the
 * same template compiled over BN254's groups and scalar field
 * (bn254_msm_g1.c, bn254_msm_g2.c), with the endomorphism split on G1
 * only (bn254_glv_split, msm_internal.h). Scalars are elements of BN254's
 * Fr (bn254_fr_t, Montgomery form) or canonical little-endian limbs below
 * its r. */

#include <stddef.h>
#include <stdint.h>

#include "curve/bn254_curve.h"
#include "field/bn254_fr.h"
#include "msm/msm.h"

#define MD_(suffix) bn254_msm_g1##suffix
#define MD_AFF bn254_g1_affine_t
#define MD_JAC bn254_g1_jac_t
#define MD_SC_T bn254_fr_t
#include "msm/msm_decl.h"

#define MD_(suffix) bn254_msm_g2##suffix
#define MD_AFF bn254_g2_affine_t
#define MD_JAC bn254_g2_jac_t
#define MD_SC_T bn254_fr_t
#include "msm/msm_decl.h"

#endif
