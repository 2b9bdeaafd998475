#include "formats/circom_r1cs.h"

#include <stdlib.h>
#include <string.h>

#include "field/scalar_slots.h"
#include "formats/iden3_bin.h"
#include "r1cs/builder.h"

#define SEC_HEADER 1u
#define SEC_CONSTRAINTS 2u
#define SEC_LABELS 3u
#define SEC_CUSTOM_GATES_LIST 4u
#define SEC_CUSTOM_GATES_USES 5u

static const char *const LC_NAME[3] = {"A", "B", "C"};

static cuzk_status read_header(circom_r1cs_header *h, const iden3_file_t *bin, char *msg,
                               size_t msg_len)
{
    const char *name = bin->file->name;
    memset(h, 0, sizeof(*h));
    if (iden3_has_section(bin, SEC_CUSTOM_GATES_LIST) ||
        iden3_has_section(bin, SEC_CUSTOM_GATES_USES)) {
        formats_msg(msg, msg_len,
                    "%s: the circuit uses custom gates (sections 4/5, PLONK only); cuzk reads "
                    "Groth16 circuits",
                    name);
        return CUZK_ERR_UNSUPPORTED;
    }
    const uint8_t *d;
    uint64_t size;
    cuzk_status st = iden3_section_get(bin, SEC_HEADER, "header", &d, &size, msg, msg_len);
    if (st != CUZK_OK)
        return st;
    if (size < 4) {
        formats_msg(msg, msg_len, "%s: section 1 (header): %llu bytes, too short for n8", name,
                    (unsigned long long)size);
        return CUZK_ERR_CORRUPT;
    }
    h->n8 = ld_le32(d);
    if (h->n8 > size - 4) {
        formats_msg(msg, msg_len,
                    "%s: section 1 (header): field size n8 = %u bytes, more than the section "
                    "holds",
                    name, h->n8);
        return CUZK_ERR_CORRUPT;
    }
    iden3_prime prime = iden3_identify_prime(d + 4, h->n8);
    if (prime == IDEN3_PRIME_BN254_R) {
        h->curve = CURVE_BN254;
    } else if (prime == IDEN3_PRIME_BLS12_381_R) {
        h->curve = CURVE_BLS12_381;
    } else {
        /* a base field's prime, or none of the curves' */
        st = iden3_check_prime(bin, "section 1 (header)", h->n8, d + 4, IDEN3_PRIME_BLS12_381_R,
                               msg, msg_len);
        return st != CUZK_OK ? st : CUZK_ERR_CORRUPT;
    }
    if (size != 4 + (uint64_t)h->n8 + 28) {
        formats_msg(msg, msg_len, "%s: section 1 (header): %llu bytes, expected %llu", name,
                    (unsigned long long)size, (unsigned long long)(4 + h->n8 + 28));
        return CUZK_ERR_CORRUPT;
    }
    const uint8_t *p = d + 4 + h->n8;
    h->num_wires = ld_le32(p);
    h->num_pub_out = ld_le32(p + 4);
    h->num_pub_in = ld_le32(p + 8);
    h->num_prv_in = ld_le32(p + 12);
    h->num_labels = ld_le64(p + 16);
    h->num_constraints = ld_le32(p + 24);
    uint64_t inputs = 1 + (uint64_t)h->num_pub_out + h->num_pub_in + h->num_prv_in;
    if (h->num_wires == 0 || inputs > h->num_wires) {
        formats_msg(msg, msg_len,
                    "%s: section 1 (header): %u wires cannot hold ONE, %u public outputs, %u "
                    "public inputs and %u private inputs",
                    name, h->num_wires, h->num_pub_out, h->num_pub_in, h->num_prv_in);
        return CUZK_ERR_CORRUPT;
    }
    if (h->num_labels < h->num_wires) {
        formats_msg(msg, msg_len, "%s: section 1 (header): %llu labels for %u wires", name,
                    (unsigned long long)h->num_labels, h->num_wires);
        return CUZK_ERR_CORRUPT;
    }
    uint64_t pub = circom_r1cs_num_public(h);
    if (pub >= R1CS_VAR_INDEX_MASK || h->num_wires - 1 - pub > R1CS_VAR_INDEX_MASK) {
        formats_msg(msg, msg_len, "%s: %u wires: more than cuzk's 2^31 - 1 per kind", name,
                    h->num_wires);
        return CUZK_ERR_UNSUPPORTED;
    }
    /* The wire-to-label map, when there is one, holds a label per wire: a
     * count of wires that the file does not back is refused here, before
     * anything is done per wire. */
    if (iden3_has_section(bin, SEC_LABELS)) {
        st = iden3_section_get(bin, SEC_LABELS, "wire-to-label map", &d, &size, msg, msg_len);
        if (st != CUZK_OK)
            return st;
        if (size != 8 * (uint64_t)h->num_wires) {
            formats_msg(msg, msg_len,
                        "%s: section 3 (wire-to-label map): %llu bytes, expected %llu for %u "
                        "wires",
                        name, (unsigned long long)size,
                        (unsigned long long)(8 * (uint64_t)h->num_wires), h->num_wires);
            return CUZK_ERR_CORRUPT;
        }
    }
    return CUZK_OK;
}

cuzk_status circom_r1cs_read_header(circom_r1cs_header *hdr, const mapped_file_t *f, char *msg,
                                    size_t msg_len)
{
    iden3_file_t bin;
    cuzk_status st = iden3_parse(&bin, f, "r1cs", 1, msg, msg_len);
    if (st != CUZK_OK) {
        memset(hdr, 0, sizeof(*hdr));
        return st;
    }
    return read_header(hdr, &bin, msg, msg_len);
}

static r1cs_var wire_var(const circom_r1cs_header *h, uint32_t wire)
{
    uint64_t pub = circom_r1cs_num_public(h);
    if (wire <= pub)
        return (r1cs_var)wire; /* ONE and the public signals are inputs */
    return (r1cs_var)(wire - 1 - pub) | R1CS_VAR_AUX;
}

/* Walks one linear combination at *off, calling fn(ctx, row, k, wire,
 * coefficient) for each of its terms after checking them. */
static cuzk_status walk_lc(const circom_r1cs_header *h, const uint8_t *d, uint64_t size,
                           uint64_t *off, const char *name, uint32_t row, int k,
                           circom_r1cs_term_fn fn, void *ctx, char *msg, size_t msg_len)
{
    if (size - *off < 4) {
        formats_msg(msg, msg_len,
                    "%s: section 2 (constraints): constraint %u, %s: the section ends before "
                    "its term count",
                    name, row, LC_NAME[k]);
        return CUZK_ERR_CORRUPT;
    }
    uint32_t n = ld_le32(d + *off);
    *off += 4;
    uint64_t term = 4 + (uint64_t)h->n8;
    if (n > (size - *off) / term) {
        formats_msg(msg, msg_len,
                    "%s: section 2 (constraints): constraint %u, %s: %u terms do not fit in the "
                    "%llu bytes left",
                    name, row, LC_NAME[k], n, (unsigned long long)(size - *off));
        return CUZK_ERR_CORRUPT;
    }
    for (uint32_t t = 0; t < n; t++, *off += term) {
        uint32_t wire = ld_le32(d + *off);
        if (wire >= h->num_wires) {
            formats_msg(msg, msg_len,
                        "%s: section 2 (constraints): constraint %u, %s, term %u: wire %u out of "
                        "range (%u wires)",
                        name, row, LC_NAME[k], t, wire, h->num_wires);
            return CUZK_ERR_CORRUPT;
        }
        fr_t c;
        bool canonical = h->curve == CURVE_BN254
                             ? bn254_fr_from_bytes_le(bn254_fr_slots(&c), d + *off + 4)
                             : fr_from_bytes_le(&c, d + *off + 4);
        if (!canonical) {
            formats_msg(msg, msg_len,
                        "%s: section 2 (constraints): constraint %u, %s, term %u: coefficient "
                        "is not below r",
                        name, row, LC_NAME[k], t);
            return CUZK_ERR_NOT_CANONICAL;
        }
        cuzk_status st = fn(ctx, row, (unsigned)k, wire, &c);
        if (st != CUZK_OK)
            return st;
    }
    return CUZK_OK;
}

/* Walks the whole constraint section; *off ends past the last term. */
static cuzk_status walk_constraints(const circom_r1cs_header *h, const iden3_file_t *bin,
                                    circom_r1cs_term_fn term, circom_r1cs_row_fn row_end, void *ctx,
                                    char *msg, size_t msg_len)
{
    const char *name = bin->file->name;
    const uint8_t *d;
    uint64_t size;
    cuzk_status st =
        iden3_section_get(bin, SEC_CONSTRAINTS, "constraints", &d, &size, msg, msg_len);
    if (st != CUZK_OK)
        return st;
    if (h->num_constraints > size / 12) {
        formats_msg(msg, msg_len,
                    "%s: section 2 (constraints): %u constraints cannot fit in %llu bytes", name,
                    h->num_constraints, (unsigned long long)size);
        return CUZK_ERR_CORRUPT;
    }
    uint64_t off = 0;
    for (uint32_t row = 0; row < h->num_constraints && st == CUZK_OK; row++) {
        for (int k = 0; k < 3 && st == CUZK_OK; k++)
            st = walk_lc(h, d, size, &off, name, row, k, term, ctx, msg, msg_len);
        if (st == CUZK_OK && row_end)
            st = row_end(ctx, row);
    }
    if (st == CUZK_OK && off != size) {
        formats_msg(msg, msg_len,
                    "%s: section 2 (constraints): %llu bytes left after %u constraints", name,
                    (unsigned long long)(size - off), h->num_constraints);
        st = CUZK_ERR_CORRUPT;
    }
    return st;
}

typedef struct build_ctx {
    r1cs_builder *b;
    const circom_r1cs_header *h;
    lc_t lcs[3];
    const char *name;
    char *msg;
    size_t msg_len;
} build_ctx;

static cuzk_status build_term(void *ctx, uint32_t row, unsigned lc, uint32_t wire,
                              const fr_t *coeff)
{
    build_ctx *c = ctx;
    (void)row;
    lc_add_term(&c->lcs[lc], wire_var(c->h, wire), coeff);
    return CUZK_OK;
}

static cuzk_status build_row(void *ctx, uint32_t row)
{
    build_ctx *c = ctx;
    cuzk_status st = r1cs_enforce(c->b, &c->lcs[0], &c->lcs[1], &c->lcs[2]);
    if (st != CUZK_OK)
        formats_msg(c->msg, c->msg_len, "%s: constraint %u: %s", c->name, row, cuzk_status_str(st));
    for (int k = 0; k < 3; k++)
        lc_clear(&c->lcs[k]);
    return st;
}

static cuzk_status read_constraints(r1cs_builder *b, const circom_r1cs_header *h,
                                    const iden3_file_t *bin, char *msg, size_t msg_len)
{
    build_ctx c = {.b = b, .h = h, .name = bin->file->name, .msg = msg, .msg_len = msg_len};
    for (int k = 0; k < 3; k++)
        lc_init(&c.lcs[k]);
    cuzk_status st = walk_constraints(h, bin, build_term, build_row, &c, msg, msg_len);
    for (int k = 0; k < 3; k++)
        lc_free(&c.lcs[k]);
    return st;
}

/* A BN254 file's terms as coordinate entries for r1cs_from_entries_over:
 * the builder's linear combinations are BLS12-381's, and a term's wire is
 * already its column of w (ONE, the public signals, then the rest). */
typedef struct entries_ctx {
    r1cs_entry *entries;
    uint64_t count;
} entries_ctx;

static cuzk_status count_entry(void *ctx, uint32_t row, unsigned lc, uint32_t wire,
                               const fr_t *coeff)
{
    (void)row, (void)lc, (void)wire, (void)coeff;
    ((entries_ctx *)ctx)->count++;
    return CUZK_OK;
}

static cuzk_status put_entry(void *ctx, uint32_t row, unsigned lc, uint32_t wire, const fr_t *coeff)
{
    entries_ctx *c = ctx;
    c->entries[c->count++] = (r1cs_entry){.matrix = lc, .row = row, .col = wire, .value = *coeff};
    return CUZK_OK;
}

static cuzk_status read_entries(r1cs_t *out, const circom_r1cs_header *h, const iden3_file_t *bin,
                                char *msg, size_t msg_len)
{
    entries_ctx c = {0};
    cuzk_status st = walk_constraints(h, bin, count_entry, NULL, &c, msg, msg_len);
    if (st != CUZK_OK)
        return st;
    c.entries = malloc(sizeof(r1cs_entry) * (c.count ? c.count : 1));
    if (!c.entries) {
        formats_msg(msg, msg_len, "%s: out of memory for %llu terms", bin->file->name,
                    (unsigned long long)c.count);
        return CUZK_ERR_OUT_OF_MEMORY;
    }
    c.count = 0;
    st = walk_constraints(h, bin, put_entry, NULL, &c, msg, msg_len);
    uint64_t pub = circom_r1cs_num_public(h);
    char why[256] = "";
    if (st == CUZK_OK) {
        st = r1cs_from_entries_over(out, CURVE_BN254, c.entries, c.count, h->num_constraints,
                                    1 + pub, h->num_wires - 1 - pub, why, sizeof(why));
        if (st != CUZK_OK)
            formats_msg(msg, msg_len, "%s: compiling the constraints: %s", bin->file->name,
                        why[0] ? why : cuzk_status_str(st));
    }
    free(c.entries);
    return st;
}

static cuzk_status read_labels(uint64_t **labels, const circom_r1cs_header *h,
                               const iden3_file_t *bin, char *msg, size_t msg_len)
{
    *labels = NULL;
    if (!iden3_has_section(bin, SEC_LABELS))
        return CUZK_OK;
    const uint8_t *d;
    uint64_t size;
    cuzk_status st =
        iden3_section_get(bin, SEC_LABELS, "wire-to-label map", &d, &size, msg, msg_len);
    if (st != CUZK_OK)
        return st;
    /* read_header checked its size against the wires */
    uint64_t *l = malloc((size_t)h->num_wires * sizeof(uint64_t));
    if (!l)
        return CUZK_ERR_OUT_OF_MEMORY;
    for (uint32_t i = 0; i < h->num_wires; i++)
        l[i] = ld_le64(d + 8 * (uint64_t)i);
    *labels = l;
    return CUZK_OK;
}

cuzk_status circom_r1cs_parse(r1cs_t *out, circom_r1cs_header *hdr, uint64_t **labels,
                              const mapped_file_t *f, unsigned threads, char *msg, size_t msg_len)
{
    memset(out, 0, sizeof(*out));
    if (labels)
        *labels = NULL;
    circom_r1cs_header h;
    iden3_file_t bin;
    cuzk_status st = iden3_parse(&bin, f, "r1cs", 1, msg, msg_len);
    if (st == CUZK_OK)
        st = read_header(&h, &bin, msg, msg_len);
    if (st != CUZK_OK) {
        if (hdr)
            memset(hdr, 0, sizeof(*hdr));
        return st;
    }
    r1cs_builder *b = NULL;
    uint64_t *l = NULL;
    if (h.curve == CURVE_BN254) {
        st = read_entries(out, &h, &bin, msg, msg_len);
    } else {
        st = r1cs_builder_new(&b, R1CS_BUILD_SHAPE);
        uint64_t pub = circom_r1cs_num_public(&h);
        if (st == CUZK_OK)
            st = r1cs_alloc_many(b, pub, false);
        if (st == CUZK_OK)
            st = r1cs_alloc_many(b, h.num_wires - 1 - pub, true);
        if (st != CUZK_OK)
            formats_msg(msg, msg_len, "%s: allocating %u wires: %s", f->name, h.num_wires,
                        cuzk_status_str(st));
        if (st == CUZK_OK)
            st = read_constraints(b, &h, &bin, msg, msg_len);
    }
    if (st == CUZK_OK && labels)
        st = read_labels(&l, &h, &bin, msg, msg_len);
    if (st == CUZK_OK && b) {
        st = r1cs_builder_compile(out, b, threads);
        if (st != CUZK_OK)
            formats_msg(msg, msg_len, "%s: compiling the constraints: %s", f->name,
                        cuzk_status_str(st));
    }
    r1cs_builder_free(b);
    if (st != CUZK_OK) {
        free(l);
        r1cs_free(out);
        if (hdr)
            memset(hdr, 0, sizeof(*hdr));
        return st;
    }
    if (hdr)
        *hdr = h;
    if (labels)
        *labels = l;
    return CUZK_OK;
}

cuzk_status circom_r1cs_for_each_term(const mapped_file_t *f, circom_r1cs_term_fn term,
                                      circom_r1cs_row_fn row_end, void *ctx, char *msg,
                                      size_t msg_len)
{
    iden3_file_t bin;
    circom_r1cs_header h;
    cuzk_status st = iden3_parse(&bin, f, "r1cs", 1, msg, msg_len);
    if (st == CUZK_OK)
        st = read_header(&h, &bin, msg, msg_len);
    if (st == CUZK_OK)
        st = walk_constraints(&h, &bin, term, row_end, ctx, msg, msg_len);
    return st;
}

cuzk_status circom_r1cs_load(r1cs_t *out, circom_r1cs_header *hdr, uint64_t **labels,
                             const char *path, unsigned threads, char *msg, size_t msg_len)
{
    mapped_file_t f;
    cuzk_status st = mapped_file_open(&f, path, msg, msg_len);
    if (st != CUZK_OK) {
        memset(out, 0, sizeof(*out));
        if (hdr)
            memset(hdr, 0, sizeof(*hdr));
        if (labels)
            *labels = NULL;
        return st;
    }
    st = circom_r1cs_parse(out, hdr, labels, &f, threads, msg, msg_len);
    mapped_file_close(&f);
    return st;
}
