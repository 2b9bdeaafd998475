/* Poseidon: the plain permutation against the authors' published vectors
 * (t = 3, 5) and the generator script's records (t = 9, hash mode); the
 * gadget against the plain permutation and hash on random inputs
 * (values, satisfaction, tampering of every allocated value, counts). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "gadgets/poseidon.h"
#include "seed.h"
#include "vector_file.h"

static rng_t rng;

static void read_fr(fr_t *x, const char *hex)
{
    uint8_t buf[32];
    assert_int_equal(vec_hex(buf, 32, hex), 0);
    assert_true(fr_from_bytes_be(x, buf));
}

static void test_vectors(void **state)
{
    (void)state;
    vec_file *f = vec_open("poseidon.txt");
    assert_non_null(f);
    vec_record rec;
    int seen[5] = {0};
    while (vec_next(f, &rec)) {
        fr_t in[9], want[9], got[9];
        if (strncmp(rec.op, "perm_t", 6) == 0) {
            unsigned t = (unsigned)atoi(rec.op + 6);
            const poseidon_params *p = t == 3 ? &POSEIDON_T3 : t == 5 ? &POSEIDON_T5 : &POSEIDON_T9;
            assert_int_equal(p->t, t);
            assert_int_equal(rec.nfields, 2 * t);
            for (unsigned i = 0; i < t; i++) {
                read_fr(&in[i], rec.fields[i]);
                read_fr(&want[i], rec.fields[t + i]);
            }
            memcpy(got, in, t * sizeof(fr_t));
            poseidon_permute(p, got);
            for (unsigned i = 0; i < t; i++)
                assert_true(fr_eq(&got[i], &want[i]));
            seen[t == 3 ? 0 : t == 5 ? 1 : 2]++;
        } else if (strncmp(rec.op, "hash", 4) == 0) {
            unsigned arity = (unsigned)atoi(rec.op + 4);
            assert_int_equal(rec.nfields, arity + 1);
            for (unsigned i = 0; i < arity; i++)
                read_fr(&in[i], rec.fields[i]);
            read_fr(&want[0], rec.fields[arity]);
            poseidon_hash(&got[0], in, arity);
            assert_true(fr_eq(&got[0], &want[0]));
            seen[arity == 2 ? 3 : 4]++;
        } else {
            fail_msg("%s:%d: unknown op %s", vec_path(f), rec.line, rec.op);
        }
    }
    vec_close(f);
    for (int i = 0; i < 5; i++)
        assert_true(seen[i] > 0);
    assert_int_equal(POSEIDON_T3.rf, 8);
    assert_int_equal(POSEIDON_T3.rp, 57);
    assert_int_equal(POSEIDON_T5.rp, 60);
    assert_int_equal(POSEIDON_T9.rp, 63);
}

static void tamper(fr_t *x)
{
    fr_add(x, x, &FR_ONE);
}

/* Compiles, checks, and tampers with every aux value from first_aux on. */
static void check_and_tamper(r1cs_builder *b, gadget_cs *cs, uint64_t first_aux)
{
    assert_int_equal(gcs_status(cs), CUZK_OK);
    r1cs_t r;
    fr_t *w;
    uint64_t n, bad;
    assert_int_equal(gcs_compile_with_witness(b, &r, &w, &n, 1), CUZK_OK);
    assert_true(r1cs_is_satisfied(&r, w, &bad, 1));
    for (uint64_t i = r.num_inputs + first_aux; i < n; i++) {
        fr_t saved = w[i];
        tamper(&w[i]);
        assert_false(r1cs_is_satisfied(&r, w, &bad, 1));
        w[i] = saved;
    }
    free(w);
    r1cs_free(&r);
}

static void test_gadget_permute(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("poseidon_gadget_permute"));
    const poseidon_params *ps[3] = {&POSEIDON_T3, &POSEIDON_T5, &POSEIDON_T9};
    for (int pi = 0; pi < 3; pi++) {
        const poseidon_params *p = ps[pi];
        fr_t in[POSEIDON_MAX_T];
        for (unsigned i = 0; i < p->t; i++)
            fr_random(&in[i], &rng);
        r1cs_builder *b;
        assert_int_equal(r1cs_builder_new(&b, R1CS_BUILD_SHAPE | R1CS_BUILD_VALUES), CUZK_OK);
        gadget_cs cs;
        gcs_init(&cs, b, R1CS_BUILD_SHAPE | R1CS_BUILD_VALUES);
        gnum st[POSEIDON_MAX_T];
        for (unsigned i = 0; i < p->t; i++) {
            gnum_init(&st[i]);
            gnum_alloc(&cs, &st[i], &in[i]);
        }
        uint64_t c0 = cs.num_constraints;
        poseidon_gadget_permute(&cs, p, st);
        print_message("poseidon t=%u permutation: %llu constraints\n", p->t,
                      (unsigned long long)(cs.num_constraints - c0));
        static const uint64_t documented[3] = {352, 436, 580};
        assert_int_equal(cs.num_constraints - c0, documented[pi]);
        poseidon_permute(p, in);
        /* bind the outputs to the inputs' permutation through the system:
         * allocate each output and enforce it equal */
        for (unsigned i = 0; i < p->t; i++) {
            assert_true(fr_eq(&st[i].val, &in[i]));
            gnum o;
            gnum_init(&o);
            gnum_alloc(&cs, &o, &in[i]);
            gnum_enforce_equal(&cs, &o, &st[i]);
            gnum_free(&o);
        }
        check_and_tamper(b, &cs, p->t);
        for (unsigned i = 0; i < p->t; i++)
            gnum_free(&st[i]);
        gcs_free(&cs);
        r1cs_builder_free(b);
    }
}

static void test_gadget_hash(void **state)
{
    (void)state;
    rng_seed(&rng, test_seed("poseidon_gadget_hash"));
    static const unsigned arities[3] = {2, 4, 8};
    for (int ai = 0; ai < 3; ai++) {
        unsigned arity = arities[ai];
        for (int it = 0; it < test_iters(3); it++) {
            fr_t in[8], want;
            for (unsigned i = 0; i < arity; i++)
                fr_random(&in[i], &rng);
            poseidon_hash(&want, in, arity);
            unsigned flags[3] = {R1CS_BUILD_SHAPE | R1CS_BUILD_VALUES, R1CS_BUILD_VALUES, 0};
            uint64_t counts[3];
            for (int m = 0; m < 3; m++) {
                r1cs_builder *b = NULL;
                if (flags[m])
                    assert_int_equal(r1cs_builder_new(&b, flags[m]), CUZK_OK);
                gadget_cs cs;
                gcs_init(&cs, b, flags[m]);
                gnum x[8], out;
                for (unsigned i = 0; i < arity; i++) {
                    gnum_init(&x[i]);
                    gnum_alloc(&cs, &x[i], &in[i]);
                }
                gnum_init(&out);
                poseidon_gadget_hash(&cs, &out, x, arity);
                counts[m] = cs.num_constraints;
                if (m < 2)
                    assert_true(fr_eq(&out.val, &want));
                if (m == 0) {
                    gnum o;
                    gnum_init(&o);
                    gnum_alloc(&cs, &o, &want);
                    gnum_enforce_equal(&cs, &o, &out);
                    gnum_free(&o);
                    if (it == 0)
                        check_and_tamper(b, &cs, arity);
                }
                for (unsigned i = 0; i < arity; i++)
                    gnum_free(&x[i]);
                gnum_free(&out);
                gcs_free(&cs);
                r1cs_builder_free(b);
            }
            if (it == 0)
                print_message("poseidon hash, arity %u: %llu constraints\n", arity,
                              (unsigned long long)counts[1]);
            static const uint64_t documented[3] = {348, 432, 576};
            assert_int_equal(counts[1], documented[ai]);
            assert_int_equal(counts[0], counts[1]);
            assert_int_equal(counts[1], counts[2]);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vectors),
        cmocka_unit_test(test_gadget_permute),
        cmocka_unit_test(test_gadget_hash),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
