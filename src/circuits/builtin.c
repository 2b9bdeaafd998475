#include "circuits/builtin.h"

#include <stdio.h>

#include "r1cs/builder.h"

cuzk_status builtin_compile(r1cs_t *out, const porep_like_params *p, unsigned threads)
{
    r1cs_builder *b;
    cuzk_status st = r1cs_builder_new(&b, R1CS_BUILD_SHAPE);
    if (st != CUZK_OK)
        return st;
    if ((st = porep_like_synthesize_shape(b, p, threads)) == CUZK_OK &&
        (st = r1cs_builder_enforce_input_rows(b)) == CUZK_OK)
        st = r1cs_builder_compile(out, b, threads);
    r1cs_builder_free(b);
    return st;
}

cuzk_status builtin_witness(fr_t *w, size_t num_vars, const porep_like_params *p, uint64_t seed,
                            unsigned threads)
{
    return porep_like_witness(w, num_vars, p, seed, threads);
}

void builtin_name(char *out, size_t len, const porep_like_params *p)
{
    snprintf(out, len, "porep-like-k%u-d%u-a%u-p%u-%s", p->challenges, p->depth, p->arity,
             p->parents, p->sha_label ? "sha" : "poseidon");
}
