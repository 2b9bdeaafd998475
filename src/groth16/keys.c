#include "groth16/keys.h"

#include <stdlib.h>
#include <string.h>

bool groth16_vk_eq(const groth16_vk_t *a, const groth16_vk_t *b)
{
    if (!g1_affine_eq(&a->alpha_g1, &b->alpha_g1) || !g1_affine_eq(&a->beta_g1, &b->beta_g1) ||
        !g2_affine_eq(&a->beta_g2, &b->beta_g2) || !g2_affine_eq(&a->gamma_g2, &b->gamma_g2) ||
        !g1_affine_eq(&a->delta_g1, &b->delta_g1) || !g2_affine_eq(&a->delta_g2, &b->delta_g2) ||
        a->num_ic != b->num_ic)
        return false;
    for (size_t i = 0; i < a->num_ic; i++)
        if (!g1_affine_eq(&a->ic[i], &b->ic[i]))
            return false;
    return true;
}

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
