#!/usr/bin/env python3
"""BN254 G1's endomorphism constants for the GLV split of the CPU MSM.

Computes and checks (standard library only):
  beta    a cube root of unity in Fp, phi(x, y) = (beta*x, y) on G1;
  lambda  the cube root of unity in Fr with phi(P) = [lambda]P, checked on
          the generator (1, 2) by affine double-and-add;
  v1, v2  a short basis of {(a, b) : a + b*lambda = 0 mod r}, from the
          extended Euclidean algorithm on (r, lambda) (Gallant, Lambert,
          Vanstone, "Faster point multiplication on elliptic curves with
          efficient endomorphisms", CRYPTO 2001, section 4);
  g1, g2  the Babai rounding constants round(b2*2^256/r), round(-b1*2^256/r).
Then mirrors bn254_glv_split (src/msm/bn254_msm_g1.c) step for step on
random and edge scalars and checks k1 + k2*lambda = k (mod r) and the bound
on |k1|, |k2|. Prints the constants as C limb arrays.

Usage: python3 tools/glv/bn254_glv_consts.py [SAMPLES [SEED]]
"""
import random
import sys

P = 0x30644E72E131A029B85045B68181585D97816A916871CA8D3C208C16D87CFD47
R = 0x30644E72E131A029B85045B68181585D2833E84879B9709143E1F593F0000001
GEN = (1, 2)
M128 = (1 << 128) - 1


def cube_root_of_unity(m):
    """A nontrivial cube root of unity mod the prime m (m = 1 mod 3)."""
    assert (m - 1) % 3 == 0
    for g in range(2, 100):
        w = pow(g, (m - 1) // 3, m)
        if w != 1:
            assert pow(w, 3, m) == 1
            return w
    raise ValueError("no cube root found")


def aff_add(a, b):
    """Affine addition on y^2 = x^3 + 3 over Fp (None is infinity)."""
    if a is None:
        return b
    if b is None:
        return a
    (x1, y1), (x2, y2) = a, b
    if x1 == x2:
        if (y1 + y2) % P == 0:
            return None
        s = 3 * x1 * x1 * pow(2 * y1, -1, P) % P
    else:
        s = (y2 - y1) * pow(x2 - x1, -1, P) % P
    x3 = (s * s - x1 - x2) % P
    return (x3, (s * (x1 - x3) - y1) % P)


def aff_mul(pt, k):
    acc = None
    for bit in bin(k)[2:]:
        acc = aff_add(acc, acc)
        if bit == "1":
            acc = aff_add(acc, pt)
    return acc


def short_basis(n, lam):
    """GLV section 4: Euclid on (n, lam) gives r_i = s_i*n + t_i*lam, so
    (r_i, -t_i) is in the lattice; m is the last index with r_m >= sqrt(n);
    v1 = (r_{m+1}, -t_{m+1}), v2 the shorter of (r_m, -t_m), (r_{m+2}, -t_{m+2})."""
    rs, ts = [n, lam], [0, 1]
    while rs[-1] != 0:
        q = rs[-2] // rs[-1]
        rs.append(rs[-2] - q * rs[-1])
        ts.append(ts[-2] - q * ts[-1])
    m = max(i for i in range(len(rs)) if rs[i] * rs[i] >= n)
    v1 = (rs[m + 1], -ts[m + 1])
    c0, c2 = (rs[m], -ts[m]), (rs[m + 2], -ts[m + 2])
    v2 = min(c0, c2, key=lambda v: v[0] * v[0] + v[1] * v[1])
    return v1, v2


def limbs(v, n):
    assert 0 <= v < 1 << (64 * n)
    return [(v >> (64 * i)) & ((1 << 64) - 1) for i in range(n)]


def c_array(name, v, n):
    body = ", ".join("0x%016xULL" % x for x in limbs(v, n))
    return "static const uint64_t %s[%d] = {%s};" % (name, n, body)


def main():
    samples = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else random.randrange(1 << 32)

    beta = cube_root_of_unity(P)
    w = cube_root_of_unity(R)
    phi_g = (beta * GEN[0] % P, GEN[1])
    lam = next(l for l in (w, w * w % R) if aff_mul(GEN, l) == phi_g)
    assert (lam * lam + lam + 1) % R == 0 and (beta * beta + beta + 1) % P == 0
    # A second point, to be sure phi acts as [lambda] on the group.
    q = aff_mul(GEN, 0x1234567890ABCDEF)
    assert aff_mul(q, lam) == (beta * q[0] % P, q[1])

    (a1, b1), (a2, b2) = short_basis(R, lam)
    det = a1 * b2 - a2 * b1
    if det < 0:  # make the basis positively oriented: det = +r
        a2, b2 = -a2, -b2
        det = -det
    assert det == R
    for a, b in ((a1, b1), (a2, b2)):
        assert (a + b * lam) % R == 0
    # The C code takes the signs below as given.
    assert a1 > 0 and b1 < 0 and a2 > 0 and b2 > 0, (a1, b1, a2, b2)

    def rdiv(num, den):
        return (2 * num + den) // (2 * den)

    g1 = rdiv(b2 << 256, R)
    g2 = rdiv(-b1 << 256, R)

    def split(k):
        """bn254_glv_split's steps: c = (k*g + 2^255) >> 256 exactly, then
        k1, k2 mod 2^128 read as two's complement."""
        c1 = (k * g1 + (1 << 255)) >> 256
        c2 = (k * g2 + (1 << 255)) >> 256
        assert c1 < 1 << 128 and c2 < 1 << 128
        k1 = (k - c1 * a1 - c2 * a2) & M128
        k2 = (c1 * -b1 - c2 * b2) & M128
        n1, n2 = k1 >> 127, k2 >> 127
        m1 = (-k1) & M128 if n1 else k1
        m2 = (-k2) & M128 if n2 else k2
        return m1, m2, n1, n2

    # Rigorous bound: c_i differs from the exact Babai coefficient k*b/r by
    # at most 1/2 + k*|g - b*2^256/r|/2^256 + 2^-256 < 1/2 + 2^-2, so
    # |k1| <= (3/4)(a1 + a2) and |k2| <= (3/4)(|b1| + b2).
    bound1 = 3 * (a1 + a2) // 4 + 1
    bound2 = 3 * (-b1 + b2) // 4 + 1
    assert abs(g1 * R - (b2 << 256)) <= R and abs(g2 * R - (-b1 << 256)) <= R
    assert max(bound1, bound2) < 1 << 127  # two's complement mod 2^128 is exact

    rng = random.Random(seed)
    edge = [0, 1, 2, R - 1, R - 2, lam, R - lam, (R - 1) // 2, (R + 1) // 2, a1, a2,
            R - a1, R - a2, (-b1) % R, b2 % R, (a1 + a2) % R, (1 << 254) % R, (1 << 253)]
    for c in range(1, 64):
        for v in (a1, a2, -b1, b2):
            edge += [(c * v * lam) % R, (c * v * lam + 1) % R, (c * v * lam - 1) % R]
    worst = [0, 0]
    for k in edge + [rng.randrange(R) for _ in range(samples)]:
        m1, m2, n1, n2 = split(k)
        k1 = -m1 if n1 else m1
        k2 = -m2 if n2 else m2
        assert (k1 + k2 * lam - k) % R == 0, hex(k)
        assert m1 <= bound1 and m2 <= bound2, hex(k)
        worst[0], worst[1] = max(worst[0], m1), max(worst[1], m2)

    print("seed %d, %d random + %d edge scalars: k1 + k2*lambda = k mod r" %
          (seed, samples, len(edge)))
    print("largest |k1| = 2^%.3f, |k2| = 2^%.3f seen; proven bounds 2^%.3f, 2^%.3f (< 2^127)"
          % tuple(x.bit_length() - 1 + (x / (1 << (x.bit_length() - 1)) - 1)
                  for x in (worst[0], worst[1], bound1, bound2)))
    print("beta   = 0x%x" % beta)
    print("lambda = 0x%x" % lam)
    print("v1 = (a1, b1) = (0x%x, -0x%x)" % (a1, -b1))
    print("v2 = (a2, b2) = (0x%x, 0x%x)" % (a2, b2))
    print("g1 = 0x%x (%d bits), g2 = 0x%x (%d bits)" % (g1, g1.bit_length(), g2, g2.bit_length()))
    print(c_array("BN254_GLV_BETA_RAW", beta, 4))
    print(c_array("BN254_GLV_A1", a1, 2))
    print(c_array("BN254_GLV_A2", a2, 2))
    print(c_array("BN254_GLV_B1", -b1, 2))
    print(c_array("BN254_GLV_B2", b2, 2))
    print(c_array("BN254_GLV_G1", g1, 3))
    print(c_array("BN254_GLV_G2", g2, 3))
    print(c_array("BN254_GLV_LAMBDA", lam, 4))


if __name__ == "__main__":
    main()
