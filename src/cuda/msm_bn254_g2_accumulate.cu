/* The device MSM over BN254's G2, its bucket accumulation and the merge of cut
 * buckets (msm_group.cuh says why each group's MSM is cut into three files). */

#include "cuda/msm_bn254_g2_defs.cuh"
#include "cuda/msm_group.cuh"
#include "cuda/msm_accumulate_impl.cuh"
