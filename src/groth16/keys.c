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
