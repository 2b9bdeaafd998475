#!/usr/bin/env bash
# Where the device MSM's time goes, for bench/gpu.sh's CUZK_GPU_AFTER hook
# (BUILD: the build folder, OUT: the output folder):
#   CUZK_GPU_TARGETS="bench_cuda_msm" CUZK_GPU_TESTS=none CUZK_GPU_BENCHES=" " \
#   CUZK_GPU_AFTER="bash bench/gpu_msm_profile.sh" bash bench/gpu.sh
# Writes to $OUT:
#   msm_resources.txt   registers, shared memory and spills of each MSM kernel
#   msm_ncu_<case>.csv  per-kernel device time (Nsight Compute, clocks left alone)
#   msm_sweep.jsonl     bench_cuda_msm at each window size c around the plan's
# Nsight Compute replays each kernel, so its times are for one launch each;
# the sweep's are the whole call's, as bench_cuda_msm measures it.
# Environment: MSM_PROFILE_CASES ("group:log_n" words; default g1:24 g2:22),
# MSM_SWEEP ("group:log_n:c_lo:c_hi" words).
set -uo pipefail
: "${BUILD:?}" "${OUT:?}"
bench=$BUILD/bench_cuda_msm
[ -x "$bench" ] || { echo "gpu_msm_profile: no $bench" >&2; exit 1; }
status=0

lib=$(find "$BUILD" -name 'libcuzk_cuda*' | head -n 1)
if [ -n "$lib" ] && command -v cuobjdump >/dev/null 2>&1; then
    cuobjdump --dump-resource-usage "$lib" 2>&1 | grep -B1 -E 'REG:' |
        grep -E 'msm|REG' >"$OUT/msm_resources.txt" || true
fi

ncu_bin=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -n 1)
for cs in ${MSM_PROFILE_CASES:-g1:24 g2:22}; do
    IFS=: read -r g k <<<"$cs"
    if [ -z "$ncu_bin" ]; then
        echo "gpu_msm_profile: ncu not found" >&2
        break
    fi
    "$ncu_bin" --clock-control none --csv --log-file "$OUT/msm_ncu_${g}_${k}.csv" \
        --metrics gpu__time_duration.sum,launch__registers_per_thread,launch__grid_size,launch__block_size,sm__warps_active.avg.pct_of_peak_sustained_active \
        "$bench" --group "$g" --log-n "$k" --runs 1 >/dev/null || status=1
done

: >"$OUT/msm_sweep.jsonl"
for sw in ${MSM_SWEEP:-g1:24:15:22 g1:26:18:22 g2:20:12:17 g2:22:14:19}; do
    IFS=: read -r g k lo hi <<<"$sw"
    for ((c = lo; c <= hi; c++)); do
        "$bench" --group "$g" --log-n "$k" --c "$c" --runs 3 | grep '^{' >>"$OUT/msm_sweep.jsonl" || status=1
    done
done
exit $status
