// Generates the BN254 (circom's "bn128") known-answer vectors in tests/vectors/
// bn254_*.txt from @noble/curves, with the same cross-checks as
// gen_vectors.mjs: every record is recomputed by plain BigInt arithmetic in
// this file (affine curve formulas, schoolbook Fp12) before it is written.
//
// Usage: cd tools/vectors && npm ci && node gen_vectors_bn254.mjs

import { bn254 } from '@noble/curves/bn254.js';
import {
  VecFile,
  primeFieldFile,
  check,
  hx,
  hr,
  mod,
  makeCurve,
  refTower,
  f12Fields,
  f12ToW,
  MAX256,
} from './gen_vectors.mjs';

const CURVE = ['BN254', 'gen_vectors_bn254.mjs'];
const { Fp, Fp2, Fp12, Fr } = bn254.fields;
const G1 = bn254.G1.Point;
const G2 = bn254.G2.Point;

const P = 0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47n;
const R = 0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001n;
if (Fp.ORDER !== P || Fr.ORDER !== R) throw new Error('noble field orders differ from the spec');
const h = (n) => hx(n, 32);

const XI = [9n, 1n]; // ξ = 9 + u: Fp6 = Fp2[v]/(v^3 - ξ), Fp12 = Fp6[w]/(w^2 - v)
const { X1, X2, x12mul, x12pow, x12eq } = refTower(P, XI);
// The D-type twist E': y^2 = x^3 + 3/ξ.
const B2 = X2.mul([3n, 0n], X2.inv(XI));
const C1 = makeCurve(X1, 3n);
const C2 = makeCurve(X2, B2);

// Points: affine, big-endian, uncompressed, as snarkjs orders coordinates:
// G1 x || y (64 bytes), G2 x.c0 || x.c1 || y.c0 || y.c1 (128 bytes); the
// point at infinity is all zeros (no valid point has x = y = 0).
const enc1 = (pt) => (pt === null ? h(0n) + h(0n) : h(pt.x) + h(pt.y));
const enc2 = (pt) =>
  pt === null ? h(0n).repeat(4) : h(pt.x[0]) + h(pt.x[1]) + h(pt.y[0]) + h(pt.y[1]);
const fromN1 = (pt) => (pt.is0() ? null : pt.toAffine());
function fromN2(pt) {
  if (pt.is0()) return null;
  const { x, y } = pt.toAffine();
  return { x: [x.c0, x.c1], y: [y.c0, y.c1] };
}

// The same records as gen_vectors.mjs's fp2.txt.
function fp2File(index) {
  const f = new VecFile(
    'bn254_fp2.txt',
    index,
    [
      'Fp2 = Fp[u]/(u^2 + 1); an element is two fields c0 c1 meaning c0 + c1*u',
      'add a0 a1 b0 b1 r0 r1 | sub ... | mul ... | sqr a0 a1 r0 r1 | neg a0 a1 r0 r1 | inv a0 a1 r0 r1',
      'sqrt a0 a1 r0 r1 (r^2 = a, either root) | nosqrt a0 a1 | frob a0 a1 r0 r1 (r = a^p)',
    ],
    ...CURVE
  );
  const rand = () => [f.rng.below(P), f.rng.below(P)];
  const e2 = (a) => [h(a[0]), h(a[1])];
  const n2 = (a) => Fp2.fromBigTuple(a);
  const b2 = (a) => [a.c0, a.c1];
  const edges = [X2.zero, X2.one, [0n, 1n], [P - 1n, 0n], [0n, P - 1n], [P - 1n, P - 1n], XI];
  const sample = (i) => (i < edges.length ? edges[i] : rand());
  const N = 32;
  for (const [op, nf, ref] of [
    ['add', Fp2.add, X2.add],
    ['sub', Fp2.sub, X2.sub],
    ['mul', Fp2.mul, X2.mul],
  ]) {
    f.section(op);
    for (let i = 0; i < N; i++) {
      const a = sample(i);
      const b = sample((i * 5 + 3) % (N + 1));
      const r = b2(nf.call(Fp2, n2(a), n2(b)));
      check(X2.eq(r, ref(a, b)), 'fp2 ' + op);
      f.rec(op, ...e2(a), ...e2(b), ...e2(r));
    }
  }
  for (const [op, nf, ref, from] of [
    ['sqr', Fp2.sqr, (a) => X2.mul(a, a), 0],
    ['neg', Fp2.neg, X2.neg, 0],
    ['inv', Fp2.inv, X2.inv, 1],
    ['frob', (a) => Fp2.frobeniusMap(a, 1), (a) => [a[0], mod(-a[1], P)], 0],
  ]) {
    f.section(op);
    for (let i = from; i < N + from; i++) {
      const a = sample(i);
      const r = b2(nf.call(Fp2, n2(a)));
      check(X2.eq(r, ref(a)), 'fp2 ' + op);
      if (op === 'inv') check(X2.eq(X2.mul(a, r), X2.one), 'fp2 inv');
      f.rec(op, ...e2(a), ...e2(r));
    }
  }
  f.section('sqrt (a is a square; r is either root)');
  for (let i = 0; i < N; i++) {
    const x = sample(i);
    const a = X2.mul(x, x);
    const r = b2(Fp2.sqrt(n2(a)));
    check(X2.eq(X2.mul(r, r), a), 'fp2 sqrt');
    f.rec('sqrt', ...e2(a), ...e2(r));
  }
  f.section('nosqrt (a is not a square)');
  while ((f.counts.get('nosqrt') || 0) < N) {
    const a = rand();
    if (X2.isSquare(a)) continue;
    let threw = false;
    try {
      Fp2.sqrt(n2(a));
    } catch {
      threw = true;
    }
    check(threw, 'noble sqrt rejects a non-square');
    f.rec('nosqrt', ...e2(a));
  }
  return f;
}

// The same records as gen_vectors.mjs's fp12.txt.
function fp12File(index) {
  const f = new VecFile(
    'bn254_fp12.txt',
    index,
    [
      'tower: Fp2 = Fp[u]/(u^2+1), Fp6 = Fp2[v]/(v^3-(9+u)), Fp12 = Fp6[w]/(w^2-v)',
      'an element is 12 fields: c0.c0.c0 c0.c0.c1 c0.c1.c0 c0.c1.c1 c0.c2.c0 c0.c2.c1 c1.c0.c0 ... c1.c2.c1',
      'mul a b r | sqr a r | inv a r (a != 0) | frob1 a r (a^p) | frob2 a r (a^(p^2)) | frob3 a r (a^(p^3))',
      'cyclo_sqr g r (g in the cyclotomic subgroup: final exponentiations; r = g^2)',
    ],
    ...CURVE
  );
  const rng = f.rng;
  const rand = () => Fp12.fromBigTwelve(Array.from({ length: 12 }, () => rng.below(P)));
  const hx12 = (x) => f12Fields(x).map(h);
  const ONE_W = [X2.one, X2.zero, X2.zero, X2.zero, X2.zero, X2.zero];
  const N = 16;
  f.section('mul');
  for (let i = 0; i < N; i++) {
    const a = i === 0 ? Fp12.ONE : rand();
    const b = rand();
    const r = Fp12.mul(a, b);
    check(x12eq(f12ToW(r), x12mul(f12ToW(a), f12ToW(b))), 'fp12 mul');
    f.rec('mul', ...hx12(a), ...hx12(b), ...hx12(r));
  }
  for (const [op, nf, ref] of [
    ['sqr', (a) => Fp12.sqr(a), (w) => x12mul(w, w)],
    ['inv', (a) => Fp12.inv(a), null],
    ['frob1', (a) => Fp12.frobeniusMap(a, 1), (w) => x12pow(w, P)],
    ['frob2', (a) => Fp12.frobeniusMap(a, 2), (w) => x12pow(w, P ** 2n)],
    ['frob3', (a) => Fp12.frobeniusMap(a, 3), (w) => x12pow(w, P ** 3n)],
  ]) {
    f.section(op);
    for (let i = 0; i < N; i++) {
      const a = rand();
      const r = nf(a);
      if (ref) check(x12eq(f12ToW(r), ref(f12ToW(a))), 'fp12 ' + op);
      else check(x12eq(x12mul(f12ToW(a), f12ToW(r)), ONE_W), 'fp12 inv');
      f.rec(op, ...hx12(a), ...hx12(r));
    }
  }
  f.section('cyclo_sqr (g in the cyclotomic subgroup, r = g^2)');
  for (let i = 0; i < N; i++) {
    const g = i === 0 ? Fp12.ONE : Fp12.finalExponentiate(rand());
    check(x12eq(x12pow(f12ToW(g), R), ONE_W), 'g^r = 1');
    const r = Fp12.sqr(g);
    check(x12eq(f12ToW(r), x12mul(f12ToW(g), f12ToW(g))), 'cyclo_sqr');
    f.rec('cyclo_sqr', ...hx12(g), ...hx12(r));
  }
  return f;
}

function groupFile(index, which) {
  const isG1 = which === 'G1';
  const Pt = isG1 ? G1 : G2;
  const curve = isG1 ? C1 : C2;
  const fromN = isG1 ? fromN1 : fromN2;
  const enc = isG1 ? enc1 : enc2;
  const f = new VecFile(
    isG1 ? 'bn254_g1.txt' : 'bn254_g2.txt',
    index,
    [
      isG1
        ? 'G1 points: x || y, 32-byte big-endian each; infinity is all zeros'
        : 'G2 points: x.c0 || x.c1 || y.c0 || y.c1, 32-byte big-endian each; infinity is all zeros',
      'add P Q R | dbl P R | mul P k R (k: 32 bytes, any value, R = k*P)',
      'bad KIND U: U must be rejected; KIND is noncanonical, not_on_curve or not_in_subgroup',
    ],
    ...CURVE
  );
  const rng = f.rng;
  const randPt = () => Pt.BASE.multiplyUnsafe(1n + rng.below(R - 1n));
  const U = (pt) => enc(fromN(pt));
  const Z = Pt.ZERO;
  const G = Pt.BASE;

  f.section('add (includes P = Q, P = -Q, and infinity on either side)');
  const adds = [[G, G], [G, G.negate()], [Z, G], [G, Z], [Z, Z], [G, G.double()]];
  while (adds.length < 32) adds.push([randPt(), randPt()]);
  for (const [a, b] of adds) {
    const r = a.add(b);
    check(curve.eq(fromN(r), curve.add(fromN(a), fromN(b))), 'add');
    f.rec('add', U(a), U(b), U(r));
  }
  f.section('dbl');
  const dbls = [Z, G];
  while (dbls.length < 16) dbls.push(randPt());
  for (const a of dbls) {
    const r = a.double();
    check(curve.eq(fromN(r), curve.add(fromN(a), fromN(a))), 'dbl');
    f.rec('dbl', U(a), U(r));
  }
  f.section('mul (k is any 256-bit value; R = k*P)');
  const ks = [0n, 1n, 2n, R - 1n, R, R + 1n, MAX256, 1n << 255n];
  const muls = ks.map((k) => [G, k]);
  muls.push([Z, rng.bits(256)]);
  while (muls.length < 32) muls.push([randPt(), rng.bits(256)]);
  for (const [a, k] of muls) {
    const r = a.multiplyUnsafe(k % R);
    check(curve.eq(fromN(r), curve.mul(fromN(a), k)), 'mul');
    f.rec('mul', U(a), hr(k), U(r));
  }

  f.section('bad');
  const F = curve.F;
  const rhs = (x) => F.add(F.mul(F.mul(x, x), x), curve.b);
  // not on the curve: a valid point with y + 1.
  for (let i = 0; i < 8; i++) {
    const a = fromN(randPt());
    const y = F.add(a.y, F.one);
    check(!curve.onCurve({ x: a.x, y }), 'off the curve');
    f.rec('bad', 'not_on_curve', enc({ x: a.x, y }));
  }
  // non-canonical: a coordinate plus p (still below 2^256).
  for (let i = 0; i < 4; i++) {
    const a = fromN(randPt());
    let e = enc(a);
    const xs = BigInt('0x' + e.slice(0, 64)) + P;
    if (xs < 1n << 256n) {
      e = h(xs) + e.slice(64);
      f.rec('bad', 'noncanonical', e);
    }
  }
  if (!isG1) {
    // On the twist but outside the order-r subgroup (the cofactor is 2p - r).
    let n = 0;
    while (n < 8) {
      const x = [rng.below(P), rng.below(P)];
      const y2 = Fp2.fromBigTuple(rhs(x));
      let y;
      try {
        y = Fp2.sqrt(y2);
      } catch {
        continue;
      }
      const pt = { x, y: [y.c0, y.c1] };
      check(curve.onCurve(pt), 'twist point on the curve');
      if (curve.mul(pt, R) === null) continue;
      f.rec('bad', 'not_in_subgroup', enc(pt));
      n++;
    }
  }
  return f;
}

function pairingFile(index) {
  const f = new VecFile(
    'bn254_pairing.txt',
    index,
    [
      "pair P Q E: E = e(P, Q) as noble's bn254.pairing computes it (and snarkjs): the optimal ate",
      '  pairing to the final exponent k(p^12 - 1)/r, k = 2x(6x^2+3x+1)',
      'pair_exact P Q E: the same pairing to the textbook exponent (p^12 - 1)/r (noble\'s Miller loop',
      '  raised to it; its k-th power is checked to be the pair value); E in both:',
      '  12 Fp fields in the order c0.c0.c0 c0.c0.c1 c0.c1.c0 ... c1.c2.c1 (Fp12 = Fp6[w]/(w^2 - v),',
      '  Fp6 = Fp2[v]/(v^3 - (9 + u))); P, Q as in bn254_g1.txt and bn254_g2.txt',
      'bilin a b: e([a]G1, [b]G2) = e(G1, G2)^(ab), checked by the reader on its own pairing',
    ],
    ...CURVE
  );
  const rng = f.rng;
  const X = 4965661367192848881n;
  const K = mod(2n * X * (6n * X * X + 3n * X + 1n), R);
  const FULL = (P ** 12n - 1n) / R;
  // The exact pairing: noble's Miller loop to the full final exponent.
  const exact = (a, b) => {
    const e = Fp12.pow(bn254.pairing(a, b, false), FULL);
    check(Fp12.eql(Fp12.pow(e, K), bn254.pairing(a, b)), "noble's pairing is the exact one to the K");
    return e;
  };
  const g = exact(G1.BASE, G2.BASE);
  const gk = bn254.pairing(G1.BASE, G2.BASE);
  f.section('pair');
  const pairs = [
    [G1.BASE, G2.BASE],
    [G1.BASE.negate(), G2.BASE],
  ];
  while (pairs.length < 10) {
    pairs.push([G1.BASE.multiplyUnsafe(1n + rng.below(R - 1n)), G2.BASE.multiplyUnsafe(1n + rng.below(R - 1n))]);
  }
  for (const [a, b] of pairs) {
    const e = bn254.pairing(a, b);
    // e is in GT: e^r = 1 by the reference Fp12.
    check(x12eq(x12pow(f12ToW(e), R), x12pow(f12ToW(g), 0n)), 'e^r = 1');
    f.rec('pair', enc1(fromN1(a)), enc2(fromN2(b)), ...f12Fields(e).map(h));
  }
  f.section('pair_exact');
  for (const [a, b] of pairs.slice(0, 5)) {
    const e = exact(a, b);
    f.rec('pair_exact', enc1(fromN1(a)), enc2(fromN2(b)), ...f12Fields(e).map(h));
  }
  // Bilinearity, with noble's answer cross-checked by the reference Fp12.
  f.section('bilin');
  for (let i = 0; i < 4; i++) {
    const a = 1n + rng.below(R - 1n);
    const b = 1n + rng.below(R - 1n);
    const e = bn254.pairing(G1.BASE.multiplyUnsafe(a), G2.BASE.multiplyUnsafe(b));
    check(x12eq(f12ToW(e), x12pow(f12ToW(gk), mod(a * b, R))), 'bilinearity');
    f.rec('bilin', hr(a), hr(b));
  }
  check(!Fp12.eql(g, Fp12.ONE) && !Fp12.eql(gk, Fp12.ONE), 'e(G1, G2) != 1');
  return f;
}

// Multi-scalar multiplications R = sum k_i*P_i, checked term by term with
// the affine double-and-add of this file. Sizes around the C MSM's paths
// (one point, the window edges, the affine buckets of G2 from 128 points),
// with zero, one and r - 1 scalars, repeated and opposite points and
// infinity among the random ones.
function msmFile(index) {
  const f = new VecFile(
    'bn254_msm.txt',
    index,
    [
      'g1 P_1 k_1 ... P_n k_n R | g2 P_1 k_1 ... P_n k_n R: R = sum k_i*P_i',
      'points as in bn254_g1.txt / bn254_g2.txt; k_i: 32 bytes, canonical (< r)',
    ],
    ...CURVE
  );
  const rng = f.rng;
  const groups = [
    ['g1', G1, C1, fromN1, enc1, [1, 2, 3, 7, 16, 33, 64, 150]],
    ['g2', G2, C2, fromN2, enc2, [1, 2, 5, 16, 40, 130]],
  ];
  for (const [op, Pt, curve, fromN, enc, sizes] of groups) {
    f.section(`${op}: sizes ${sizes.join(', ')}`);
    for (const n of sizes) {
      const pts = [];
      const ks = [];
      for (let i = 0; i < n; i++) {
        const roll = rng.below(16n);
        let pt = Pt.BASE.multiplyUnsafe(1n + rng.below(R - 1n));
        if (roll === 0n) pt = Pt.ZERO;
        else if (roll === 1n && i > 0) pt = pts[Number(rng.below(BigInt(i)))];
        else if (roll === 2n && i > 0) pt = pts[Number(rng.below(BigInt(i)))].negate();
        let k = rng.below(R);
        const kroll = rng.below(16n);
        if (kroll === 0n) k = 0n;
        else if (kroll === 1n) k = 1n;
        else if (kroll === 2n) k = R - 1n;
        pts.push(pt);
        ks.push(k);
      }
      let sum = Pt.ZERO;
      let ref = null;
      const fields = [];
      for (let i = 0; i < n; i++) {
        sum = sum.add(pts[i].multiplyUnsafe(ks[i]));
        ref = curve.add(ref, curve.mul(fromN(pts[i]), ks[i]));
        fields.push(enc(fromN(pts[i])), h(ks[i]));
      }
      check(curve.eq(fromN(sum), ref), 'msm');
      f.rec(op, ...fields, enc(fromN(sum)));
    }
  }
  return f;
}

const t0 = Date.now();
const files = [
  primeFieldFile('bn254_fp.txt', 20, Fp, P, 32, ...CURVE),
  primeFieldFile('bn254_fr.txt', 21, Fr, R, 32, ...CURVE),
  fp2File(22),
  fp12File(26),
  groupFile(23, 'G1'),
  groupFile(24, 'G2'),
  pairingFile(25),
  msmFile(27),
];
for (const f of files) f.write();
console.log(`done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
