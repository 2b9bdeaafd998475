/* Damaged circom / snarkjs binary files must give a status and a message,
 * never a crash or an out-of-bounds read: every truncation of each fixture,
 * random flipped bytes (parsed and then decoded in full), and crafted
 * headers, counts and indices. Meant to run under the sanitizer build;
 * every input sits in a buffer of exactly its size. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read_file.h"
#include "naive_abc.h"
#include "backend/backend.h"
#include "formats/circom_r1cs.h"
#include "formats/circom_wtns.h"
#include "formats/zkey.h"
#include "r1cs/r1cs.h"
#include "seed.h"

#define FIX CUZK_VECTOR_DIR "/../fixtures/circom/"

static char msg[512];
static rng_t rng;

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* Offset of the contents of section id (and of its 12-byte header). */
static size_t section(const uint8_t *d, uint32_t id, size_t *hdr)
{
    size_t off = 12;
    for (uint32_t i = 0; i < get32(d + 8); i++) {
        uint64_t size = get32(d + off + 4) | (uint64_t)get32(d + off + 8) << 32;
        if (get32(d + off) == id) {
            if (hdr)
                *hdr = off;
            return off + 12;
        }
        off += 12 + size;
    }
    fail_msg("no section %u", id);
    return 0;
}

/* What a damaged copy that still parses means, judged against the
 * fixtures as read undamaged (the reference):
 *   SAME    its meaning is the reference's (the flip hit bytes the reader
 *           does not use, e.g. an r1cs's wire labels)
 *   CAUGHT  a check a user has fails: the witness does not satisfy the
 *           constraints, a length disagrees, the key's coefficients are
 *           not the circuit's
 *   C_ONLY  an r1cs whose A and B pass the key's check and whose changed
 *           C both witnesses still satisfy (below: what no check sees)
 *   SILENT  anything else: damage accepted without a word (a failure) */
typedef enum verdict {
    VERDICT_NONE,
    VERDICT_SAME,
    VERDICT_CAUGHT,
    VERDICT_C_ONLY, /* an r1cs whose A and B are intact: see parse_r1cs */
    VERDICT_SILENT,
} verdict;
static verdict judged;

static struct reference {
    bool ready;
    r1cs_t r1cs;
    fr_t *w;  /* the fixture witness, which satisfies r1cs */
    fr_t *w2; /* a second one (chain_bls12381_2.wtns) */
    uint64_t num_w;
    fr_t *w_rand;       /* random values of the same length */
    uint64_t r1cs_eval; /* digest of r1cs's a, b, c on w_rand */
    uint64_t w_digest;
    uint64_t zkey_ab;                  /* the key's a, b on w_rand over the r1cs's rows, digested */
    uint64_t zkey_coeffs, zkey_points; /* of the zkey being flipped now */
    uint64_t zkey_coeffs_seen, zkey_points_seen; /* of the last zkey parsed */
} ref;

/* FNV-1a over bytes, chained. */
static uint64_t digest(uint64_t h, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}
#define DIGEST_START 0xcbf29ce484222325ull

static uint64_t digest_g1(uint64_t h, const g1_affine_t *p, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++) {
        h = digest(h, &p[i].x, sizeof(p[i].x));
        h = digest(h, &p[i].y, sizeof(p[i].y));
        h = digest(h, &(uint8_t){p[i].infinity}, 1);
    }
    return h;
}

static uint64_t digest_g2(uint64_t h, const g2_affine_t *p, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++) {
        h = digest(h, &p[i].x, sizeof(p[i].x));
        h = digest(h, &p[i].y, sizeof(p[i].y));
        h = digest(h, &(uint8_t){p[i].infinity}, 1);
    }
    return h;
}

/* a, b, c of r on w (num_constraints each), digested. */
static uint64_t r1cs_eval_digest(const r1cs_t *r, const fr_t *w)
{
    size_t m = r->num_constraints ? r->num_constraints : 1;
    fr_t *abc = malloc(3 * m * sizeof(fr_t));
    assert_non_null(abc);
    r1cs_eval(r, w, abc, abc + m, abc + 2 * m, 1);
    uint64_t h = digest(DIGEST_START, abc, 3 * r->num_constraints * sizeof(fr_t));
    free(abc);
    return h;
}

/* a and b of r's constraints on w, digested. */
static uint64_t r1cs_ab_digest(const r1cs_t *r, const fr_t *w)
{
    size_t m = r->num_constraints ? r->num_constraints : 1;
    fr_t *abc = malloc(3 * m * sizeof(fr_t));
    assert_non_null(abc);
    r1cs_eval(r, w, abc, abc + m, abc + 2 * m, 1);
    uint64_t h = digest(DIGEST_START, abc, 2 * r->num_constraints * sizeof(fr_t));
    free(abc);
    return h;
}

/* Parses (and on success fully decodes) one input; returns the status. */
typedef cuzk_status (*parse_fn)(const uint8_t *d, size_t len);

static cuzk_status parse_r1cs(const uint8_t *d, size_t len)
{
    mapped_file_t f;
    mapped_file_from_buffer(&f, d, len, "r1cs");
    r1cs_t r;
    uint64_t *labels;
    cuzk_status st = circom_r1cs_parse(&r, NULL, &labels, &f, 1, msg, sizeof(msg));
    if (st == CUZK_OK) {
        assert_int_equal(r1cs_validate(&r, 1, NULL, 0), CUZK_OK);
        if (ref.ready) {
            if (r1cs_num_vars(&r) != ref.num_w)
                judged = VERDICT_CAUGHT; /* the witness's length disagrees */
            else if (r.num_constraints == ref.r1cs.num_constraints &&
                     r.num_inputs == ref.r1cs.num_inputs &&
                     r1cs_eval_digest(&r, ref.w_rand) == ref.r1cs_eval)
                judged = VERDICT_SAME;
            else
                judged =
                    r1cs_is_satisfied(&r, ref.w, NULL, 1) && r1cs_is_satisfied(&r, ref.w2, NULL, 1)
                        ? VERDICT_SILENT
                        : VERDICT_CAUGHT;
            /* Satisfied still by both witnesses: its A and B must then be
             * the key's, which snarkjs made from the undamaged file (the
             * check of snarkjs zkey verify). The key holds no C (only
             * points made from it, which no check can open), so a change
             * of C alone on wires both witnesses agree on passes every
             * check a user has: the format has no checksum. That case is
             * counted apart, and is the only one allowed through. */
            if (judged == VERDICT_SILENT && r1cs_ab_digest(&r, ref.w_rand) != ref.zkey_ab)
                judged = VERDICT_CAUGHT;
            else if (judged == VERDICT_SILENT)
                judged = VERDICT_C_ONLY;
        }
        r1cs_free(&r);
        free(labels);
    } else {
        assert_null(r.a.row_ptr);
        assert_null(labels);
    }
    return st;
}

static cuzk_status parse_wtns(const uint8_t *d, size_t len)
{
    circom_wtns_t w;
    cuzk_status st = circom_wtns_open_buffer(&w, d, len, "wtns", msg, sizeof(msg));
    if (st != CUZK_OK)
        return st;
    fr_t *v = malloc((w.num_values ? w.num_values : 1) * sizeof(fr_t));
    st = circom_wtns_decode(v, &w, 0, w.num_values, msg, sizeof(msg));
    if (st == CUZK_OK && ref.ready) {
        if (w.num_values != ref.num_w)
            judged = VERDICT_CAUGHT;
        else if (digest(DIGEST_START, v, w.num_values * sizeof(fr_t)) == ref.w_digest)
            judged = VERDICT_SAME;
        else
            judged = r1cs_is_satisfied(&ref.r1cs, v, NULL, 1) ? VERDICT_SILENT : VERDICT_CAUGHT;
    }
    free(v);
    circom_wtns_close(&w);
    return st;
}

static cuzk_status parse_zkey(const uint8_t *d, size_t len)
{
    zkey_t z;
    cuzk_status st = zkey_open_buffer(&z, d, len, "zkey", FORMATS_CHECK_CURVE, msg, sizeof(msg));
    if (st != CUZK_OK)
        return st;
    r1cs_entry *co = malloc((z.num_coeffs + 1) * sizeof(r1cs_entry));
    st = zkey_decode_coeffs(co, &z, 2, msg, sizeof(msg));
    uint64_t coeffs = DIGEST_START, points = DIGEST_START;
    if (st == CUZK_OK) {
        /* The key's A and B on random values: the circuit it proves. */
        bool comparable = ref.w_rand && z.num_vars == ref.num_w;
        fr_t *w = comparable ? ref.w_rand : calloc(z.num_vars, sizeof(fr_t));
        fr_t *abc = malloc(3 * (size_t)z.domain_size * sizeof(fr_t));
        naive_abc(abc, abc + z.domain_size, abc + 2 * z.domain_size, co, z.num_coeffs, w,
                  z.domain_size);
        coeffs = digest(coeffs, &z.domain_size, sizeof(z.domain_size));
        coeffs = digest(coeffs, abc, 2 * (size_t)z.domain_size * sizeof(fr_t));
        if (!comparable)
            free(w);
        free(abc);
    }
    free(co);
    const groth16_vk_t *vk = &z.vk;
    points = digest(points, &z.num_public, sizeof(z.num_public));
    points = digest_g1(points, &vk->alpha_g1, 1);
    points = digest_g1(points, &vk->beta_g1, 1);
    points = digest_g2(points, &vk->beta_g2, 1);
    points = digest_g2(points, &vk->gamma_g2, 1);
    points = digest_g1(points, &vk->delta_g1, 1);
    points = digest_g2(points, &vk->delta_g2, 1);
    points = digest_g1(points, vk->ic, vk->num_ic);
    for (int k = 0; k < ZKEY_POINTS_COUNT && st == CUZK_OK; k++) {
        uint64_t n = z.num_points[k];
        if (k == ZKEY_POINTS_B2) {
            g2_affine_t *p = malloc((n + 1) * sizeof(*p));
            st = zkey_decode_g2(p, &z, 0, n, FORMATS_CHECK_SUBGROUP, 2, msg, sizeof(msg));
            if (st == CUZK_OK)
                points = digest_g2(points, p, n);
            free(p);
        } else {
            g1_affine_t *p = malloc((n + 1) * sizeof(*p));
            st = zkey_decode_g1(p, &z, (zkey_points)k, 0, n, FORMATS_CHECK_CURVE, 2, msg,
                                sizeof(msg));
            if (st == CUZK_OK)
                points = digest_g1(points, p, n);
            free(p);
        }
    }
    zkey_close(&z);
    if (st == CUZK_OK && ref.ready) {
        /* Coefficients other than the circuit's fail the check that the key
         * is the circuit's (as snarkjs zkey verify makes it); with the
         * circuit's coefficients, every point must be the reference's:
         * damage to a point is the curve and subgroup checks' to catch. */
        if (coeffs != ref.zkey_coeffs)
            judged = VERDICT_CAUGHT;
        else
            judged = points == ref.zkey_points ? VERDICT_SAME : VERDICT_SILENT;
    }
    ref.zkey_coeffs_seen = coeffs;
    ref.zkey_points_seen = points;
    return st;
}

/* Runs parse on a copy of d[0..len) in an exact-size buffer. */
static cuzk_status run(parse_fn parse, const uint8_t *d, size_t len)
{
    uint8_t *t = malloc(len ? len : 1);
    memcpy(t, d, len);
    msg[0] = '\0';
    cuzk_status st = parse(t, len);
    free(t);
    if (st != CUZK_OK && msg[0] == '\0' && st != CUZK_ERR_OUT_OF_MEMORY)
        fail_msg("status %s without a message", cuzk_status_str(st));
    return st;
}

typedef struct fixture_file {
    const char *path;
    parse_fn parse;
} fixture_file;

static const fixture_file FILES[] = {
    {FIX "chain_bls12381.r1cs", parse_r1cs},
    {FIX "chain_bls12381.wtns", parse_wtns},
    {FIX "chain_bls12381.zkey", parse_zkey},
    {FIX "chain_setup_bls12381.zkey", parse_zkey},
};
#define NUM_FILES (sizeof(FILES) / sizeof(FILES[0]))

static void test_truncated(void **state)
{
    (void)state;
    for (size_t f = 0; f < NUM_FILES; f++) {
        size_t len;
        uint8_t *d = test_read_file(FILES[f].path, &len);
        assert_int_equal(run(FILES[f].parse, d, len), CUZK_OK);
        for (size_t cut = 0; cut < len; cut++) {
            cuzk_status st = run(FILES[f].parse, d, cut);
            if (st != CUZK_ERR_TRUNCATED && !(cut < 4 && st == CUZK_ERR_INVALID_ARGUMENT))
                fail_msg("%s cut at %zu: %s (%s)", FILES[f].path, cut, cuzk_status_str(st), msg);
        }
        free(d);
    }
}

/* The reference: the fixtures read undamaged, and random values. */
static void reference_load(void)
{
    size_t len;
    uint8_t *d = test_read_file(FIX "chain_bls12381.r1cs", &len);
    mapped_file_t f;
    mapped_file_from_buffer(&f, d, len, "r1cs");
    uint64_t *labels;
    assert_int_equal(circom_r1cs_parse(&ref.r1cs, NULL, &labels, &f, 1, msg, sizeof(msg)), CUZK_OK);
    free(labels);
    free(d);
    assert_int_equal(
        circom_wtns_load(&ref.w, &ref.num_w, FIX "chain_bls12381.wtns", msg, sizeof(msg)), CUZK_OK);
    assert_int_equal(r1cs_num_vars(&ref.r1cs), ref.num_w);
    assert_true(r1cs_is_satisfied(&ref.r1cs, ref.w, NULL, 1));
    uint64_t n2;
    assert_int_equal(circom_wtns_load(&ref.w2, &n2, FIX "chain_bls12381_2.wtns", msg, sizeof(msg)),
                     CUZK_OK);
    assert_int_equal(n2, ref.num_w);
    assert_true(r1cs_is_satisfied(&ref.r1cs, ref.w2, NULL, 1));
    ref.w_rand = malloc(ref.num_w * sizeof(fr_t));
    for (uint64_t i = 0; i < ref.num_w; i++)
        fr_random(&ref.w_rand[i], &rng);
    ref.r1cs_eval = r1cs_eval_digest(&ref.r1cs, ref.w_rand);
    ref.w_digest = digest(DIGEST_START, ref.w, ref.num_w * sizeof(fr_t));
    /* The key made from the r1cs: its A and B rows, the constraints first. */
    zkey_t z;
    assert_int_equal(
        zkey_open(&z, FIX "chain_bls12381.zkey", FORMATS_CHECK_CURVE, msg, sizeof(msg)), CUZK_OK);
    r1cs_entry *co = malloc((z.num_coeffs + 1) * sizeof(r1cs_entry));
    fr_t *abc = malloc(3 * (size_t)z.domain_size * sizeof(fr_t));
    assert_int_equal(zkey_decode_coeffs(co, &z, 1, msg, sizeof(msg)), CUZK_OK);
    naive_abc(abc, abc + z.domain_size, NULL, co, z.num_coeffs, ref.w_rand, z.domain_size);
    size_t nc = ref.r1cs.num_constraints;
    memmove(abc + nc, abc + z.domain_size, nc * sizeof(fr_t)); /* a then b, packed */
    ref.zkey_ab = digest(DIGEST_START, abc, 2 * nc * sizeof(fr_t));
    assert_int_equal(r1cs_ab_digest(&ref.r1cs, ref.w_rand), ref.zkey_ab);
    free(abc);
    free(co);
    zkey_close(&z);
    ref.ready = true;
}

static void reference_free(void)
{
    r1cs_free(&ref.r1cs);
    free(ref.w);
    free(ref.w_rand);
    free(ref.w2);
    memset(&ref, 0, sizeof(ref));
}

/* Random flips: every damaged copy is refused, or means what the
 * undamaged file means, or fails a check; none is accepted silently. */
static void test_flipped(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("circom_corrupt_flipped"));
    reference_load();
    int iters = test_iters(400);
    for (size_t f = 0; f < NUM_FILES; f++) {
        size_t len;
        uint8_t *d = test_read_file(FILES[f].path, &len);
        if (FILES[f].parse == parse_zkey) {
            ref.ready = false; /* this key's own digests first */
            assert_int_equal(run(parse_zkey, d, len), CUZK_OK);
            ref.zkey_coeffs = ref.zkey_coeffs_seen;
            ref.zkey_points = ref.zkey_points_seen;
            ref.ready = true;
        }
        judged = VERDICT_NONE;
        assert_int_equal(run(FILES[f].parse, d, len), CUZK_OK);
        assert_int_equal(judged, VERDICT_SAME); /* the reference is itself */
        unsigned refused = 0, same = 0, caught = 0, c_only = 0;
        for (int it = 0; it < iters; it++) {
            uint8_t *c = malloc(len);
            memcpy(c, d, len);
            /* Half the flips in the first 512 bytes, where the headers are. */
            size_t span = it % 2 ? len : (len < 512 ? len : 512);
            int flips = 1 + (int)(rng_u64(&rng) % 3);
            for (int k = 0; k < flips; k++)
                c[rng_u64(&rng) % span] ^= (uint8_t)(1 + rng_u64(&rng) % 255);
            judged = VERDICT_NONE;
            cuzk_status st = run(FILES[f].parse, c, len);
            free(c);
            if (st != CUZK_OK) {
                refused++;
                continue;
            }
            if (judged == VERDICT_SILENT || judged == VERDICT_NONE)
                fail_msg("%s: damaged copy %d (seed above) parsed and passes every check",
                         FILES[f].path, it);
            same += judged == VERDICT_SAME;
            caught += judged == VERDICT_CAUGHT;
            c_only += judged == VERDICT_C_ONLY;
        }
        printf("%s: of %d damaged copies %u refused, %u caught by a check, %u mean the same, "
               "%u changed only C where the witnesses agree\n",
               FILES[f].path, iters, refused, caught, same, c_only);
        assert_int_equal(refused + caught + same + c_only, (unsigned)iters);
        free(d);
    }
    reference_free();
}

static void expect(parse_fn parse, const uint8_t *d, size_t len, cuzk_status want,
                   const char *needle)
{
    cuzk_status st = run(parse, d, len);
    if (st != want || (needle && !strstr(msg, needle)))
        fail_msg("got %s (%s), want %s with \"%s\"", cuzk_status_str(st), msg,
                 cuzk_status_str(want), needle ? needle : "");
}

static void test_crafted_container(void **state)
{
    (void)state;
    size_t len;
    uint8_t *d = test_read_file(FIX "chain_bls12381.wtns", &len);
    uint8_t *c = malloc(len + 16);
#define RESET() memcpy(c, d, len)
    RESET();
    put32(c + 4, 3);
    expect(parse_wtns, c, len, CUZK_ERR_UNSUPPORTED, "version 3");
    RESET();
    put32(c + 8, 1000);
    expect(parse_wtns, c, len, CUZK_ERR_CORRUPT, "1000 sections");
    RESET();
    put32(c + 8, 3);
    expect(parse_wtns, c, len, CUZK_ERR_TRUNCATED, "section table");
    RESET();
    put32(c + 8, 1);
    expect(parse_wtns, c, len, CUZK_ERR_CORRUPT, "after the last");
    RESET();
    put32(c + 16, 0x10000000u); /* section 1 size: 2^60 + ... */
    expect(parse_wtns, c, len, CUZK_ERR_TRUNCATED, "declares");
    RESET();
    size_t h2;
    section(d, 2, &h2);
    put32(c + h2, 1); /* two sections with id 1 */
    expect(parse_wtns, c, len, CUZK_ERR_CORRUPT, "more than once");
    RESET();
    put32(c + h2, 7); /* no section 2 */
    expect(parse_wtns, c, len, CUZK_ERR_CORRUPT, "missing");
    RESET();
    memset(c + len, 0, 16);
    expect(parse_wtns, c, len + 16, CUZK_ERR_CORRUPT, "16 bytes after");
    /* The wtns header and values. */
    size_t s1 = section(d, 1, NULL), s2 = section(d, 2, NULL);
    RESET();
    put32(c + s1, 0xffffffffu); /* n8 */
    expect(parse_wtns, c, len, CUZK_ERR_CORRUPT, "cannot hold the prime");
    RESET();
    c[s1 + 4] ^= 2; /* another prime */
    expect(parse_wtns, c, len, CUZK_ERR_UNSUPPORTED, "unknown curve");
    RESET();
    put32(c + s1 + 36, 40); /* nWitness */
    expect(parse_wtns, c, len, CUZK_ERR_CORRUPT, "expected");
    RESET();
    c[s2] = 2; /* w[0] */
    expect(parse_wtns, c, len, CUZK_ERR_CORRUPT, "w[0] is not 1");
    RESET();
    memset(c + s2 + 5 * 32, 0xff, 32);
    expect(parse_wtns, c, len, CUZK_ERR_NOT_CANONICAL, "w[5]");
#undef RESET
    free(c);
    free(d);
}

static void test_crafted_r1cs(void **state)
{
    (void)state;
    size_t len;
    uint8_t *d = test_read_file(FIX "chain_bls12381.r1cs", &len);
    uint8_t *c = malloc(len);
    size_t h = section(d, 1, NULL), s2 = section(d, 2, NULL), h3;
    section(d, 3, &h3);
    const size_t nwires = h + 36, npubout = h + 40, nprv = h + 48, nlabels = h + 52, ncons = h + 60;
#define RESET() memcpy(c, d, len)
    RESET();
    put32(c + ncons, 0xffffffffu);
    expect(parse_r1cs, c, len, CUZK_ERR_CORRUPT, "cannot fit");
    RESET();
    put32(c + ncons, 35);
    expect(parse_r1cs, c, len, CUZK_ERR_CORRUPT, "left after 35 constraints");
    RESET();
    put32(c + ncons, 37);
    expect(parse_r1cs, c, len, CUZK_ERR_CORRUPT, "constraint 36");
    RESET();
    put32(c + nwires, 0);
    expect(parse_r1cs, c, len, CUZK_ERR_CORRUPT, "wires cannot hold");
    RESET();
    put32(c + npubout, 0xfffffff0u);
    expect(parse_r1cs, c, len, CUZK_ERR_CORRUPT, "wires cannot hold");
    RESET();
    put32(c + nprv, 40);
    expect(parse_r1cs, c, len, CUZK_ERR_CORRUPT, "private inputs");
    RESET();
    put32(c + nlabels, 3);
    expect(parse_r1cs, c, len, CUZK_ERR_CORRUPT, "labels");
    RESET();
    put32(c + nwires, 20); /* the label map has 39 */
    expect(parse_r1cs, c, len, CUZK_ERR_CORRUPT, "wire-to-label map");
    RESET();
    put32(c + h3, 9); /* no label map (a section of a type nobody reads) */
    put32(c + nwires, 20); /* wires referenced beyond 20 */
    expect(parse_r1cs, c, len, CUZK_ERR_CORRUPT, "out of range");
    /* Found by fuzzing: a header declaring 2^28 wires that the label map
     * does not hold was refused only after a pass over every declared
     * wire (seconds per 7 KB file); it is refused from the header now, and
     * without a map the declared wires cost nothing before the
     * constraints are read. */
    RESET();
    put32(c + nwires, 0x10000000u);
    put32(c + nlabels, 0x10000000u);
    uint64_t t0 = backend_clock_ns();
    expect(parse_r1cs, c, len, CUZK_ERR_CORRUPT, "wire-to-label map");
    RESET();
    put32(c + h3, 9);
    put32(c + nwires, 0x7ffffff0u);
    put32(c + nlabels, 0x7ffffff0u);
    mapped_file_t f;
    mapped_file_from_buffer(&f, c, len, "r1cs");
    r1cs_t r;
    assert_int_equal(circom_r1cs_parse(&r, NULL, NULL, &f, 1, msg, sizeof(msg)), CUZK_OK);
    assert_int_equal(r1cs_num_vars(&r), 0x7ffffff0u);
    r1cs_free(&r);
    assert_true(backend_clock_ns() - t0 < 2000000000ull);
    RESET();
    put32(c + s2, 0x7fffffffu); /* first LC's term count */
    expect(parse_r1cs, c, len, CUZK_ERR_CORRUPT, "terms do not fit");
    RESET();
    put32(c + s2 + 4, 39); /* first term's wire */
    expect(parse_r1cs, c, len, CUZK_ERR_CORRUPT, "wire 39 out of range");
    RESET();
    memset(c + s2 + 8, 0xff, 32); /* first term's coefficient */
    expect(parse_r1cs, c, len, CUZK_ERR_NOT_CANONICAL, "constraint 0, A, term 0");
    RESET();
    put32(c + h, 48); /* the bytes after the prime read as a larger prime */
    expect(parse_r1cs, c, len, CUZK_ERR_UNSUPPORTED, "48-byte prime");
    RESET();
    put32(c + h, 64);
    expect(parse_r1cs, c, len, CUZK_ERR_CORRUPT, "more than the section holds");
    RESET();
    put32(c + h3, 4); /* the label map becomes a custom-gates section */
    expect(parse_r1cs, c, len, CUZK_ERR_UNSUPPORTED, "custom gates");
    RESET();
    put32(c + h3 + 4, 8 * 38); /* map one entry short: the file has 8 bytes extra */
    expect(parse_r1cs, c, len, CUZK_ERR_CORRUPT, NULL);
#undef RESET
    free(c);
    free(d);
}

static void test_crafted_zkey(void **state)
{
    (void)state;
    size_t len;
    uint8_t *d = test_read_file(FIX "chain_bls12381.zkey", &len);
    uint8_t *c = malloc(len);
    size_t s1 = section(d, 1, NULL), s2 = section(d, 2, NULL), s4 = section(d, 4, NULL);
    size_t counts = s2 + 4 + 48 + 4 + 32, points = counts + 12;
#define RESET() memcpy(c, d, len)
    RESET();
    put32(c + s1, 2);
    expect(parse_zkey, c, len, CUZK_ERR_UNSUPPORTED, "PLONK");
    RESET();
    put32(c + s2, 32); /* n8q of bn128 size with the wrong prime */
    expect(parse_zkey, c, len, CUZK_ERR_UNSUPPORTED, "unknown curve");
    RESET();
    put32(c + s2, 0xfffffff0u);
    expect(parse_zkey, c, len, CUZK_ERR_CORRUPT, "cannot hold");
    RESET();
    put32(c + counts + 4, 39); /* nPublic = nVars */
    expect(parse_zkey, c, len, CUZK_ERR_CORRUPT, "nPublic");
    RESET();
    put32(c + counts + 8, 48); /* domainSize */
    expect(parse_zkey, c, len, CUZK_ERR_CORRUPT, "power of two");
    RESET();
    put32(c + counts + 8, 128);
    expect(parse_zkey, c, len, CUZK_ERR_CORRUPT, "section 9 (H)");
    RESET();
    put32(c + counts, 40); /* nVars */
    expect(parse_zkey, c, len, CUZK_ERR_CORRUPT, "section 5 (A)");
    RESET();
    c[points + 10] ^= 1; /* alpha1.x */
    expect(parse_zkey, c, len, CUZK_ERR_NOT_ON_CURVE, "alpha1");
    RESET();
    memset(c + points + 96 + 48, 0xff, 48); /* beta1.y */
    expect(parse_zkey, c, len, CUZK_ERR_NOT_CANONICAL, "beta1");
    RESET();
    put32(c + s4, 121);
    expect(parse_zkey, c, len, CUZK_ERR_CORRUPT, "section 4 (coefficients)");
    RESET();
    put32(c + s4 + 4, 2);
    expect(parse_zkey, c, len, CUZK_ERR_CORRUPT, "matrix");
    RESET();
    put32(c + s4 + 4 + 4, 64);
    expect(parse_zkey, c, len, CUZK_ERR_CORRUPT, "row");
    RESET();
    put32(c + s4 + 4 + 8, 39);
    expect(parse_zkey, c, len, CUZK_ERR_CORRUPT, "signal");
    RESET();
    memset(c + s4 + 4 + 12, 0xff, 32);
    expect(parse_zkey, c, len, CUZK_ERR_NOT_CANONICAL, "value");
    RESET();
    size_t s7 = section(d, 7, NULL);
    c[s7 + 192 * 38 + 100] ^= 0x10; /* B2 point 38 */
    expect(parse_zkey, c, len, CUZK_ERR_NOT_ON_CURVE, "section 7 (B2), point 38");
#undef RESET
    free(c);
    free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_truncated),         cmocka_unit_test(test_flipped),
        cmocka_unit_test(test_crafted_container), cmocka_unit_test(test_crafted_r1cs),
        cmocka_unit_test(test_crafted_zkey),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
