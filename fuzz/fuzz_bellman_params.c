/* bellman parameters (formats/bellman_params.h): the whole file as
 * parameters, as a verifying key alone, and as concatenated proofs. What
 * is accepted must re-encode to the bytes it came from. */
#include "fuzz/fuzz.h"

#include "formats/bellman_params.h"

/* The key re-encodes to its own bytes and decodes to itself. */
static void vk_round_trip(const groth16_vk_t *vk, const uint8_t *bytes, uint64_t used)
{
    uint64_t n = bellman_vk_size(vk);
    FUZZ_CHECK(n == used);
    uint8_t *enc = malloc(n);
    FUZZ_CHECK(enc != NULL);
    char msg[256];
    FUZZ_CHECK(bellman_vk_encode(enc, vk, msg, sizeof(msg)) == CUZK_OK);
    FUZZ_CHECK(memcmp(enc, bytes, n) == 0);
    groth16_vk_t again;
    uint64_t again_used;
    FUZZ_CHECK(bellman_vk_decode(&again, &again_used, enc, n, "re-encoded", FORMATS_CHECK_NONE,
                                 msg, sizeof(msg)) == CUZK_OK);
    FUZZ_CHECK(again_used == n);
    FUZZ_CHECK(groth16_vk_eq(vk, &again));
    groth16_vk_free(&again);
    free(enc);
}

static void params(const uint8_t *data, size_t size)
{
    bellman_params_map_t m;
    char msg[256];
    if (bellman_params_open_buffer(&m, data, size, "fuzz", FORMATS_CHECK_CURVE, msg,
                                   sizeof(msg)) != CUZK_OK)
        return;
    vk_round_trip(&m.vk, data, bellman_vk_size(&m.vk));
    for (int q = BELLMAN_H; q < BELLMAN_B_G2; q++) {
        uint64_t n = fuzz_min(m.count[q], FUZZ_MAX_ITEMS);
        g1_affine_t *p = calloc(n ? n : 1, sizeof(*p));
        FUZZ_CHECK(p != NULL);
        (void)bellman_params_decode_g1(p, &m, (bellman_query)q, m.count[q] - n, n,
                                       FORMATS_CHECK_CURVE, 1, msg, sizeof(msg));
        /* A range past the end is refused, not read. */
        FUZZ_CHECK(bellman_params_decode_g1(p, &m, (bellman_query)q, m.count[q], 1,
                                            FORMATS_CHECK_NONE, 1, msg,
                                            sizeof(msg)) != CUZK_OK);
        free(p);
    }
    uint64_t n2 = fuzz_min(m.count[BELLMAN_B_G2], FUZZ_MAX_ITEMS);
    g2_affine_t *p2 = calloc(n2 ? n2 : 1, sizeof(*p2));
    FUZZ_CHECK(p2 != NULL);
    (void)bellman_params_decode_g2(p2, &m, 0, n2, FORMATS_CHECK_CURVE, 1, msg, sizeof(msg));
    free(p2);
    /* The whole file in one pass: its arrays are bounded by the file. */
    groth16_params_t all;
    if (bellman_params_decode_all(&all, &m, FORMATS_CHECK_CURVE, 1, msg, sizeof(msg)) == CUZK_OK) {
        FUZZ_CHECK(all.num_h == m.count[BELLMAN_H] && all.num_b_g2 == m.count[BELLMAN_B_G2]);
        groth16_params_free(&all);
    }
    bellman_params_close(&m);
}

static void vk_alone(const uint8_t *data, size_t size)
{
    groth16_vk_t vk;
    uint64_t used;
    char msg[256];
    if (bellman_vk_decode(&vk, &used, data, size, "fuzz", FORMATS_CHECK_CURVE, msg,
                          sizeof(msg)) != CUZK_OK)
        return;
    FUZZ_CHECK(used <= size);
    vk_round_trip(&vk, data, used);
    groth16_vk_free(&vk);
}

static void proofs(const uint8_t *data, size_t size)
{
    enum { MAX_PROOFS = 4 };
    groth16_proof_t p[MAX_PROOFS];
    size_t n;
    char msg[256];
    size_t len = size - size % GROTH16_PROOF_BYTES;
    if (len > MAX_PROOFS * GROTH16_PROOF_BYTES)
        len = MAX_PROOFS * GROTH16_PROOF_BYTES;
    if (bellman_proofs_decode(p, MAX_PROOFS, &n, data, len, msg, sizeof(msg)) != CUZK_OK)
        return;
    FUZZ_CHECK(n * GROTH16_PROOF_BYTES == len);
    uint8_t enc[MAX_PROOFS * GROTH16_PROOF_BYTES];
    FUZZ_CHECK(bellman_proofs_encode(enc, p, n) == CUZK_OK);
    FUZZ_CHECK(memcmp(enc, data, len) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    params(data, size);
    vk_alone(data, size);
    proofs(data, size);
    return 0;
}
