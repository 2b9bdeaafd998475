/* The doubling and addition steps of a Miller loop on a sextic twist
 * y² = x³ + b' over Fp2, in homogeneous projective coordinates, written
 * once for BLS12-381 (M-type twist, miller.c) and BN254 (D-type,
 * bn254_pairing.c). A template: included after a tower_names_*.h and after
 * defining MS_G2_AFF_T (the affine G2 type) and
 *   static void twist_3b(F2_T *r, const F2_T *a)   r = 3b'·a.
 * Both twists give the same three line values up to their placement in
 * Fp12: for a line through points of E' with slope λ', evaluated at
 * P = (xP, yP) and scaled by factors in Fp2 (which the final exponentiation
 * removes), M-type: (λ' x_T − y_T) − λ' xP · v + yP · v w; D-type:
 * yP − λ' xP · w + (λ' x_T − y_T) · w³ (ψ(x, y) = (x w², y w³)). */

typedef struct g2_proj {
    F2_T x, y, z;
} g2_proj_t;

/* A line is three Fp2 values l[0], l[1]·xP and l[2]·yP (l[1] and l[2] still
 * await P); where they go in Fp12 is the twist's (miller.c: M-type, v and
 * v w; bn254_pairing.c: D-type, w³ and w). */

/* r = 3a and r = 12a with additions (fp_mul_small walks every bit of k). */
static void twist_mul3(F2_T *r, const F2_T *a)
{
    F2_T t;
    F2_(dbl)(&t, a);
    F2_(add)(r, &t, a);
}

static void twist_mul12(F2_T *r, const F2_T *a)
{
    twist_mul3(r, a);
    F2_(dbl)(r, r);
    F2_(dbl)(r, r);
}

/* T = 2T and the tangent line at T. Costello, Lange, Naehrig, "Faster
 * pairing computations on curves with high-degree twists", PKC 2010, §5
 * (homogeneous, y² = x³ + b'), with the result scaled by 4 to avoid the
 * halvings: with B = Y², C = Z², E = 3b'C, F = 3E, H = 2YZ,
 *   X3 = 2XY(B − F),  Y3 = (B + F)² − 12E²,  Z3 = 4BH,
 *   line values (E − B), 3X²·xP, −H·yP. */
static void dbl_step(F2_T l[3], g2_proj_t *t)
{
    F2_T b, c, e, f, h, j, s;
    F2_(sqr)(&j, &t->x);
    F2_(sqr)(&b, &t->y);
    F2_(sqr)(&c, &t->z);
    /* E = 3b'C */
    twist_3b(&e, &c);
    twist_mul3(&f, &e);
    /* H = (Y + Z)² − B − C */
    F2_(add)(&h, &t->y, &t->z);
    F2_(sqr)(&h, &h);
    F2_(sub)(&h, &h, &b);
    F2_(sub)(&h, &h, &c);

    /* line */
    F2_(sub)(&l[0], &e, &b);
    twist_mul3(&l[1], &j);
    F2_(neg)(&l[2], &h);

    /* X3 = 2XY(B − F) */
    F2_(mul)(&s, &t->x, &t->y);
    F2_(sub)(&c, &b, &f);
    F2_(mul)(&s, &s, &c);
    F2_(dbl)(&t->x, &s);
    /* Z3 = 4BH */
    F2_(mul)(&s, &b, &h);
    F2_(dbl)(&s, &s);
    F2_(dbl)(&t->z, &s);
    /* Y3 = (B + F)² − 12E² */
    F2_(add)(&s, &b, &f);
    F2_(sqr)(&s, &s);
    F2_(sqr)(&e, &e);
    twist_mul12(&e, &e);
    F2_(sub)(&t->y, &s, &e);
}

/* T = T + Q (Q affine) and the line through them. Costello, Lange, Naehrig
 * 2010, §5 (mixed addition): θ = Y − yQ Z, λ = X − xQ Z, D = λ², E = λ³,
 * F = Zθ², G = XD, H = E + F − 2G,
 *   X3 = λH,  Y3 = θ(G − H) − YE,  Z3 = ZE,
 *   line values (θ xQ − λ yQ), −θ·xP, λ·yP. */
static void add_step(F2_T l[3], g2_proj_t *t, const MS_G2_AFF_T *q)
{
    F2_T theta, lambda, d, e, f, g, h, s;
    F2_(mul)(&theta, &q->y, &t->z);
    F2_(sub)(&theta, &t->y, &theta);
    F2_(mul)(&lambda, &q->x, &t->z);
    F2_(sub)(&lambda, &t->x, &lambda);

    F2_(sqr)(&d, &lambda);
    F2_(mul)(&e, &lambda, &d);
    F2_(sqr)(&f, &theta);
    F2_(mul)(&f, &f, &t->z);
    F2_(mul)(&g, &t->x, &d);
    F2_(add)(&h, &e, &f);
    F2_(sub)(&h, &h, &g);
    F2_(sub)(&h, &h, &g);

    F2_(mul)(&t->x, &lambda, &h);
    F2_(sub)(&s, &g, &h);
    F2_(mul)(&s, &s, &theta);
    F2_(mul)(&g, &t->y, &e);
    F2_(sub)(&t->y, &s, &g);
    F2_(mul)(&t->z, &t->z, &e);

    F2_(mul)(&s, &theta, &q->x);
    F2_(mul)(&g, &lambda, &q->y);
    F2_(sub)(&l[0], &s, &g);
    F2_(neg)(&l[1], &theta);
    l[2] = lambda;
}

static void proj_from_affine(g2_proj_t *t, const MS_G2_AFF_T *q)
{
    t->x = q->x;
    t->y = q->y;
    t->z = F2_ONE;
}
