#include "groth16/keys.h"

#include <stdlib.h>
#include <string.h>

void groth16_vk_free(groth16_vk_t *vk)
{
    free(vk->ic);
    vk->ic = NULL;
    vk->num_ic = 0;
}

void groth16_params_free(groth16_params_t *params)
{
    groth16_vk_free(&params->vk);
    free(params->h);
    free(params->l);
    free(params->a);
    free(params->b_g1);
    free(params->b_g2);
    memset(params, 0, sizeof(*params));
}

bool groth16_vk_in_subgroup(const groth16_vk_t *vk)
{
    const g1_affine_t *g1[] = {&vk->alpha_g1, &vk->beta_g1, &vk->delta_g1};
    const g2_affine_t *g2[] = {&vk->beta_g2, &vk->gamma_g2, &vk->delta_g2};
    for (size_t i = 0; i < 3; i++)
        if (!g1_affine_in_subgroup(g1[i]) || !g2_affine_in_subgroup(g2[i]))
            return false;
    for (size_t i = 0; i < vk->num_ic; i++)
        if (!g1_affine_in_subgroup(&vk->ic[i]))
            return false;
    return true;
}
