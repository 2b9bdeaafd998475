// Generates the BLS12-381 known-answer vectors in tests/vectors/ from
// @noble/curves, an independent reference implementation.
//
// Every value comes from a seeded PRNG, so rerunning this script produces
// byte-identical files. Every record is cross-checked before it is written:
// noble's answer is compared against a second, deliberately naive
// implementation in this file (schoolbook Fp12, affine curve formulas, a strict
// ZCash decoder), so a record only lands when both agree.
//
// Usage: cd tools/vectors && npm ci && node gen_vectors.mjs

import { bls12_381 } from '@noble/curves/bls12-381.js';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const OUT_DIR = join(HERE, '..', '..', 'tests', 'vectors');
const NOBLE_VERSION = JSON.parse(
  readFileSync(join(HERE, 'node_modules', '@noble', 'curves', 'package.json'), 'utf8')
).version;
if (NOBLE_VERSION !== '2.4.0') {
  throw new Error(`expected @noble/curves 2.4.0, found ${NOBLE_VERSION}; run npm ci`);
}

const { Fp, Fp2, Fp12, Fr } = bls12_381.fields;
const G1 = bls12_381.G1.Point;
const G2 = bls12_381.G2.Point;

const P = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaabn;
const R = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001n;
const MAX256 = (1n << 256n) - 1n;
if (Fp.ORDER !== P || Fr.ORDER !== R) throw new Error('noble field orders differ from the spec');

// ---------------------------------------------------------------------------
// Small helpers

function check(cond, what) {
  if (!cond) throw new Error('cross-check failed: ' + what);
}

// Fixed-width lowercase big-endian hex.
function hx(n, bytes) {
  if (n < 0n || n >= 1n << BigInt(8 * bytes)) throw new Error(`value does not fit ${bytes} bytes`);
  return n.toString(16).padStart(2 * bytes, '0');
}
const hp = (n) => hx(n, 48);
const hr = (n) => hx(n, 32);
const bytesToHex = (b) => Buffer.from(b).toString('hex');
const hexToBytes = (h) => Uint8Array.from(Buffer.from(h, 'hex'));
const bytesToBig = (b) => (b.length ? BigInt('0x' + bytesToHex(b)) : 0n);
const bigToBytes = (n, len) => hexToBytes(hx(n, len));

function mod(a, m) {
  const r = a % m;
  return r < 0n ? r + m : r;
}
function modpow(b, e, m) {
  let r = 1n;
  b = mod(b, m);
  while (e > 0n) {
    if (e & 1n) r = (r * b) % m;
    b = (b * b) % m;
    e >>= 1n;
  }
  return r;
}
// Extended Euclid: independent of noble's Fermat-based inversion.
function modinv(a, m) {
  let [r0, r1] = [mod(a, m), m];
  let [s0, s1] = [1n, 0n];
  while (r1 !== 0n) {
    const q = r0 / r1;
    [r0, r1] = [r1, r0 - q * r1];
    [s0, s1] = [s1, s0 - q * s1];
  }
  if (r0 !== 1n) throw new Error('not invertible');
  return mod(s0, m);
}
const legendre = (a, m) => modpow(a, (m - 1n) / 2n, m);

// ---------------------------------------------------------------------------
// Deterministic PRNG: splitmix64, one stream per output file.

class SplitMix64 {
  constructor(seed) {
    this.state = seed & 0xffffffffffffffffn;
  }
  next64() {
    const M = 0xffffffffffffffffn;
    this.state = (this.state + 0x9e3779b97f4a7c15n) & M;
    let z = this.state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & M;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & M;
    return z ^ (z >> 31n);
  }
  bits(n) {
    let v = 0n;
    for (let have = 0; have < n; have += 64) v = (v << 64n) | this.next64();
    return v & ((1n << BigInt(n)) - 1n);
  }
  // Uniform in [0, m) by rejection.
  below(m) {
    const n = m.toString(2).length;
    for (;;) {
      const v = this.bits(n);
      if (v < m) return v;
    }
  }
  int(n) {
    return Number(this.below(BigInt(n)));
  }
}

// ---------------------------------------------------------------------------
// Independent reference arithmetic (plain BigInt, no noble).

// The reference fields of a curve with p = 3 mod 4 and the tower
// Fp2 = Fp[u]/(u^2+1), Fp12 = Fp2[w]/(w^6 - xi) (shared with
// gen_vectors_bn254.mjs): X1 and X2 as objects of one shape for the generic
// curve code, and Fp12 as a polynomial of degree < 6 in w over Fp2. Since
// w^2 = v and v^3 = xi, the noble tower coefficient c{k}.c{j} is the
// coefficient of v^j w^k = w^(2j+k). Multiplying this way checks the tower
// layout as well as the arithmetic.
export function refTower(P, XI) {
  const X2 = {
    zero: [0n, 0n],
    one: [1n, 0n],
    add: (a, b) => [mod(a[0] + b[0], P), mod(a[1] + b[1], P)],
    sub: (a, b) => [mod(a[0] - b[0], P), mod(a[1] - b[1], P)],
    neg: (a) => [mod(-a[0], P), mod(-a[1], P)],
    mul: (a, b) => [mod(a[0] * b[0] - a[1] * b[1], P), mod(a[0] * b[1] + a[1] * b[0], P)],
    inv: (a) => {
      const t = modinv(a[0] * a[0] + a[1] * a[1], P);
      return [mod(a[0] * t, P), mod(-a[1] * t, P)];
    },
    eq: (a, b) => a[0] === b[0] && a[1] === b[1],
    isZero: (a) => a[0] === 0n && a[1] === 0n,
    // a is a square in Fp2 iff its norm is a square in Fp.
    isSquare: (a) => {
      const n = mod(a[0] * a[0] + a[1] * a[1], P);
      return n === 0n || legendre(n, P) === 1n;
    },
  };
  const X1 = {
    zero: 0n,
    one: 1n,
    add: (a, b) => mod(a + b, P),
    sub: (a, b) => mod(a - b, P),
    neg: (a) => mod(-a, P),
    mul: (a, b) => mod(a * b, P),
    inv: (a) => modinv(a, P),
    eq: (a, b) => a === b,
    isZero: (a) => a === 0n,
    isSquare: (a) => a === 0n || legendre(a, P) === 1n,
  };
  function x2pow(a, e) {
    let r = X2.one;
    while (e > 0n) {
      if (e & 1n) r = X2.mul(r, a);
      a = X2.mul(a, a);
      e >>= 1n;
    }
    return r;
  }
  function x12mul(a, b) {
    const t = Array.from({ length: 11 }, () => X2.zero);
    for (let i = 0; i < 6; i++)
      for (let j = 0; j < 6; j++) t[i + j] = X2.add(t[i + j], X2.mul(a[i], b[j]));
    for (let k = 10; k >= 6; k--) t[k - 6] = X2.add(t[k - 6], X2.mul(t[k], XI));
    return t.slice(0, 6);
  }
  const X12_ONE = [X2.one, X2.zero, X2.zero, X2.zero, X2.zero, X2.zero];
  function x12pow(a, e) {
    let r = X12_ONE;
    const bits = e.toString(2);
    for (const bit of bits) {
      r = x12mul(r, r);
      if (bit === '1') r = x12mul(r, a);
    }
    return r;
  }
  const x12eq = (a, b) => a.every((c, i) => X2.eq(c, b[i]));
  return { X1, X2, x2pow, x12mul, x12pow, x12eq, X12_ONE };
}
const XI = [1n, 1n]; // u + 1
const { X1, X2, x2pow, x12mul, x12pow, x12eq, X12_ONE } = refTower(P, XI);

// Noble Fp12 <-> the 12-field record order <-> the w-polynomial form.
export function f12Fields(x) {
  const out = [];
  for (const c of [x.c0, x.c1]) for (const d of [c.c0, c.c1, c.c2]) out.push(d.c0, d.c1);
  return out;
}
function f12FromFields(v) {
  return Fp12.fromBigTwelve(v);
}
export function f12ToW(x) {
  const v = f12Fields(x);
  const w = [];
  for (let i = 0; i < 6; i++) {
    const k = i % 2;
    const j = (i - k) / 2;
    const idx = 6 * k + 2 * j;
    w.push([v[idx], v[idx + 1]]);
  }
  return w;
}
const f12hex = (x) => f12Fields(x).map(hp);

// Affine short-Weierstrass arithmetic on y^2 = x^3 + b (a = 0), null = infinity.
function makeCurve(F, b) {
  const onCurve = (pt) =>
    pt === null || F.eq(F.mul(pt.y, pt.y), F.add(F.mul(F.mul(pt.x, pt.x), pt.x), b));
  const neg = (pt) => (pt === null ? null : { x: pt.x, y: F.neg(pt.y) });
  const eq = (p1, p2) =>
    p1 === null || p2 === null ? p1 === p2 : F.eq(p1.x, p2.x) && F.eq(p1.y, p2.y);
  function add(p1, p2) {
    if (p1 === null) return p2;
    if (p2 === null) return p1;
    let lam;
    if (F.eq(p1.x, p2.x)) {
      if (!F.eq(p1.y, p2.y) || F.isZero(p1.y)) return null;
      const xx = F.mul(p1.x, p1.x);
      lam = F.mul(F.add(F.add(xx, xx), xx), F.inv(F.add(p1.y, p1.y)));
    } else {
      lam = F.mul(F.sub(p2.y, p1.y), F.inv(F.sub(p2.x, p1.x)));
    }
    const x3 = F.sub(F.sub(F.mul(lam, lam), p1.x), p2.x);
    const y3 = F.sub(F.mul(lam, F.sub(p1.x, x3)), p1.y);
    return { x: x3, y: y3 };
  }
  function mul(pt, k) {
    let acc = null;
    for (const bit of k.toString(2)) {
      acc = add(acc, acc);
      if (bit === '1') acc = add(acc, pt);
    }
    return acc;
  }
  return { F, b, onCurve, neg, eq, add, mul };
}
const C1 = makeCurve(X1, 4n);
const C2 = makeCurve(X2, [4n, 4n]);

// ZCash serialization, written from the spec rather than from noble.
// G1 coordinates are one Fp; G2 coordinates are Fp2 written c1 || c0.
const G1SPEC = {
  name: 'G1',
  curve: C1,
  clen: 48,
  coordToBytes: (x) => bigToBytes(x, 48),
  coordFromBytes: (b) => bytesToBig(b),
  coordCanonical: (x) => x < P,
  // "Largest" is y > (p-1)/2 for Fp.
  largest: (y) => y > (P - 1n) / 2n,
};
const G2SPEC = {
  name: 'G2',
  curve: C2,
  clen: 96,
  coordToBytes: (x) => bigToBytes((x[1] << 384n) | x[0], 96),
  coordFromBytes: (b) => [bytesToBig(b.subarray(48)), bytesToBig(b.subarray(0, 48))],
  coordCanonical: (x) => x[0] < P && x[1] < P,
  // Lexicographic: compare c1 first, fall back to c0 when c1 is zero.
  largest: (y) => (y[1] !== 0n ? y[1] > (P - 1n) / 2n : y[0] > (P - 1n) / 2n),
};

function zencode(spec, pt, compressed) {
  const len = compressed ? spec.clen : 2 * spec.clen;
  const out = new Uint8Array(len);
  if (pt === null) {
    out[0] = compressed ? 0xc0 : 0x40;
    return out;
  }
  out.set(spec.coordToBytes(pt.x), 0);
  if (compressed) {
    out[0] |= 0x80;
    if (spec.largest(pt.y)) out[0] |= 0x20;
  } else {
    out.set(spec.coordToBytes(pt.y), spec.clen);
  }
  return out;
}

// Strict decoder. Returns { ok: true, pt } or { ok: false, kind } where kind
// names the first rule broken, using the bad_*.txt KIND names.
function zdecode(spec, bytes) {
  const { clen, curve } = spec;
  const F = curve.F;
  if (bytes.length !== clen && bytes.length !== 2 * clen) return { ok: false, kind: 'length' };
  const c = (bytes[0] & 0x80) !== 0;
  const inf = (bytes[0] & 0x40) !== 0;
  const s = (bytes[0] & 0x20) !== 0;
  if (c !== (bytes.length === clen)) return { ok: false, kind: 'flags' };
  if (s && (!c || inf)) return { ok: false, kind: 'flags' };
  const body = Uint8Array.from(bytes);
  body[0] &= 0x1f;
  if (inf) {
    if (body.some((v) => v !== 0)) return { ok: false, kind: 'infinity_noncanonical' };
    return { ok: true, pt: null };
  }
  const x = spec.coordFromBytes(body.subarray(0, clen));
  if (!spec.coordCanonical(x)) return { ok: false, kind: 'noncanonical' };
  let y;
  const rhs = F.add(F.mul(F.mul(x, x), x), curve.b);
  if (c) {
    if (!F.isSquare(rhs)) return { ok: false, kind: 'not_on_curve' };
    y = sqrtOf(F, rhs);
    if (spec.largest(y) !== s) y = F.neg(y);
  } else {
    y = spec.coordFromBytes(body.subarray(clen));
    if (!spec.coordCanonical(y)) return { ok: false, kind: 'noncanonical' };
    if (!F.eq(F.mul(y, y), rhs)) return { ok: false, kind: 'not_on_curve' };
  }
  const pt = { x, y };
  if (curve.mul(pt, R) !== null) return { ok: false, kind: 'not_in_subgroup' };
  return { ok: true, pt };
}

// Square roots: the candidate comes from noble and is verified by squaring.
function sqrtOf(F, a) {
  const r = F === X1 ? Fp.sqrt(a) : fromN2(Fp2.sqrt(toN2(a)));
  check(F.eq(F.mul(r, r), a), 'sqrt candidate squares back');
  return r;
}

const toN2 = (a) => Fp2.fromBigTuple([a[0], a[1]]);
const fromN2 = (a) => [a.c0, a.c1];

// Noble point <-> reference affine point.
function fromNoble1(pt) {
  if (pt.is0()) return null;
  const { x, y } = pt.toAffine();
  return { x, y };
}
function fromNoble2(pt) {
  if (pt.is0()) return null;
  const { x, y } = pt.toAffine();
  return { x: fromN2(x), y: fromN2(y) };
}

// ---------------------------------------------------------------------------
// Output

const SEED_BASE = 0x63757a6b5f766563n; // "cuzk_vec"

// curve and script name the file's first two header lines (gen_vectors_bn254.mjs
// passes its own).
export class VecFile {
  constructor(name, index, opsDoc, curve = 'BLS12-381', script = 'gen_vectors.mjs') {
    this.name = name;
    this.seed = SEED_BASE + BigInt(index);
    this.rng = new SplitMix64(this.seed);
    this.lines = [
      `# cuzk ${curve} known-answer vectors: ${name}`,
      `# generated by tools/vectors/${script} from @noble/curves ${NOBLE_VERSION}`,
      `# prng: splitmix64, seed 0x${this.seed.toString(16)}`,
      '# format: one record per line, "op field...", lowercase big-endian hex; see tools/vectors/README.md',
      ...opsDoc.map((l) => '# ' + l),
    ];
    this.counts = new Map();
  }
  section(title) {
    this.lines.push('', '# ' + title);
  }
  rec(op, ...fields) {
    fields.forEach((f, i) => {
      // The only non-hex field is the KIND word of a bad record.
      const re = op === 'bad' && i === 0 ? /^[a-z_]+$/ : /^[0-9a-f]+$/;
      if (typeof f !== 'string' || !re.test(f)) throw new Error(`bad field in ${op}`);
    });
    this.lines.push([op, ...fields].join(' '));
    this.counts.set(op, (this.counts.get(op) || 0) + 1);
  }
  write() {
    mkdirSync(OUT_DIR, { recursive: true });
    writeFileSync(join(OUT_DIR, this.name), this.lines.join('\n') + '\n');
    const summary = [...this.counts].map(([k, v]) => `${k}=${v}`).join(' ');
    console.log(`${this.name}: ${summary}`);
  }
}

// ---------------------------------------------------------------------------
// Prime fields

// F is a noble field of modulus m; the record fields are width bytes. opts
// passes VecFile's curve and script names through.
export function primeFieldFile(name, index, F, m, width, ...opts) {
  const h = (n) => hx(n, width);
  const f = new VecFile(
    name,
    index,
    [
      `field modulus 0x${m.toString(16)}`,
      'add a b r | sub a b r | mul a b r | sqr a r | neg a r | inv a r (a != 0)',
      'sqrt a r (r^2 = a, either root) | nosqrt a (a not a square) | pow a e r (e: 32 bytes)',
    ],
    ...opts
  );
  const rng = f.rng;
  const edges = [0n, 1n, 2n, 3n, m - 1n, m - 2n, (m - 1n) / 2n, (m + 1n) / 2n];
  const rand = () => rng.below(m);
  const sample = (i) => (i < edges.length ? edges[i] : rand());
  const N = 48;

  f.section('add');
  for (const a of edges) for (const b of [0n, 1n, m - 1n]) emitAdd(a, b);
  for (let i = 0; i < 24; i++) emitAdd(rand(), rand());
  function emitAdd(a, b) {
    const r = F.add(a, b);
    check(r === mod(a + b, m), 'add');
    f.rec('add', h(a), h(b), h(r));
  }

  f.section('sub');
  for (const a of edges) for (const b of [0n, 1n, m - 1n]) emitSub(a, b);
  for (let i = 0; i < 24; i++) emitSub(rand(), rand());
  function emitSub(a, b) {
    const r = F.sub(a, b);
    check(r === mod(a - b, m), 'sub');
    f.rec('sub', h(a), h(b), h(r));
  }

  f.section('mul');
  for (const a of edges) for (const b of [0n, 1n, 2n, m - 1n]) emitMul(a, b);
  for (let i = 0; i < 24; i++) emitMul(rand(), rand());
  function emitMul(a, b) {
    const r = F.mul(a, b);
    check(r === mod(a * b, m), 'mul');
    f.rec('mul', h(a), h(b), h(r));
  }

  f.section('sqr');
  for (let i = 0; i < N; i++) {
    const a = sample(i);
    const r = F.sqr(a);
    check(r === mod(a * a, m), 'sqr');
    f.rec('sqr', h(a), h(r));
  }

  f.section('neg');
  for (let i = 0; i < N; i++) {
    const a = sample(i);
    const r = F.neg(a);
    check(r === mod(-a, m), 'neg');
    f.rec('neg', h(a), h(r));
  }

  f.section('inv (a != 0)');
  for (let i = 1; i < N + 1; i++) {
    const a = sample(i);
    const r = F.inv(a);
    check(r === modinv(a, m) && mod(a * r, m) === 1n, 'inv');
    f.rec('inv', h(a), h(r));
  }

  // Squares: the edges that are squares, then squares of random values.
  f.section('sqrt (a is a square; r is either root)');
  const emitSqrt = (a) => {
    check(a === 0n || legendre(a, m) === 1n, 'sqrt input is a square');
    const r = F.sqrt(a);
    check(mod(r * r, m) === a, 'sqrt');
    f.rec('sqrt', h(a), h(r));
  };
  for (const a of edges) if (a === 0n || legendre(a, m) === 1n) emitSqrt(a);
  for (const a of [4n, 9n, mod(-4n, m)]) if (legendre(a, m) === 1n) emitSqrt(a);
  while ((f.counts.get('sqrt') || 0) < N) {
    const x = rand();
    emitSqrt(mod(x * x, m));
  }

  f.section('nosqrt (a is not a square)');
  const emitNoSqrt = (a) => {
    check(legendre(a, m) === m - 1n, 'nosqrt input is a non-square');
    let threw = false;
    try {
      F.sqrt(a);
    } catch {
      threw = true;
    }
    check(threw, 'noble sqrt rejects a non-square');
    f.rec('nosqrt', h(a));
  };
  for (let a = 2n; a < 40n; a++) if (legendre(a, m) === m - 1n) emitNoSqrt(a);
  for (const a of edges) if (a !== 0n && legendre(a, m) === m - 1n) emitNoSqrt(a);
  while ((f.counts.get('nosqrt') || 0) < N) {
    const a = rand();
    if (a !== 0n && legendre(a, m) === m - 1n) emitNoSqrt(a);
  }

  f.section('pow (e is 32 bytes)');
  const expEdges = [0n, 1n, 2n, 3n, m - 1n, m - 2n, m, MAX256, (m - 1n) / 2n];
  const emitPow = (a, e) => {
    const r = F.pow(a, e);
    check(r === modpow(a, e, m), 'pow');
    f.rec('pow', h(a), hr(e), h(r));
  };
  for (const e of expEdges) if (e <= MAX256) emitPow(rand(), e);
  for (const a of [0n, 1n, m - 1n, 2n]) for (const e of [0n, 1n, rng.bits(256)]) emitPow(a, e);
  while ((f.counts.get('pow') || 0) < N) emitPow(rand(), rng.bits(256));
  return f;
}

// ---------------------------------------------------------------------------
// Fp2

function fp2File(index) {
  const f = new VecFile('fp2.txt', index, [
    'Fp2 = Fp[u]/(u^2 + 1); an element is two fields c0 c1 meaning c0 + c1*u',
    'add a0 a1 b0 b1 r0 r1 | sub ... | mul ... | sqr a0 a1 r0 r1 | neg a0 a1 r0 r1 | inv a0 a1 r0 r1',
    'sqrt a0 a1 r0 r1 (r^2 = a, either root) | nosqrt a0 a1 | frob a0 a1 r0 r1 (r = a^p)',
  ]);
  const rng = f.rng;
  const rand = () => [rng.below(P), rng.below(P)];
  const edges = [
    [0n, 0n],
    [1n, 0n],
    [0n, 1n],
    [2n, 0n],
    [P - 1n, 0n],
    [0n, P - 1n],
    [P - 1n, P - 1n],
    [1n, 1n],
    [(P - 1n) / 2n, (P + 1n) / 2n],
  ];
  const sample = (i) => (i < edges.length ? edges[i] : rand());
  const e2 = (a) => [hp(a[0]), hp(a[1])];
  const N = 48;

  for (const [op, nf, rf] of [
    ['add', Fp2.add.bind(Fp2), X2.add],
    ['sub', Fp2.sub.bind(Fp2), X2.sub],
    ['mul', Fp2.mul.bind(Fp2), X2.mul],
  ]) {
    f.section(op);
    const pairs = [];
    for (const a of edges.slice(0, 7)) for (const b of [edges[0], edges[1], edges[2], edges[6]]) pairs.push([a, b]);
    while (pairs.length < N) pairs.push([rand(), rand()]);
    for (const [a, b] of pairs) {
      const r = fromN2(nf(toN2(a), toN2(b)));
      check(X2.eq(r, rf(a, b)), op);
      f.rec(op, ...e2(a), ...e2(b), ...e2(r));
    }
  }

  f.section('sqr');
  for (let i = 0; i < N; i++) {
    const a = sample(i);
    const r = fromN2(Fp2.sqr(toN2(a)));
    check(X2.eq(r, X2.mul(a, a)), 'sqr');
    f.rec('sqr', ...e2(a), ...e2(r));
  }

  f.section('neg');
  for (let i = 0; i < N; i++) {
    const a = sample(i);
    const r = fromN2(Fp2.neg(toN2(a)));
    check(X2.eq(r, X2.neg(a)), 'neg');
    f.rec('neg', ...e2(a), ...e2(r));
  }

  f.section('inv (a != 0)');
  for (let i = 1; i < N + 1; i++) {
    const a = sample(i);
    const r = fromN2(Fp2.inv(toN2(a)));
    check(X2.eq(r, X2.inv(a)) && X2.eq(X2.mul(a, r), X2.one), 'inv');
    f.rec('inv', ...e2(a), ...e2(r));
  }

  f.section('sqrt (a is a square; r is either root)');
  const emitSqrt = (a) => {
    check(X2.isSquare(a), 'sqrt input is a square');
    const r = fromN2(Fp2.sqrt(toN2(a)));
    check(X2.eq(X2.mul(r, r), a), 'sqrt');
    f.rec('sqrt', ...e2(a), ...e2(r));
  };
  // Every Fp element is a square in Fp2, including Fp non-squares like -1.
  for (const a of edges) if (X2.isSquare(a)) emitSqrt(a);
  for (const a of [[P - 2n, 0n], [3n, 0n], [5n, 0n], [0n, 2n]]) emitSqrt(a);
  while ((f.counts.get('sqrt') || 0) < N) {
    const x = rand();
    emitSqrt(X2.mul(x, x));
  }

  f.section('nosqrt (a is not a square)');
  const emitNoSqrt = (a) => {
    check(!X2.isSquare(a), 'nosqrt input is a non-square');
    check(X2.eq(x2pow(a, (P * P - 1n) / 2n), X2.neg(X2.one)), 'Euler criterion in Fp2');
    let threw = false;
    try {
      Fp2.sqrt(toN2(a));
    } catch {
      threw = true;
    }
    check(threw, 'noble Fp2 sqrt rejects a non-square');
    f.rec('nosqrt', ...e2(a));
  };
  for (const a of [[1n, 1n], [2n, 1n], [1n, 2n], [P - 1n, 1n]]) if (!X2.isSquare(a)) emitNoSqrt(a);
  while ((f.counts.get('nosqrt') || 0) < N) {
    const a = rand();
    if (!X2.isSquare(a)) emitNoSqrt(a);
  }

  f.section('frob (r = a^p)');
  for (let i = 0; i < N; i++) {
    const a = sample(i);
    const r = fromN2(Fp2.frobeniusMap(toN2(a), 1));
    check(X2.eq(r, x2pow(a, P)), 'frob = a^p');
    f.rec('frob', ...e2(a), ...e2(r));
  }
  return f;
}

// ---------------------------------------------------------------------------
// Fp12

function fp12File(index, gtSamples) {
  const f = new VecFile('fp12.txt', index, [
    'tower: Fp2 = Fp[u]/(u^2+1), Fp6 = Fp2[v]/(v^3-(u+1)), Fp12 = Fp6[w]/(w^2-v)',
    'an element is 12 fields: c0.c0.c0 c0.c0.c1 c0.c1.c0 c0.c1.c1 c0.c2.c0 c0.c2.c1 c1.c0.c0 ... c1.c2.c1',
    '(c{k}.c{j}.c{i}: Fp6 coefficient k of w, Fp2 coefficient j of v, Fp coefficient i of u)',
    'mul a b r | sqr a r | inv a r (a != 0) | frob1 a r (a^p) | frob2 a r (a^(p^2)) | frob3 a r (a^(p^3))',
    'cyclo_sqr g r (g in the cyclotomic subgroup: pairing outputs and final exponentiations; r = g^2)',
  ]);
  const rng = f.rng;
  const rand = () => f12FromFields(Array.from({ length: 12 }, () => rng.below(P)));
  const unit = (i, v = 1n) => f12FromFields(Array.from({ length: 12 }, (_, j) => (j === i ? v : 0n)));
  const edges = [
    Fp12.ZERO,
    Fp12.ONE,
    unit(0, 2n),
    unit(0, P - 1n),
    unit(1), // u
    unit(2), // v
    unit(6), // w
    unit(11, P - 1n),
    f12FromFields(Array(12).fill(P - 1n)),
    f12FromFields(Array(12).fill(1n)),
  ];
  const N = 40;
  const sample = (i) => (i < edges.length ? edges[i] : rand());

  f.section('mul');
  const pairs = [];
  for (const a of edges) for (const b of [edges[0], edges[1], edges[6]]) pairs.push([a, b]);
  while (pairs.length < N) pairs.push([rand(), rand()]);
  for (const [a, b] of pairs) {
    const r = Fp12.mul(a, b);
    check(x12eq(f12ToW(r), x12mul(f12ToW(a), f12ToW(b))), 'fp12 mul');
    f.rec('mul', ...f12hex(a), ...f12hex(b), ...f12hex(r));
  }

  f.section('sqr');
  for (let i = 0; i < N; i++) {
    const a = sample(i);
    const r = Fp12.sqr(a);
    check(x12eq(f12ToW(r), x12mul(f12ToW(a), f12ToW(a))), 'fp12 sqr');
    f.rec('sqr', ...f12hex(a), ...f12hex(r));
  }

  f.section('inv (a != 0)');
  for (let i = 1; i < N + 1; i++) {
    const a = sample(i);
    const r = Fp12.inv(a);
    check(x12eq(x12mul(f12ToW(a), f12ToW(r)), X12_ONE), 'fp12 inv');
    f.rec('inv', ...f12hex(a), ...f12hex(r));
  }

  for (const [op, power] of [['frob1', 1], ['frob2', 2], ['frob3', 3]]) {
    f.section(`${op} (r = a^(p^${power}))`);
    const e = P ** BigInt(power);
    for (let i = 0; i < N; i++) {
      const a = sample(i);
      const r = Fp12.frobeniusMap(a, power);
      check(x12eq(f12ToW(r), x12pow(f12ToW(a), e)), `${op} = a^(p^${power})`);
      f.rec(op, ...f12hex(a), ...f12hex(r));
    }
  }

  // Cyclotomic samples: the identity, outputs of pairing.txt's pair records
  // and their conjugates (inverses), then final exponentiations of random
  // elements; all lie in the cyclotomic subgroup.
  f.section('cyclo_sqr (g in the cyclotomic subgroup, r = g^2)');
  const samples = [Fp12.ONE, ...gtSamples.slice(0, 24), Fp12.conjugate(gtSamples[0]), Fp12.conjugate(gtSamples[1])];
  while (samples.length < N) samples.push(Fp12.finalExponentiate(rand()));
  for (const g of samples) {
    check(Fp12.eql(Fp12.mul(g, Fp12.conjugate(g)), Fp12.ONE), 'g is unitary');
    check(x12eq(x12pow(f12ToW(g), R), X12_ONE), 'g^r = 1');
    const r = Fp12.sqr(g);
    check(Fp12.eql(r, Fp12._cyclotomicSquare(g)), 'cyclotomic square matches plain square');
    check(x12eq(f12ToW(r), x12mul(f12ToW(g), f12ToW(g))), 'cyclo_sqr');
    f.rec('cyclo_sqr', ...f12hex(g), ...f12hex(r));
  }
  return f;
}

// ---------------------------------------------------------------------------
// G1 / G2 arithmetic and encodings

function groupFile(index, which) {
  const isG1 = which === 'G1';
  const Pt = isG1 ? G1 : G2;
  const spec = isG1 ? G1SPEC : G2SPEC;
  const curve = spec.curve;
  const fromNoble = isG1 ? fromNoble1 : fromNoble2;
  const name = isG1 ? 'g1.txt' : 'g2.txt';
  const ulen = isG1 ? 96 : 192;
  const f = new VecFile(name, index, [
    `${which} points: ZCash encoding, ${ulen} bytes uncompressed (${ulen / 2} compressed, enc only)`,
    'add P Q R | dbl P R | neg P R | mul P k R (k: 32 bytes, any value, R = k*P) | enc U C (same point)',
  ]);
  const rng = f.rng;
  const randPt = () => Pt.BASE.multiplyUnsafe(1n + rng.below(R - 1n));
  // noble only encodes the canonical projective infinity (0, 1, 0), while
  // sums like P + (-P) come out as some other (0, Y, 0).
  const canon = (pt) => (pt.is0() ? Pt.ZERO : pt);
  const U = (pt) => {
    const hex = canon(pt).toHex(false);
    check(hex === bytesToHex(zencode(spec, fromNoble(pt), false)), 'uncompressed encoding');
    return hex;
  };
  const Cc = (pt) => {
    const hex = canon(pt).toHex(true);
    check(hex === bytesToHex(zencode(spec, fromNoble(pt), true)), 'compressed encoding');
    return hex;
  };
  const Z = Pt.ZERO;
  const G = Pt.BASE;

  f.section('add (includes P = Q, P = -Q, and infinity on either side)');
  const adds = [
    [G, G],
    [G, G.negate()],
    [Z, G],
    [G, Z],
    [Z, Z],
    [G, G.double()],
  ];
  for (let i = 0; i < 4; i++) {
    const a = randPt();
    adds.push([a, a], [a, a.negate()], [a, Z], [Z, a]);
  }
  while (adds.length < 48) adds.push([randPt(), randPt()]);
  for (const [a, b] of adds) {
    const r = a.add(b);
    check(curve.eq(fromNoble(r), curve.add(fromNoble(a), fromNoble(b))), 'add');
    f.rec('add', U(a), U(b), U(r));
  }

  f.section('dbl');
  const dbls = [Z, G, G.negate(), G.double()];
  while (dbls.length < 40) dbls.push(randPt());
  for (const a of dbls) {
    const r = a.double();
    check(curve.eq(fromNoble(r), curve.add(fromNoble(a), fromNoble(a))), 'dbl');
    f.rec('dbl', U(a), U(r));
  }

  f.section('neg');
  const negs = [Z, G, G.negate()];
  while (negs.length < 40) negs.push(randPt());
  for (const a of negs) {
    const r = a.negate();
    check(curve.eq(fromNoble(r), curve.neg(fromNoble(a))), 'neg');
    f.rec('neg', U(a), U(r));
  }

  f.section('mul (k is any 256-bit value; R = k*P, so k is effectively reduced mod r)');
  const ks = [0n, 1n, 2n, R - 1n, R, R + 1n, MAX256, R - 2n, 2n * R, (1n << 255n)];
  const muls = [];
  for (const k of ks) muls.push([G, k]);
  const p0 = randPt();
  for (const k of ks) muls.push([p0, k]);
  muls.push([Z, rng.bits(256)], [Z, 0n], [Z, R - 1n]);
  while (muls.length < 56) muls.push([randPt(), rng.bits(256)]);
  for (const [a, k] of muls) {
    // noble's multiply takes 0 < k < r only, and P has order r (or is
    // infinity), so it gets k mod r; the reference multiplies by k as given.
    const r = a.multiplyUnsafe(k % R);
    check(curve.eq(fromNoble(r), curve.mul(fromNoble(a), k)), 'mul');
    f.rec('mul', U(a), hr(k), U(r));
  }

  f.section('enc (U uncompressed, C compressed, same point; both y signs)');
  const encs = [Z, G, G.negate()];
  while (encs.length < 48) {
    const a = randPt();
    encs.push(a, a.negate());
  }
  let signs = [0, 0];
  for (const a of encs) {
    const u = U(a);
    const c = Cc(a);
    const du = Pt.fromHex(u);
    const dc = Pt.fromHex(c);
    check(du.equals(dc) && du.equals(a), 'decode(U) == decode(C)');
    const zu = zdecode(spec, hexToBytes(u));
    const zc = zdecode(spec, hexToBytes(c));
    check(zu.ok && zc.ok && curve.eq(zu.pt, zc.pt), 'reference decode(U) == decode(C)');
    if (!a.is0()) signs[(hexToBytes(c)[0] >> 5) & 1]++;
    f.rec('enc', u, c);
  }
  check(signs[0] > 5 && signs[1] > 5, 'both compressed sign bits appear');
  return f;
}

// ---------------------------------------------------------------------------
// Invalid encodings

// Invalid encodings that noble's decoder accepts although the ZCash rules
// reject them, as "G1 kind: note". Empty for noble 2.4.0: every record in
// bad_g1.txt and bad_g2.txt is rejected by G1/G2.Point.fromHex.
const KNOWN_LAX = new Set([]);

function badFile(index, which) {
  const isG1 = which === 'G1';
  const Pt = isG1 ? G1 : G2;
  const spec = isG1 ? G1SPEC : G2SPEC;
  const { curve, clen } = spec;
  const F = curve.F;
  const fromNoble = isG1 ? fromNoble1 : fromNoble2;
  const f = new VecFile(isG1 ? 'bad_g1.txt' : 'bad_g2.txt', index, [
    `encodings every ${which} decoder must reject (ZCash rules); the decoder decides between`,
    `the ${clen}-byte compressed and ${2 * clen}-byte uncompressed forms by the input length and flags`,
    'bad KIND hex, KIND in: length flags noncanonical not_on_curve not_in_subgroup infinity_noncanonical',
  ]);
  const rng = f.rng;
  const randPt = () => fromNoble(Pt.BASE.multiplyUnsafe(1n + rng.below(R - 1n)));
  const randCoord = isG1 ? () => rng.below(P) : () => [rng.below(P), rng.below(P)];
  const enc = (pt, c) => zencode(spec, pt, c);
  const lax = [];

  const emit = (kind, bytes, note) => {
    const z = zdecode(spec, bytes);
    check(!z.ok && z.kind === kind, `reference decoder classifies ${note} as ${kind} (got ${z.ok ? 'ok' : z.kind})`);
    const hex = bytesToHex(bytes);
    let threw = false;
    try {
      Pt.fromHex(hex);
    } catch {
      threw = true;
    }
    if (!threw) {
      // Emit it anyway (the ZCash rules reject it), but only once it has been
      // reviewed and listed in KNOWN_LAX and the README.
      if (!KNOWN_LAX.has(`${which} ${kind}: ${note}`))
        throw new Error(`noble accepted ${which} ${kind} (${note}): review, then list it in KNOWN_LAX`);
      lax.push(`${kind}: ${note}`);
    }
    f.rec('bad', kind, hex);
  };
  const cat = (...parts) => {
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let o = 0;
    for (const p of parts) {
      out.set(p, o);
      o += p.length;
    }
    return out;
  };
  const withByte0 = (b, fn) => {
    const out = Uint8Array.from(b);
    out[0] = fn(out[0]);
    return out;
  };

  // A point of the right subgroup whose x (or x.c1) leaves room for x + p
  // below 2^381, so that adding p cannot touch the flag bits.
  const smallX = () => {
    for (;;) {
      const pt = randPt();
      const hi = isG1 ? pt.x : pt.x[1];
      if (hi + P < 1n << 381n) return pt;
    }
  };

  f.section('length');
  {
    const a = randPt();
    const c = enc(a, true);
    const u = enc(a, false);
    emit('length', c.subarray(0, clen - 1), 'compressed, last byte cut');
    emit('length', cat(c, Uint8Array.of(0)), 'compressed plus a zero byte');
    emit('length', u.subarray(0, 2 * clen - 1), 'uncompressed, last byte cut');
    emit('length', cat(u, Uint8Array.of(0)), 'uncompressed plus a zero byte');
    emit('length', Uint8Array.of(0xc0), 'one byte, compressed infinity flag');
    emit('length', Uint8Array.of(0x00), 'one zero byte');
    emit('length', cat(enc(null, true), new Uint8Array(clen / 2)), 'compressed infinity, 1.5x long');
    emit('length', cat(u, u), 'uncompressed point twice');
    if (isG1) emit('length', cat(u, c), '144 bytes');
    else emit('length', zencode(G1SPEC, fromNoble1(G1.BASE), true), 'a G1 compressed point (48 bytes)');
  }

  f.section('flags');
  {
    const a = randPt();
    const c = enc(a, true);
    const u = enc(a, false);
    emit('flags', withByte0(c, (b) => b & 0x7f), 'compressed with compression bit clear');
    emit('flags', withByte0(u, (b) => b | 0x80), 'uncompressed with compression bit set');
    emit('flags', withByte0(u, (b) => b | 0x20), 'uncompressed with sign bit');
    emit('flags', withByte0(enc(null, false), (b) => b | 0x20), 'uncompressed infinity with sign bit (0x60)');
    emit('flags', withByte0(enc(null, true), (b) => b | 0x20), 'compressed infinity with sign bit (0xe0)');
    emit('flags', withByte0(enc(null, true), (b) => b & 0x7f), 'compressed-length infinity without compression bit');
    emit('flags', withByte0(enc(null, false), (b) => b | 0x80), 'uncompressed-length infinity with compression bit');
    emit('flags', withByte0(u, (b) => b | 0xa0), 'uncompressed with compression and sign bits');
  }

  f.section('noncanonical (a coordinate, or an Fp2 component, >= p)');
  {
    const addP = (bytes, off) => {
      // Adds p to the 48-byte big-endian integer at off.
      const v = bytesToBig(bytes.subarray(off, off + 48)) + P;
      const out = Uint8Array.from(bytes);
      out.set(bigToBytes(v, 48), off);
      return out;
    };
    const setTo = (bytes, off, v) => {
      const out = Uint8Array.from(bytes);
      out.set(bigToBytes(v, 48), off);
      return out;
    };
    const keepFlags = (orig, bytes) => withByte0(bytes, (b) => (b & 0x1f) | (orig[0] & 0xe0));
    // The x (or x.c1) word carries the flags; strip them before adding p.
    const addPx = (bytes) => keepFlags(bytes, addP(withByte0(bytes, (b) => b & 0x1f), 0));
    for (let i = 0; i < 2; i++) {
      const a = smallX();
      emit('noncanonical', addPx(enc(a, true)), 'compressed, x + p');
      emit('noncanonical', addPx(enc(a, false)), 'uncompressed, x + p');
    }
    const a = randPt();
    emit('noncanonical', addP(enc(a, false), clen), 'uncompressed, y + p');
    emit('noncanonical', setTo(enc(a, false), clen, (1n << 384n) - 1n), 'uncompressed, y = 2^384 - 1');
    emit('noncanonical', keepFlags(enc(a, true), setTo(enc(a, true), 0, P)), 'compressed, x = p');
    emit('noncanonical', keepFlags(enc(a, true), setTo(enc(a, true), 0, (1n << 381n) - 1n)), 'compressed, x = 2^381 - 1');
    if (!isG1) {
      // Fp2 components are c1 || c0; also hit c0 of x and both parts of y.
      emit('noncanonical', addP(enc(a, true), 48), 'compressed, x.c0 + p');
      emit('noncanonical', addP(enc(a, false), 48), 'uncompressed, x.c0 + p');
      emit('noncanonical', addP(enc(a, false), 96), 'uncompressed, y.c1 + p');
      emit('noncanonical', addP(enc(a, false), 144), 'uncompressed, y.c0 + p');
      emit('noncanonical', setTo(enc(a, true), 48, P), 'compressed, x.c0 = p');
    }
  }

  f.section('not_on_curve');
  {
    let n = 0;
    while (n < 4) {
      const x = randCoord();
      const rhs = F.add(F.mul(F.mul(x, x), x), curve.b);
      if (F.isSquare(rhs)) continue;
      const c = enc({ x, y: F.one }, true);
      emit('not_on_curve', c, 'compressed x with x^3 + b not a square');
      emit('not_on_curve', withByte0(c, (b) => b ^ 0x20), 'same x, other sign');
      n += 2;
    }
    const a = randPt();
    emit('not_on_curve', enc({ x: a.x, y: F.add(a.y, F.one) }, false), 'uncompressed, y + 1');
    emit('not_on_curve', enc({ x: F.add(a.x, F.one), y: a.y }, false), 'uncompressed, x + 1');
    emit('not_on_curve', enc({ x: randCoord(), y: randCoord() }, false), 'uncompressed, random x and y');
    emit('not_on_curve', new Uint8Array(2 * clen), 'uncompressed all zero without the infinity flag');
    emit('not_on_curve', enc({ x: F.zero, y: F.one }, false), 'uncompressed (0, 1)');
  }

  f.section('not_in_subgroup (on the curve, outside the order-r subgroup)');
  {
    const offSubgroup = [];
    if (isG1) {
      // x = 0 gives the two points of order 3.
      offSubgroup.push({ x: 0n, y: 2n }, { x: 0n, y: P - 2n });
    }
    while (offSubgroup.length < 6) {
      const x = randCoord();
      const rhs = F.add(F.mul(F.mul(x, x), x), curve.b);
      if (!F.isSquare(rhs)) continue;
      const y = sqrtOf(F, rhs);
      offSubgroup.push({ x, y });
      if (offSubgroup.length < 6) offSubgroup.push({ x, y: F.neg(y) });
    }
    for (const pt of offSubgroup) {
      check(curve.onCurve(pt) && curve.mul(pt, R) !== null, 'point is on the curve, not in the subgroup');
      emit('not_in_subgroup', enc(pt, true), 'compressed');
      emit('not_in_subgroup', enc(pt, false), 'uncompressed');
    }
  }

  f.section('infinity_noncanonical (infinity flag with other bits set)');
  {
    const setLast = (b) => {
      const out = Uint8Array.from(b);
      out[out.length - 1] = 1;
      return out;
    };
    emit('infinity_noncanonical', withByte0(enc(null, true), (b) => b | 0x01), 'compressed, low bit of byte 0');
    emit('infinity_noncanonical', setLast(enc(null, true)), 'compressed, last byte 1');
    emit('infinity_noncanonical', withByte0(enc(null, false), (b) => b | 0x10), 'uncompressed, bit 4 of byte 0');
    emit('infinity_noncanonical', setLast(enc(null, false)), 'uncompressed, last byte 1');
    const g = enc(fromNoble(Pt.BASE), false);
    emit('infinity_noncanonical', withByte0(g, (b) => b | 0x40), 'uncompressed generator with infinity flag');
    const gc = enc(fromNoble(Pt.BASE), true);
    emit('infinity_noncanonical', withByte0(gc, (b) => (b | 0x40) & ~0x20), 'compressed generator x with infinity flag');
    const mid = Uint8Array.from(enc(null, false));
    mid[clen] = 0x80;
    emit('infinity_noncanonical', mid, 'uncompressed, top bit of the y word');
  }

  for (const kind of ['length', 'flags', 'noncanonical', 'not_on_curve', 'not_in_subgroup', 'infinity_noncanonical']) {
    const n = f.lines.filter((l) => l.startsWith(`bad ${kind} `)).length;
    check(n >= 5, `at least 5 ${kind} records`);
  }
  if (lax.length) {
    console.log(`${f.name}: noble accepted ${lax.length} encodings the ZCash rules reject:`);
    for (const l of lax) console.log('  ' + l);
  }
  return f;
}

// ---------------------------------------------------------------------------
// Pairing

// e(P, Q) with the algebraic convention e(O, Q) = e(P, O) = 1. noble's pairing
// refuses infinity inputs, so those terms are dropped here (after asserting
// that noble refuses them).
function pairingProduct(pairs) {
  const live = [];
  for (const [a, b] of pairs) {
    if (a.is0() || b.is0()) {
      let threw = false;
      try {
        bls12_381.pairing(a, b);
      } catch {
        threw = true;
      }
      check(threw, 'noble refuses infinity in pairing');
    } else live.push({ g1: a, g2: b });
  }
  return live.length ? bls12_381.pairingBatch(live) : Fp12.ONE;
}

// (p^12 - 1) / r, the textbook final exponent.
const FINAL_EXP = (P ** 12n - 1n) / R;
check((P ** 12n - 1n) % R === 0n, 'r divides p^12 - 1');

// e(P, Q) with the exact final exponent (p^12 - 1)/r. For F in GT, F^3 is
// noble's value, and since gcd(3, r) = 1 the exact value is noble's raised to
// 3^-1 mod r; both routes are taken and compared.
function pairingExactFile(index) {
  const f = new VecFile('pairing_exact.txt', index, [
    'pair P Q F as in pairing.txt, but F = f^((p^12 - 1)/r) exactly (the cube root in GT of pairing.txt\'s value)',
    'for implementations whose final exponentiation uses the exact exponent; e(O, Q) = e(P, O) = 1',
  ]);
  const rng = f.rng;
  const G = G1.BASE;
  const H = G2.BASE;
  const sc = () => 1n + rng.below(R - 1n);
  const inv3 = modinv(3n, R);
  const pairs = [[G, H], [G1.ZERO, H], [G, G2.ZERO], [G.negate(), H], [G, H.double()]];
  while (pairs.length < 16) pairs.push([G.multiplyUnsafe(sc()), H.multiplyUnsafe(sc())]);
  f.section('pair (exact final exponent)');
  for (const [a, b] of pairs) {
    let F = Fp12.ONE;
    if (!a.is0() && !b.is0()) {
      const e = bls12_381.pairing(a, b);
      F = Fp12.pow(e, inv3);
      const exact = x12pow(f12ToW(bls12_381.pairing(a, b, false)), FINAL_EXP);
      check(x12eq(f12ToW(F), exact), 'exact pairing = f^((p^12-1)/r)');
      check(Fp12.eql(Fp12.mul(F, Fp12.sqr(F)), e), 'exact^3 = noble pairing');
    }
    f.rec('pair', a.toHex(false), b.toHex(false), ...f12Fields(F).map(hp));
  }
  return f;
}

function pairingFile(index, gtOut) {
  const f = new VecFile('pairing.txt', index, [
    'pair P Q F: P a G1 point (96 bytes), Q a G2 point (192 bytes), F = e(P, Q) as 12 Fp fields (fp12.txt order)',
    'e is the optimal ate pairing as noble (and zkcrypto bls12_381) compute it: F = f^(3(p^12 - 1)/r),',
    'the CUBE of f^((p^12 - 1)/r), f the Miller value; pairing_exact.txt has f^((p^12 - 1)/r) itself',
    'e(O, Q) = e(P, O) = 1',
    'check n P1 Q1 ... Pn Qn b: b = 1 if the product of e(Pi, Qi) is 1, else 0',
  ]);
  const rng = f.rng;
  const G = G1.BASE;
  const H = G2.BASE;
  const sc = () => 1n + rng.below(R - 1n);
  const gHex = (pt) => pt.toHex(false);

  // Pin down noble's final exponent on a few Miller loop outputs: noble's
  // pairing(P, Q, false) returns the Miller value f (already conjugated for
  // the negative curve parameter), and pairing(P, Q) equals f^(3(p^12-1)/r),
  // computed here with the reference Fp12; f^((p^12-1)/r) alone does not.
  for (const [a, b] of [[G, H], [G.multiplyUnsafe(sc()), H.multiplyUnsafe(sc())]]) {
    const miller = bls12_381.pairing(a, b, false);
    const e = bls12_381.pairing(a, b);
    const exact = x12pow(f12ToW(miller), FINAL_EXP);
    check(!x12eq(f12ToW(e), exact), 'noble pairing is not f^((p^12-1)/r)');
    check(x12eq(f12ToW(e), x12mul(exact, x12mul(exact, exact))), 'noble pairing = f^(3(p^12-1)/r)');
    check(Fp12.eql(Fp12.finalExponentiate(miller), e), 'finalExponentiate matches pairing');
  }

  const eGH = bls12_381.pairing(G, H);
  check(!Fp12.eql(eGH, Fp12.ONE), 'e(G1, G2) != 1');
  check(x12eq(x12pow(f12ToW(eGH), R), X12_ONE), 'e(G1, G2)^r = 1');

  f.section('pair');
  const pairs = [
    [G, H],
    [G1.ZERO, H],
    [G, G2.ZERO],
    [G1.ZERO, G2.ZERO],
    [G.negate(), H],
    [G, H.negate()],
    [G.double(), H],
    [G, H.double()],
  ];
  // Known scalars (a, b) for e(aG, bH), for the bilinearity cross-check.
  const scalars = pairs.map(() => null);
  while (pairs.length < 40) {
    const a = sc();
    const b = sc();
    const i = pairs.length;
    const [s, t] = i % 3 === 0 ? [a, 1n] : i % 3 === 1 ? [1n, b] : [a, b];
    pairs.push([G.multiplyUnsafe(s), H.multiplyUnsafe(t)]);
    scalars.push([s, t]);
  }
  pairs.forEach(([a, b], i) => {
    const F = pairingProduct([[a, b]]);
    // Bilinearity against e(G1, G2), computed with the reference Fp12.
    if (scalars[i]) {
      const [s, t] = scalars[i];
      check(x12eq(f12ToW(F), x12pow(f12ToW(eGH), mod(s * t, R))), 'e(aG, bH) = e(G, H)^(ab)');
    }
    if (!Fp12.eql(F, Fp12.ONE)) gtOut.push(F);
    f.rec('pair', gHex(a), gHex(b), ...f12Fields(F).map(hp));
  });

  f.section('check (half true, half false)');
  // A term is (a, b) standing for e(aG, bH), with scalar 0 meaning infinity,
  // so the product of a record is e(G, H)^(sum a_i b_i) and is 1 exactly
  // when that sum is 0 mod r.
  const checks = [];
  const closing = (terms) => {
    // Appends a term that brings the exponent sum to 0.
    const sum = terms.reduce((s, [a, b]) => mod(s + a * b, R), 0n);
    const b = sc();
    return [mod(-sum * modinv(b, R), R), b];
  };
  for (let n = 1; n <= 5; n++) {
    for (let rep = 0; rep < 4; rep++) {
      let good;
      if (n === 1) {
        good = [[[0n, sc()], [sc(), 0n], [0n, 0n], [0n, sc()]][rep]];
      } else if (n === 2 && rep === 0) {
        const a = sc();
        good = [[a, 1n], [1n, R - a]]; // e(aP, Q) * e(P, -aQ)
      } else if (n === 2 && rep === 1) {
        const a = sc();
        const b = sc();
        good = [[a, b], [mod(-a * b, R), 1n]]; // e(aP, bQ) * e(-abP, Q)
      } else {
        good = [];
        for (let i = 0; i < n - 1; i++) good.push([sc(), sc()]);
        if (rep === 2) good[0] = [0n, sc()]; // an infinity term among the rest
        if (rep === 3 && n > 2) good[1] = [sc(), 0n];
        good.push(closing(good));
      }
      checks.push({ terms: good, want: 1 });
      const bad = [];
      for (let i = 0; i < n; i++) bad.push([sc(), sc()]);
      if (rep === 3 && n >= 2) bad[0] = [0n, sc()];
      if (rep === 2 && n >= 2) {
        // One step away from a true relation.
        const [a, b] = closing(bad.slice(0, n - 1));
        bad[n - 1] = [mod(a + 1n, R), b];
      }
      checks.push({ terms: bad, want: 0 });
    }
  }
  const toPts = ([a, b]) => [
    a === 0n ? G1.ZERO : G.multiplyUnsafe(a),
    b === 0n ? G2.ZERO : H.multiplyUnsafe(b),
  ];
  for (const { terms, want } of checks) {
    check(terms.length >= 1 && terms.length <= 5, 'check size');
    const sum = terms.reduce((s, [a, b]) => mod(s + a * b, R), 0n);
    check((sum === 0n ? 1 : 0) === want, 'intended truth value');
    const pts = terms.map(toPts);
    const prod = pairingProduct(pts);
    const got = Fp12.eql(prod, Fp12.ONE) ? 1 : 0;
    check(got === want, `check n=${terms.length} expected ${want}`);
    check(x12eq(f12ToW(prod), x12pow(f12ToW(eGH), sum)), 'product = e(G, H)^(sum a_i b_i)');
    // The batch product must equal the product of single pairings.
    let single = Fp12.ONE;
    for (const t of pts) single = Fp12.mul(single, pairingProduct([t]));
    check(Fp12.eql(single, prod), 'batch product = product of pairings');
    const fields = [];
    for (const [a, b] of pts) fields.push(gHex(a), gHex(b));
    f.rec('check', String(terms.length), ...fields, String(got));
  }
  return f;
}

// ---------------------------------------------------------------------------

// Shared with gen_vectors_bn254.mjs, which imports this module; the BLS12-381
// files are written only when this file is the one run.
export { check, hx, hr, mod, modpow, modinv, legendre, makeCurve, MAX256, bytesToHex, hexToBytes };

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const t0 = Date.now();
  const gt = [];
  const files = [];
  files.push(primeFieldFile('fp.txt', 0, Fp, P, 48));
  files.push(primeFieldFile('fr.txt', 1, Fr, R, 32));
  files.push(fp2File(2));
  const pairing = pairingFile(7, gt);
  files.push(fp12File(3, gt));
  files.push(groupFile(4, 'G1'));
  files.push(groupFile(5, 'G2'));
  files.push(pairing);
  files.push(pairingExactFile(10));
  files.push(badFile(8, 'G1'));
  files.push(badFile(9, 'G2'));
  for (const f of files) f.write();
  console.log(`done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}
