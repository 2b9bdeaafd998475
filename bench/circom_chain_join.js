// Joins n copies of a compiled circom link into one chain circuit and its
// witness, for the chains of bench/snarkjs_compare.sh too large for circom2
// (the WebAssembly circom, 4 GiB of memory) to compile whole.
//
//   node bench/circom_chain_join.js LINK_DIR N X OUT.r1cs OUT.wtns
//
// LINK_DIR holds link.r1cs and link_js/ (witness_calculator.js, link.wasm)
// of a circuit compiled by circom with --r1cs --wasm: one public output
// `out` and two private inputs, `x` then `hin`, none public (wires 1, 2 and
// 3 of circom's order). The chain: h_1 = link(x, x), h_{i+1} = link(x, h_i),
// out = h_N, x private, out the one public output: the same system as
// circom compiling the N links in one template, each link's constraints as
// circom simplified them alone (nothing is simplified across links, where
// only the copies of out into hin, gone here, were left to simplify).
//
// Wires of the result: 0 ONE, 1 out (link N's output), 2 x, then each
// link's internal wires in turn, link i < N's output first. Link 1's hin is
// x itself (wire 2). Terms of a linear combination are sorted by wire and
// those of one wire added up (link 1's x and hin meet). Labels: wire i has
// label i. The witness: each link's witness from its wasm in turn, checked
// to hold ONE, x and hin where expected. Everything little-endian, in
// iden3's binary containers (r1cs version 1, wtns version 2).
"use strict";
const fs = require("fs");
const path = require("path");

function die(msg) {
    process.stderr.write(`circom_chain_join: ${msg}\n`);
    process.exit(1);
}

// The sections of an iden3 binary container: Map type -> [offset, size].
function sections(buf, magic, file) {
    if (buf.toString("latin1", 0, 4) !== magic) die(`${file}: not a ${magic} file`);
    const n = buf.readUInt32LE(8);
    const out = new Map();
    let off = 12;
    for (let i = 0; i < n; i++) {
        const type = buf.readUInt32LE(off);
        const size = Number(buf.readBigUInt64LE(off + 4));
        if (out.has(type)) die(`${file}: section ${type} twice`);
        out.set(type, [off + 12, size]);
        off += 12 + size;
    }
    return out;
}

function leToBig(bytes) {
    let v = 0n;
    for (let i = bytes.length - 1; i >= 0; i--) v = (v << 8n) | BigInt(bytes[i]);
    return v;
}

function bigToLe(v, n8) {
    const b = Buffer.alloc(n8);
    for (let i = 0; i < n8; i++) {
        b[i] = Number(v & 0xffn);
        v >>= 8n;
    }
    return b;
}

async function main() {
    const [dir, nArg, xArg, outR1cs, outWtns] = process.argv.slice(2);
    if (!outWtns) die("usage: circom_chain_join.js LINK_DIR N X OUT.r1cs OUT.wtns");
    const links = Number(nArg);
    if (!Number.isInteger(links) || links < 1) die(`N must be a positive integer (got '${nArg}')`);
    const x = BigInt(xArg);

    const r1csFile = path.join(dir, "link.r1cs");
    const r1cs = fs.readFileSync(r1csFile);
    const sec = sections(r1cs, "r1cs", r1csFile);
    if (!sec.has(1) || !sec.has(2)) die(`${r1csFile}: no header or constraints section`);
    for (const t of sec.keys()) if (t > 3) die(`${r1csFile}: section ${t} (custom gates) not supported`);
    let [h] = sec.get(1);
    const n8 = r1cs.readUInt32LE(h);
    const primeBytes = r1cs.subarray(h + 4, h + 4 + n8);
    const prime = leToBig(primeBytes);
    h += 4 + n8;
    const wires = r1cs.readUInt32LE(h);
    const pubOut = r1cs.readUInt32LE(h + 4);
    const pubIn = r1cs.readUInt32LE(h + 8);
    const prvIn = r1cs.readUInt32LE(h + 12);
    const nConstraints = r1cs.readUInt32LE(h + 24);
    if (pubOut !== 1 || pubIn !== 0 || prvIn !== 2)
        die(`${r1csFile}: want 1 public output and 2 private inputs (got ${pubOut}, ${pubIn} public, ${prvIn} private)`);

    // Link i's wire w (i from 0) in the chain.
    const inner = wires - 4; // wires past ONE, out, x, hin
    const total = 3 + links * inner + (links - 1);
    if (total > 0xffffffff || links * nConstraints > 0xffffffff) die("more than 2^32 - 1 wires or constraints");
    const base = (i) => 3 + i * (inner + 1); // link i's first own wire
    const mapper = (i) => {
        const last = i === links - 1;
        const outWire = last ? 1 : base(i);
        const hin = i === 0 ? 2 : base(i - 1);
        const first = last ? base(i) : base(i) + 1;
        return (w) => (w >= 4 ? first + (w - 4) : w === 0 ? 0 : w === 1 ? outWire : w === 2 ? 2 : hin);
    };

    // The constraints, link by link.
    const [c0, cSize] = sec.get(2);
    const cons = r1cs.subarray(c0, c0 + cSize);
    const term = 4 + n8;
    const chunks = [];
    let consBytes = 0;
    for (let i = 0; i < links; i++) {
        const map = mapper(i);
        const out = Buffer.allocUnsafe(cSize);
        let p = 0;
        let q = 0;
        for (let c = 0; c < nConstraints * 3; c++) {
            const nt = cons.readUInt32LE(p);
            const ws = new Array(nt);
            let sorted = true;
            for (let t = 0; t < nt; t++) {
                ws[t] = map(cons.readUInt32LE(p + 4 + t * term));
                if (t > 0 && ws[t] <= ws[t - 1]) sorted = false;
            }
            if (sorted) {
                out.writeUInt32LE(nt, q);
                for (let t = 0; t < nt; t++) {
                    const s = p + 4 + t * term;
                    const d = q + 4 + t * term;
                    out.writeUInt32LE(ws[t], d);
                    cons.copy(out, d + 4, s + 4, s + term);
                }
                q += 4 + nt * term;
            } else {
                const sum = new Map();
                for (let t = 0; t < nt; t++) {
                    const s = p + 4 + t * term;
                    const v = leToBig(cons.subarray(s + 4, s + term));
                    sum.set(ws[t], ((sum.get(ws[t]) || 0n) + v) % prime);
                }
                const keep = [...sum.entries()].filter(([, v]) => v !== 0n).sort((a, b) => a[0] - b[0]);
                out.writeUInt32LE(keep.length, q);
                q += 4;
                for (const [w, v] of keep) {
                    out.writeUInt32LE(w, q);
                    bigToLe(v, n8).copy(out, q + 4);
                    q += term;
                }
            }
            p += 4 + nt * term;
        }
        if (p !== cSize) die(`${r1csFile}: constraints section is ${cSize} bytes, read ${p}`);
        chunks.push(out.subarray(0, q));
        consBytes += q;
    }

    const u32 = (v) => {
        const b = Buffer.alloc(4);
        b.writeUInt32LE(v);
        return b;
    };
    const u64 = (v) => {
        const b = Buffer.alloc(8);
        b.writeBigUInt64LE(BigInt(v));
        return b;
    };
    const secHead = (type, size) => Buffer.concat([u32(type), u64(size)]);

    let fd = fs.openSync(outR1cs + ".tmp", "w");
    const put = (b) => fs.writeSync(fd, b);
    put(Buffer.concat([Buffer.from("r1cs", "latin1"), u32(1), u32(3)]));
    put(secHead(1, 4 + n8 + 4 * 4 + 8 + 4));
    put(Buffer.concat([u32(n8), primeBytes, u32(total), u32(1), u32(0), u32(1), u64(total), u32(links * nConstraints)]));
    put(secHead(2, consBytes));
    for (const b of chunks) put(b);
    put(secHead(3, total * 8));
    const labels = Buffer.alloc(1 << 20);
    for (let w = 0; w < total; ) {
        const n = Math.min(total - w, labels.length / 8);
        for (let j = 0; j < n; j++) labels.writeBigUInt64LE(BigInt(w + j), j * 8);
        put(labels.subarray(0, n * 8));
        w += n;
    }
    fs.closeSync(fd);
    chunks.length = 0;

    // The witness, link by link.
    const builder = require(path.resolve(dir, "link_js", "witness_calculator.js"));
    const wc = await builder(fs.readFileSync(path.join(dir, "link_js", "link.wasm")));
    const wtns = Buffer.alloc(total * n8);
    bigToLe(1n, n8).copy(wtns, 0);
    bigToLe(x % prime, n8).copy(wtns, 2 * n8);
    let hin = x % prime;
    for (let i = 0; i < links; i++) {
        const w = Buffer.from(await wc.calculateBinWitness({ x: x.toString(), hin: hin.toString() }, true));
        if (w.length !== wires * n8) die(`link witness has ${w.length / n8} values for ${wires} wires`);
        const at = (k) => leToBig(w.subarray(k * n8, (k + 1) * n8));
        if (at(0) !== 1n || at(2) !== x % prime || at(3) !== hin)
            die(`link ${i + 1}'s witness does not hold ONE, x and hin as wires 0, 2 and 3`);
        const map = mapper(i);
        for (let k = 0; k < wires; k++) if (k !== 2 && k !== 3 && k !== 0) w.copy(wtns, map(k) * n8, k * n8, (k + 1) * n8);
        hin = at(1);
    }
    fd = fs.openSync(outWtns + ".tmp", "w");
    put(Buffer.concat([Buffer.from("wtns", "latin1"), u32(2), u32(2)]));
    put(secHead(1, 4 + n8 + 4));
    put(Buffer.concat([u32(n8), primeBytes, u32(total)]));
    put(secHead(2, total * n8));
    put(wtns);
    fs.closeSync(fd);
    fs.renameSync(outR1cs + ".tmp", outR1cs);
    fs.renameSync(outWtns + ".tmp", outWtns);
    process.stderr.write(
        `circom_chain_join: ${links} links, ${links * nConstraints} constraints, ${total} wires, out ${hin}\n`,
    );
}

main().catch((e) => die(e.stack || String(e)));
