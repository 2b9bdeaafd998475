# Shared by tests/service/test_*.sh: a scratch folder, development
# parameters for the smallest built-in circuit, starting and stopping a real
# `cuzk serve`, and checks that count passes and failures.
# The sourcing script sets cuzk (the binary) first.
tmp=$(mktemp -d)
server_pids=()
cleanup() {
    for pid in "${server_pids[@]}"; do kill -9 "$pid" 2>/dev/null; done
    # A failed run shows its servers' last words: the folder goes with it.
    if [ "$failed" -gt 0 ]; then
        for log in "$tmp"/*.log; do
            [ -f "$log" ] || continue
            echo "--- the last lines of ${log##*/}"
            tail -n 40 "$log" | sed 's/^/    /'
        done
    fi
    rm -rf "$tmp"
}
trap cleanup EXIT
export CUZK_CACHE_DIR=$tmp/cache
export CUZK_SOCKET=$tmp/s.sock
# The job store (server.state_dir) of every server a test starts.
export XDG_STATE_HOME=$tmp/state
unset CUZK_URL CUZK_TOKEN_FILE
fixtures=$(cd "$(dirname "${BASH_SOURCE[0]}")/../fixtures/circom" && pwd)
passed=0
failed=0

pass() { passed=$((passed + 1)); }
fail() {
    failed=$((failed + 1))
    echo "FAIL: $*"
}
# check NAME WANT_EXIT COMMAND...: the command's output goes to $tmp/out.
check() {
    local name=$1 want=$2
    shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"
    local got=$?
    if [ "$got" -eq "$want" ]; then
        pass
    else
        fail "$name: exit $got, expected $want"
        sed 's/^/    out: /' "$tmp/out" | head -20
        sed 's/^/    err: /' "$tmp/err" | head -20
    fi
}
# expect NAME FILE TEXT: FILE contains TEXT (fixed string).
expect() {
    if grep -qF -- "$3" "$2"; then pass; else
        fail "$1: $2 lacks '$3'"
        sed 's/^/    /' "$2" | head -20
    fi
}
# is NAME GOT WANT
is() {
    if [ "$2" = "$3" ]; then pass; else fail "$1: got '$2', expected '$3'"; fi
}
# field KEY < JSON: the first value of KEY (strings without quotes).
field() {
    sed -n 's/.*"'"$1"'":\("[^"]*"\|[^,}]*\).*/\1/p' | head -1 | tr -d '"'
}
finish() {
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ]
}

# The built-in circuit at its smallest size, and a configuration file
# registering it (p10) and the circom chain fixture (chain).
make_params() {
    "$cuzk" setup --log-constraints 10 --params "$tmp/k10.params" >/dev/null 2>&1 ||
        { echo "FAIL: cuzk setup failed (a broken setup is a failure, not a skip)"; exit 1; }
}
# verify_seeds NAME FIRST_SEED PROOF_FILE PARTITIONS: the built-in
# circuit's proofs (make_params) verify for their seeds.
verify_seeds() {
    check "$1" 0 "$cuzk" verify --builtin --log-constraints 10 --params "$tmp/k10.params" \
        --seed "$2" "$3"
    expect "$1: $4 proofs" "$tmp/out" "$4 partition proofs are valid"
}
# same_answer NAME ID PROOF_JSON PUBLIC_JSON: awaiting the circom job ID
# answers these very files.
same_answer() {
    check "$1: the same files" 0 "$cuzk" await "$2" --proof-out "$tmp/again.json" \
        --public-out "$tmp/again-public.json"
    check "$1: same proof.json" 0 cmp "$3" "$tmp/again.json"
    check "$1: same public.json" 0 cmp "$4" "$tmp/again-public.json"
}
write_config() { # path, extra lines for [engine]
    cat >"$1" <<EOF
[engine]
backend = cpu
$2
[server]
socket = $tmp/s.sock
[circuit p10]
kind = builtin
log_constraints = 10
params = $tmp/k10.params
[circuit chain]
kind = zkey
zkey = $fixtures/chain_bls12381.zkey
EOF
}

# start_server LOG ARGS...: starts cuzk serve and waits until it answers;
# server_pid is its pid.
start_server() {
    local log=$1
    shift
    "$cuzk" serve "$@" >"$log" 2>&1 &
    server_pid=$!
    server_pids+=("$server_pid")
    for _ in $(seq 1 200); do
        if "$cuzk" api GET /v1/health >/dev/null 2>&1; then return 0; fi
        if ! kill -0 "$server_pid" 2>/dev/null; then break; fi
        sleep 0.05
    done
    echo "FAIL: the server did not start"
    sed 's/^/    /' "$log"
    exit 1
}
# stop_server [SIGNAL]: signals it and waits; server_rc is its exit code.
stop_server() {
    kill -"${1:-TERM}" "$server_pid"
    # (braces: bash's "Killed" notice for SIGKILL goes to /dev/null too)
    { wait "$server_pid"; } 2>/dev/null
    server_rc=$?
}

# tcp_port LOG: the TCP port the server logged.
tcp_port() { sed -n 's/.*listening on tcp:127.0.0.1:\([0-9]*\).*/\1/p' "$1" | head -1; }
# stop_server_within SECONDS [SIGNAL]: as stop_server, but a server still
# running after SECONDS is a failure (then killed).
stop_server_within() {
    kill -"${2:-TERM}" "$server_pid"
    for _ in $(seq 1 $(($1 * 20))); do
        kill -0 "$server_pid" 2>/dev/null || break
        sleep 0.05
    done
    if kill -0 "$server_pid" 2>/dev/null; then
        fail "the server did not stop within $1 s of SIG${2:-TERM}"
        kill -9 "$server_pid"
    fi
    { wait "$server_pid"; } 2>/dev/null
    server_rc=$?
}
# Several hosts of one test, host hN on the socket $tmp/hN.sock:
# at N COMMAND... runs the command against host hN.
at() {
    local n=$1
    shift
    CUZK_SOCKET=$tmp/h$n.sock "$@"
}
# host_ready N PID: host hN (process PID) answers its health check within
# 15 s, or the test ends with its log.
host_ready() {
    for _ in $(seq 1 300); do
        if at "$1" "$cuzk" api GET /v1/health >/dev/null 2>&1; then return 0; fi
        if ! kill -0 "$2" 2>/dev/null; then break; fi
        sleep 0.05
    done
    echo "FAIL: host h$1 did not start"
    sed 's/^/    /' "$tmp/h$1.log"
    exit 1
}
# need_python: the raw-socket checks are written in python3 (installed by
# scripts/install-deps.sh); without it they fail, not vanish.
need_python() {
    command -v python3 >/dev/null || {
        echo "FAIL: python3 is missing (scripts/install-deps.sh installs it)"
        exit 1
    }
}

# pg_serve_setup [SERVER_LINES]: a real PostgreSQL
# (tests/store/pg_test_server.sh; PG_URL), stopped at exit; the
# parameters (make_params); and $tmp/serve.ini with one synthesis worker
# and one prover, a short lease (a killed server's partitions are claimed
# again 2 s after its last heartbeat) and SERVER_LINES in [server].
pg_serve_setup() {
    source "$(dirname "${BASH_SOURCE[0]}")/../store/pg_test_server.sh"
    trap 'pg_stop; cleanup' EXIT
    pg_start
    make_params
    write_config "$tmp/serve.ini" "synth_workers = 1
workers_per_device = 1"
    sed -i "/^\[server\]/a cluster_lease_s = 2${1:+\n$1}" "$tmp/serve.ini"
}
