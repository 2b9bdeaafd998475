/* circom .r1cs (formats/circom_r1cs.h): the header, the whole constraint
 * system with its labels (which must compile into a valid r1cs_t), and
 * the term walk, which must agree with it on the count of constraints. */
#include "fuzz/fuzz.h"

#include "formats/circom_r1cs.h"

typedef struct walk {
    uint64_t terms, rows;
} walk;

static cuzk_status on_term(void *ctx, uint32_t constraint, unsigned lc, uint32_t wire,
                           const fr_t *coeff)
{
    (void)constraint;
    (void)wire;
    (void)coeff;
    FUZZ_CHECK(lc <= 2);
    ((walk *)ctx)->terms++;
    return CUZK_OK;
}

static cuzk_status on_row(void *ctx, uint32_t constraint)
{
    walk *w = ctx;
    FUZZ_CHECK(constraint == w->rows);
    w->rows++;
    return CUZK_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mapped_file_t f;
    mapped_file_from_buffer(&f, data, size, "fuzz");
    char msg[256];
    circom_r1cs_header hdr;
    if (circom_r1cs_read_header(&hdr, &f, msg, sizeof(msg)) != CUZK_OK)
        return 0;
    r1cs_t r;
    uint64_t *labels = NULL;
    circom_r1cs_header parsed;
    cuzk_status st = circom_r1cs_parse(&r, &parsed, &labels, &f, 1, msg, sizeof(msg));
    walk w = {0, 0};
    cuzk_status walked = circom_r1cs_for_each_term(&f, on_term, on_row, &w, msg, sizeof(msg));
    if (st == CUZK_OK) {
        FUZZ_CHECK(parsed.num_wires == hdr.num_wires);
        FUZZ_CHECK(r1cs_validate(&r, 1, msg, sizeof(msg)) == CUZK_OK);
        FUZZ_CHECK(walked == CUZK_OK && w.rows == hdr.num_constraints);
        free(labels);
        r1cs_free(&r);
    }
    return 0;
}
