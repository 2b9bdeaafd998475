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
