#!/usr/bin/env bash
# The one command for the GPU machine, run from the repository root there:
# builds the release flavour with CUDA (build/gpu), runs every test (so the
# GPU tests run for real), runs every benchmark that has a GPU part
# (bench_cuda_field, bench_cuda_msm, bench_cuda_ntt, and bench_cuda_prove:
# one partition's phases at 2^24, 2^26, 2^27 on inputs made on the device,
# which spends most of its time making the points; about one to two minutes
# on an H200, estimated), and leaves in $OUT (default ./gpu-out):
#   gpu-log.txt   everything this script printed
#   bench.jsonl   the benchmarks' JSON lines
#   device.txt    what nvidia-smi says about the GPU
#   ctest.txt     the test run alone
#   ctest-summary.txt  the test run in a few lines, ready to be copied into
#                 docs/results/ as it is (e.g. as
#                 docs/results/DATE-h200-COMMIT-ctest.txt): the commit
#                 (CUZK_COMMIT, else the checkout's), the date, the device,
#                 the counts of passed, failed and skipped tests, the names
#                 of the failed and skipped ones, and each skipped test's
#                 own reason (its "SKIPPED:" line)
# Exits non-zero when the build, a test or a benchmark failed, or when a GPU
# test skipped itself on a machine that has a GPU.
#
# Missing build dependencies are installed with apt-get when a package
# registry is reachable. When none is (an offline GPU machine), put the .deb
# files in .gpu-debs/ beside this checkout (on a Debian/Ubuntu machine with
# network: `apt-get download <the packages in DEB_HINT below>`); they are
# unpacked into build/gpu-deps, never into /.
#
# The service (HTTP server, config file, client) is left out there
# (-DCUZK_SERVICE=OFF): its packages are not on the GPU machine.
#
# Environment: OUT (output folder), CUZK_CUDA_ARCH (default 90),
# CUZK_GPU_DEBS (default .gpu-debs), CUZK_GPU_TESTS (a ctest -R regex, to run
# only some tests; default all), CUZK_GPU_BENCH_ARGS (extra arguments for
# every benchmark), CUZK_GPU_CLI_BENCH (argument sets for `cuzk bench`,
# separated by ';', each run after the benchmarks with its output folder in
# $OUT/cli-bench-<i>.tar.gz; leading NAME=VALUE words set the run's
# environment; empty: none), CUZK_COMMIT (the commit written into bench.jsonl's
# lines and the cuzk bench runs' outputs, in place of the one the build
# read: the device's copy of the tree may carry another .git), CUZK_GPU_TARGETS (space-separated build targets;
# default all; with it, CUZK_GPU_TESTS=none runs no test), CUZK_GPU_AFTER (a
# command run last, with BUILD and OUT in its environment: a profiler run),
# CUZK_GPU_CMAKE_ARGS (extra configure arguments, split into words: e.g.
# -DCMAKE_CUDA_FLAGS=-DCUZK_MSM_ACC_MIN_BLOCKS_BN254_G1=5 to measure another
# launch bound).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2

# Benchmark programs (bench/<name>.c) that have a GPU part, run in this order.
# CUZK_GPU_BENCHES (space-separated) overrides the list.
read -r -a GPU_BENCHES <<<"${CUZK_GPU_BENCHES:-bench_cuda_field bench_cuda_msm bench_cuda_ntt bench_cuda_prove}"

# What the build needs, as commands and pkg-config modules, and the Debian
# packages that provide them.
APT_PACKAGES=(cmake pkg-config libcmocka-dev libjansson-dev libxml2-utils)
PC_MODULES=(cmocka)
DEB_HINT="libcmocka0 libcmocka-dev libjansson4 libjansson-dev pkgconf pkgconf-bin libpkgconf3 pkg-config libxml2-utils"

OUT=${OUT:-./gpu-out}
mkdir -p "$OUT" || { echo "gpu.sh: cannot create $OUT" >&2; exit 2; }
OUT=$(cd "$OUT" && pwd)
ARCH=${CUZK_CUDA_ARCH:-90}
DEB_DIR=${CUZK_GPU_DEBS:-.gpu-debs}
BUILD=build/gpu
JOBS=$(nproc 2>/dev/null || echo 4)

say() { printf '== gpu.sh: %s\n' "$*"; }

# ---- dependencies --------------------------------------------------------

missing_deps() {
    local m=()
    command -v cmake >/dev/null 2>&1 || m+=(cmake)
    # test_cli_trace checks the SVG and HTML timelines with xmllint.
    command -v xmllint >/dev/null 2>&1 || m+=(xmllint)
    if command -v pkg-config >/dev/null 2>&1; then
        for mod in "${PC_MODULES[@]}"; do
            pkg-config --exists "$mod" 2>/dev/null || m+=("$mod")
        done
    else
        m+=(pkg-config)
    fi
    echo "${m[@]}"
}

try_apt() {
    command -v apt-get >/dev/null 2>&1 || { say "apt-get is not on this machine"; return 1; }
    local sudo_cmd=""
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null 2>&1 || { say "not root and no sudo: cannot apt-get"; return 1; }
        sudo_cmd="sudo"
    fi
    say "apt-get install -y ${APT_PACKAGES[*]}"
    # Short network timeouts: on an offline machine this should fail fast.
    local opts=(-o Acquire::Retries=0 -o Acquire::http::Timeout=15 -o Acquire::https::Timeout=15)
    timeout 120 $sudo_cmd apt-get "${opts[@]}" update -qq &&
        DEBIAN_FRONTEND=noninteractive timeout 300 $sudo_cmd apt-get "${opts[@]}" install -y -qq \
            "${APT_PACKAGES[@]}"
}

# Unpacks $DEB_DIR/*.deb into build/gpu-deps and points the tools at it.
use_local_debs() {
    compgen -G "$DEB_DIR/*.deb" >/dev/null || return 1
    local prefix
    prefix=$(pwd)/build/gpu-deps
    rm -rf "$prefix" && mkdir -p "$prefix"
    for deb in "$DEB_DIR"/*.deb; do
        say "unpacking $deb into build/gpu-deps"
        dpkg -x "$deb" "$prefix" || return 1
    done
    # The .pc files name /usr (prefix=/usr, -I/usr/include, -L/usr/lib/...);
    # make them name the unpacked tree.
    find "$prefix" -name '*.pc' -exec sed -i -E "s#(=|-I|-L)/usr(/| |\$)#\1$prefix/usr\2#g" {} +
    local pcdirs
    pcdirs=$(find "$prefix" -type d -name pkgconfig | paste -sd: -)
    export PKG_CONFIG_PATH="$pcdirs${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
    export PATH="$prefix/usr/bin:$PATH"
    local libdirs
    libdirs=$(find "$prefix" -type d \( -name lib -o -name 'x86_64-linux-gnu' \) | paste -sd: -)
    export LD_LIBRARY_PATH="$libdirs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    # The linker's search path too: test_api_examples links an example
    # against the static library, whose -ljansson names no folder.
    export LIBRARY_PATH="$libdirs${LIBRARY_PATH:+:$LIBRARY_PATH}"
    export CMAKE_PREFIX_PATH="$prefix/usr${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}"
    if ! command -v pkg-config >/dev/null 2>&1 && [ -x "$prefix/usr/bin/pkgconf" ]; then
        ln -sf pkgconf "$prefix/usr/bin/pkg-config"
    fi
    return 0
}

ensure_deps() {
    local m
    m=$(missing_deps)
    [ -z "$m" ] && return 0
    say "missing: $m"
    if try_apt; then
        m=$(missing_deps)
        [ -z "$m" ] && return 0
    else
        say "apt-get could not install the packages (no package registry reachable from here?)"
    fi
    if use_local_debs; then
        m=$(missing_deps)
        [ -z "$m" ] && { say "using the packages unpacked from $DEB_DIR"; return 0; }
    else
        say "no .deb files in $DEB_DIR to fall back on"
    fi
    say "FAILED: still missing: $m"
    say "install them, or on a machine with a package registry run"
    say "  mkdir -p $DEB_DIR && (cd $DEB_DIR && apt-get download $DEB_HINT)"
    say "and bring $DEB_DIR along with the checkout"
    return 1
}

# ---- the run -------------------------------------------------------------

# The commit this run tests: CUZK_COMMIT, else the checkout's (marked when
# it has local changes), else "unknown".
commit_id() {
    if [ -n "${CUZK_COMMIT:-}" ]; then
        echo "$CUZK_COMMIT"
    elif command -v git >/dev/null 2>&1 && git rev-parse --short HEAD >/dev/null 2>&1; then
        echo "$(git rev-parse --short HEAD)$(git diff --quiet 2>/dev/null || echo ' (with local changes)')"
    else
        echo unknown
    fi
}

# $OUT/ctest-summary.txt from ctest's output ($1) and its log ($2).
write_ctest_summary() {
    local txt=$1 log=$2 device="none found"
    if command -v nvidia-smi >/dev/null 2>&1; then
        device=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | sort | uniq -c |
            sed -E 's/^ *([0-9]+) (.*)/\1 x \2/' | paste -sd, -)
        [ -n "$device" ] || device="nvidia-smi found no GPU"
    fi
    # ctest's lines: "  3/61 Test  #3: test_fr ......   Passed    0.10 sec",
    # "***Failed", "***Skipped", "***Timeout", "***Not Run", "***Exception: ...".
    local results
    results=$(sed -nE 's/^ *[0-9]+\/[0-9]+ +Test +#[0-9]+: +([^ ]+) \.*[ *]*([A-Za-z]+( Run)?).*/\1 \2/p' "$txt")
    local passed failed skipped
    passed=$(awk '$2 == "Passed"' <<<"$results" | wc -l)
    # "Not Run" (the program was not built) counts as a failure.
    skipped=$(awk '$2 == "Skipped"' <<<"$results" | awk '{print $1}' | paste -sd' ' -)
    failed=$(awk '$2 != "Passed" && $2 != "Skipped" && NF' <<<"$results" |
        awk '{print $1}' | paste -sd' ' -)
    {
        echo "# cuzk tests on the GPU machine (bench/gpu.sh, ctest of the release build with CUDA)"
        echo "commit: $(commit_id)"
        echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
        echo "device: $device"
        echo "host: $(uname -n), $JOBS cores; CUDA architectures $ARCH${CUZK_GPU_TESTS:+; tests -R $CUZK_GPU_TESTS}"
        echo "passed: $passed"
        echo "failed: $(wc -w <<<"$failed")${failed:+ ($failed)}"
        echo "skipped: $(wc -w <<<"$skipped")${skipped:+ ($skipped)}"
        echo "total: $(grep -c . <<<"$results")"
        if [ -n "$skipped" ] && [ -f "$log" ]; then
            echo "why skipped:"
            grep -h '^SKIPPED: ' "$log" "${log%.log}-cpu.log" 2>/dev/null | sort -u | sed 's/^/  /'
        fi
    } >"$OUT/ctest-summary.txt"
}

device_facts() {
    if command -v nvidia-smi >/dev/null 2>&1; then
        {
            nvidia-smi -L
            echo
            nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu --format=csv
            echo
            nvidia-smi -q | head -n 80
        } >"$OUT/device.txt" 2>&1
        nvidia-smi -L
    else
        echo "nvidia-smi not found" >"$OUT/device.txt"
        say "nvidia-smi not found"
    fi
    command -v nvcc >/dev/null 2>&1 && nvcc --version | tail -n 2 >>"$OUT/device.txt"
}

main() {
    local status=0
    say "start $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -n), $JOBS cores, output in $OUT"
    say "commit $(commit_id)"
    [ -x /usr/local/cuda/bin/nvcc ] && export PATH="/usr/local/cuda/bin:$PATH"
    device_facts
    if ! command -v nvcc >/dev/null 2>&1; then
        say "FAILED: nvcc not found (a CUDA toolkit is needed to build the GPU backend)"
        return 1
    fi
    ensure_deps || return 1

    say "configure $BUILD (Release, CUDA architectures $ARCH)"
    # A fresh cache each time: dependency paths found by an earlier run (or
    # not found) are cached by CMake; the object files are kept.
    rm -f "$BUILD/CMakeCache.txt"
    # Warnings stay warnings here: the GPU machine's compiler is not CI's, and
    # a new warning there must not cost a measurement (CI keeps -Werror).
    # shellcheck disable=SC2086 # CUZK_GPU_CMAKE_ARGS: words, split on purpose
    cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES="$ARCH" \
        -DCUZK_WERROR=OFF -DCUZK_SERVICE=OFF ${CUZK_GPU_CMAKE_ARGS:-} ||
        { say "FAILED: cmake configure"; return 1; }
    if ! grep -q '^CMAKE_CUDA_COMPILER:[A-Z]*=.\+' "$BUILD/CMakeCache.txt"; then
        say "FAILED: the configure step did not enable CUDA"
        return 1
    fi
    # Keep going past a target that fails to build, so the tests and
    # benchmarks that did build still run; the failure still fails the run.
    local gen keep=()
    gen=$(sed -n 's/^CMAKE_GENERATOR:INTERNAL=//p' "$BUILD/CMakeCache.txt")
    case "$gen" in
    Ninja*) keep=(-- -k 0) ;;
    *Makefiles*) keep=(-- -k) ;;
    esac
    local targets=()
    [ -n "${CUZK_GPU_TARGETS:-}" ] && read -r -a targets <<<"--target $CUZK_GPU_TARGETS"
    say "build -j$JOBS ($gen) ${targets[*]:-(all targets)}"
    if ! cmake --build "$BUILD" -j"$JOBS" "${targets[@]}" "${keep[@]}"; then
        say "FAILED: build (the targets that built are still tested below)"
        status=1
    fi

    local filter=() trc=0
    [ -n "${CUZK_GPU_TESTS:-}" ] && filter=(-R "$CUZK_GPU_TESTS")
    if [ "${CUZK_GPU_TESTS:-}" = none ]; then
        say "ctest: none (CUZK_GPU_TESTS=none)"
        : >"$OUT/ctest.txt"
    else
        # The tests without the GPU in parallel, then the GPU's one at a
        # time: four CUDA test programs at once on one device have failed
        # (docs/PERF.md, "operation not supported on global/shared address
        # space"), and a test should own the device it measures.
        say "ctest ${filter[*]:-(all tests)}: -LE gpu -j$JOBS, then -L gpu -j1"
        {
            (cd "$BUILD" && ctest --output-on-failure -j"$JOBS" -LE gpu "${filter[@]}")
            echo "ctest-rc-cpu $?"
            cp "$BUILD/Testing/Temporary/LastTest.log" "$BUILD/Testing/Temporary/LastTest-cpu.log" 2>/dev/null
            (cd "$BUILD" && ctest --output-on-failure -j1 -L gpu "${filter[@]}")
            echo "ctest-rc-gpu $?"
        } 2>&1 | tee "$OUT/ctest.txt"
        grep -q '^ctest-rc-cpu 0$' "$OUT/ctest.txt" && grep -q '^ctest-rc-gpu 0$' "$OUT/ctest.txt" || trc=1
    fi
    if [ "${CUZK_GPU_TESTS:-}" != none ]; then
        write_ctest_summary "$OUT/ctest.txt" "$BUILD/Testing/Temporary/LastTest.log"
        say "ctest summary ($OUT/ctest-summary.txt):"
        cat "$OUT/ctest-summary.txt"
    fi
    if [ "$trc" -ne 0 ]; then
        say "FAILED: tests"
        status=1
    fi
    if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1 &&
        grep -q 'SKIPPED: test_cuda' "$OUT/ctest.txt" "$BUILD/Testing/Temporary/LastTest.log" \
            "$BUILD/Testing/Temporary/LastTest-cpu.log" 2>/dev/null; then
        say "FAILED: a GPU test skipped itself on a machine with a GPU:"
        grep -h 'SKIPPED: test_cuda' "$BUILD/Testing/Temporary/LastTest.log" 2>/dev/null | sort -u
        status=1
    fi

    : >"$OUT/bench.jsonl"
    for b in "${GPU_BENCHES[@]}"; do
        if [ ! -x "$BUILD/$b" ]; then
            say "FAILED: $BUILD/$b was not built"
            status=1
            continue
        fi
        say "bench $b ${CUZK_GPU_BENCH_ARGS:-}"
        # shellcheck disable=SC2086
        "$BUILD/$b" ${CUZK_GPU_BENCH_ARGS:-} | tee "$OUT/$b.out"
        if [ "${PIPESTATUS[0]}" -ne 0 ]; then
            say "FAILED: $b"
            status=1
        fi
        if [ -n "${CUZK_COMMIT:-}" ]; then
            grep '^{' "$OUT/$b.out" | sed -E "s/\"commit\":\"[^\"]*\"/\"commit\":\"$CUZK_COMMIT\"/" \
                >>"$OUT/bench.jsonl"
        else
            grep '^{' "$OUT/$b.out" >>"$OUT/bench.jsonl"
        fi
        rm -f "$OUT/$b.out"
    done

    local sets i=0
    IFS=';' read -r -a sets <<<"${CUZK_GPU_CLI_BENCH:-}"
    for args in "${sets[@]}"; do
        [ -z "${args// /}" ] && continue
        i=$((i + 1))
        # Leading NAME=VALUE words are the run's environment.
        local envs=() rest=() w dir="$OUT/cli-bench-$i"
        for w in $args; do
            if [ ${#rest[@]} -eq 0 ] && [[ "$w" == [A-Za-z_]*=* ]]; then envs+=("$w"); else rest+=("$w"); fi
        done
        mkdir -p "$dir"
        say "cli-bench-$i: ${envs[*]:-} cuzk bench ${rest[*]} --out $dir"
        local timer=()
        [ -x /usr/bin/time ] && timer=(/usr/bin/time -v)
        env "${envs[@]}" "${timer[@]}" "$BUILD/cuzk" bench "${rest[@]}" --out "$dir" \
            >"$dir/stdout.txt" 2>"$dir/stderr.txt"
        local rc=$?
        # The device copy's .git may name another commit than the tree's:
        # CUZK_COMMIT, when given, replaces the one the build read.
        if [ -n "${CUZK_COMMIT:-}" ]; then
            local f
            for f in "$dir/stdout.txt" "$dir/bench.jsonl"; do
                [ -f "$f" ] && sed -i -E "s/\"commit\":\"[^\"]*\"/\"commit\":\"$CUZK_COMMIT\"/" "$f"
            done
        fi
        cat "$dir/stdout.txt"
        tail -n 60 "$dir/stderr.txt"
        if [ "$rc" -ne 0 ]; then
            say "FAILED: cuzk bench ${rest[*]} (exit $rc)"
            status=1
        fi
        grep '^{' "$dir/stdout.txt" | sed -E "s/^\{/{\"run\":\"cli-bench-$i\",/" >>"$OUT/bench.jsonl"
        # One file per run comes back from the device machine (it returns
        # at most eight).
        tar -czf "$OUT/cli-bench-$i.tar.gz" -C "$OUT" "cli-bench-$i" && rm -rf "$dir"
    done

    if [ -n "${CUZK_GPU_AFTER:-}" ]; then
        say "after: $CUZK_GPU_AFTER"
        (export BUILD OUT && eval "$CUZK_GPU_AFTER") || { say "FAILED: CUZK_GPU_AFTER"; status=1; }
    fi

    say "summary"
    grep -E 'tests passed|tests failed|Skipped|Failed|Not Run' "$OUT/ctest.txt" || true
    if [ -s "$OUT/bench.jsonl" ]; then
        sed -E 's/.*"op":"([^"]*)".*"muls_per_sec":([^,]*),"ns_per_mul_per_sm":([^,]*),.*/  \1: \2 per second, \3 ns per op per SM/' \
            "$OUT/bench.jsonl" | grep -v '^{' || true
        grep -v '"bench":"cuda_field"' "$OUT/bench.jsonl" || true
    fi
    if [ "$status" -eq 0 ]; then say "OK"; else say "FAILED (see above)"; fi
    return "$status"
}

main 2>&1 | tee "$OUT/gpu-log.txt"
exit "${PIPESTATUS[0]}"
