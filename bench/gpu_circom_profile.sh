#!/usr/bin/env bash
# Where a circom-shaped proof's device time goes, kernel by kernel: one
# `cuzk prove --backend cuda` of a chain circuit made by bench/gpu_circom.sh
# (run it first with CUZK_CIRCOM_KEEP=1) under Nsight Compute, every MSM
# kernel's device time (clocks left alone), summed per kernel name and per
# proof phase (the kernels run in the plan's order: h, then the MSM groups).
#
#   CUZK_CIRCOM_KEEP=1 CUZK_GPU_AFTER='bench/gpu_circom.sh; bench/gpu_circom_profile.sh' bench/gpu.sh
#
# Writes $OUT/circom_ncu_k<K>.csv (Nsight Compute's rows) and
# $OUT/circom_ncu_k<K>.txt (milliseconds per kernel name, in launch order of
# first appearance). Environment: BUILD, OUT, CUZK_CIRCOM_SIZES (as
# gpu_circom.sh; the first size is profiled), CUZK_CIRCOM_WORK.
set -uo pipefail
export LC_ALL=C
cd "$(dirname "$0")/.." || exit 2
BUILD=${BUILD:-build/gpu}
BUILD=$(cd "$BUILD" 2>/dev/null && pwd) || { echo "gpu_circom_profile.sh: no build folder" >&2; exit 2; }
OUT=${OUT:-./gpu-out}
mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd) || exit 2
read -r -a sizes <<<"${CUZK_CIRCOM_SIZES:-20}"
k=${sizes[0]}
work=${CUZK_CIRCOM_WORK:-$BUILD/circom-chain}
d=$work/k$k
[ -s "$d/chain.zkey" ] && [ -s "$d/chain-0.wtns" ] ||
    { echo "gpu_circom_profile.sh: no kept circuit in $d (CUZK_CIRCOM_KEEP=1 bench/gpu_circom.sh first)" >&2; exit 1; }
ncu_bin=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -n 1)
[ -n "$ncu_bin" ] || { echo "gpu_circom_profile.sh: ncu not found" >&2; exit 1; }
csv=$OUT/circom_ncu_k$k.csv
"$ncu_bin" --clock-control none --csv --log-file "$csv" \
    --metrics gpu__time_duration.sum,launch__grid_size,launch__block_size,launch__registers_per_thread \
    "$BUILD/cuzk" prove --backend cuda "$d/chain.zkey" "$d/chain-0.wtns" "$d/prof-proof.json" \
    "$d/prof-public.json" >"$OUT/circom_ncu_k$k.log" 2>&1
rc=$?
# Rows: "ID","Process ID","Process Name","Host Name","Kernel Name",...,"Metric Name","Metric Unit","Metric Value"
python3 - "$csv" >"$OUT/circom_ncu_k$k.txt" <<'EOF'
import csv, sys, collections
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
if not rows:
    sys.exit("no rows")
hdr = rows[0]
ki, mi, ui, vi, ii = (hdr.index("Kernel Name"), hdr.index("Metric Name"), hdr.index("Metric Unit"),
                      hdr.index("Metric Value"), hdr.index("ID"))
per = collections.OrderedDict()
seq = []
for r in rows[1:]:
    if r[mi] != "gpu__time_duration.sum":
        continue
    v = float(r[vi].replace(",", ""))
    scale = {"nsecond": 1e-6, "usecond": 1e-3, "msecond": 1.0, "second": 1e3}.get(r[ui], 1e-6)
    name = r[ki].split("(")[0]
    per.setdefault(name, [0, 0.0])
    per[name][0] += 1
    per[name][1] += v * scale
    seq.append((int(r[ii]), name, v * scale))
print("kernel launches count ms_total")
for n, (c, t) in per.items():
    print(f"{n} {c} {t:.3f}")
print(f"total {sum(t for _, t in per.values()):.3f} ms")
print("launch order: id kernel ms")
for i, n, t in seq:
    print(i, n, f"{t:.3f}")
EOF
cat "$OUT/circom_ncu_k$k.txt" | head -60
exit "$rc"
