#!/usr/bin/env bash
# cuzk serve end to end, server-side witness files (witness_paths): with
# server.witness_dir a path inside the folder (relative to it or absolute,
# through a link that stays inside) is proved over the Unix socket and over
# TCP; "..", a link pointing out, an absolute path outside (403), a missing
# file and a folder (400) are refused naming the entry. Without it, TCP
# refuses witness_paths (403, naming the key) and the Unix socket takes
# any readable path. A witness_dir that does not exist stops the start.
# Usage: test_service_witness_dir.sh path/to/cuzk
set -u
cuzk=$1
source "$(dirname "$0")/lib.sh"
make_params
write_config "$tmp/serve.ini" "synth_workers = 1"
printf 'test-token-0123456789abcdef\n' >"$tmp/token"
chmod 600 "$tmp/token"
wtns=$fixtures/chain_bls12381.wtns
mkdir -p "$tmp/wit/sub" "$tmp/outside" "$tmp/wit2"
cp "$wtns" "$tmp/wit/a.wtns"
cp "$wtns" "$tmp/wit/sub/b.wtns"
cp "$wtns" "$tmp/outside/o.wtns"
cp "$wtns" "$tmp/wit2/x.wtns"
ln -s "$tmp/outside/o.wtns" "$tmp/wit/out-link.wtns"
ln -s a.wtns "$tmp/wit/in-link.wtns"

# tcp_port LOG: the port the server logged.
tcp_port() { sed -n 's/.*listening on tcp:127.0.0.1:\([0-9]*\).*/\1/p' "$1"; }
# submit_paths NAME JSON-ARRAY [client options]: submits the chain circuit
# with these witness_paths and awaits the job, which must be proved.
submit_paths() {
    local name=$1 paths=$2
    shift 2
    check "$name: accepted" 0 "$cuzk" api "$@" POST /v1/jobs \
        --data "{\"circuit\":\"chain\",\"witness_paths\":$paths}"
    local id
    id=$(field id <"$tmp/out")
    check "$name: proved" 0 "$cuzk" await "$@" "$id" --timeout 60
    expect "$name: done" "$tmp/out" '"state":"done"'
}
# refused NAME STATUS FIELD TEXT JSON-ARRAY [client options]
refused() {
    local name=$1 status=$2 fld=$3 text=$4 paths=$5
    shift 5
    check "$name" 1 "$cuzk" api "$@" POST /v1/jobs \
        --data "{\"circuit\":\"chain\",\"witness_paths\":$paths}"
    expect "$name: status" "$tmp/err" "HTTP $status"
    expect "$name: field" "$tmp/out" "\"field\":\"$fld\""
    expect "$name: message" "$tmp/out" "$text"
}

# ------------------------------------------------ with a witness folder
# Given through a link and "..", so the server must resolve it too.
ln -s "$tmp/wit" "$tmp/wit-link"
start_server "$tmp/dir.log" --config "$tmp/serve.ini" --tcp 127.0.0.1:0 \
    --token-file "$tmp/token" --witness-dir "$tmp/wit-link/sub/.."
expect "the folder is logged resolved" "$tmp/dir.log" "witness_paths must lie in $tmp/wit"
tcp=(--url "http://127.0.0.1:$(tcp_port "$tmp/dir.log")" --token-file "$tmp/token")

submit_paths "relative, Unix socket" '["a.wtns","sub/b.wtns"]'
submit_paths "relative, TCP" '["a.wtns"]' "${tcp[@]}"
submit_paths "absolute inside, TCP" "[\"$tmp/wit/sub/b.wtns\"]" "${tcp[@]}"
submit_paths "a link inside to inside" '["in-link.wtns"]'
submit_paths "dot-dot staying inside" '["sub/../a.wtns"]'
check "the client's --witness (absolute) inside" 0 "$cuzk" submit --circuit chain \
    --witness "$tmp/wit/a.wtns" --wait
expect "the client's --witness: done" "$tmp/out" '"state":"done"'

refused "../ escape" 403 'witness_paths[1]' "is outside the witness folder" \
    '["a.wtns","../outside/o.wtns"]'
refused "../ escape over TCP" 403 'witness_paths[0]' "is outside the witness folder" \
    '["sub/../../outside/o.wtns"]' "${tcp[@]}"
refused "../ escape to a missing file (no existence oracle)" 403 'witness_paths[0]' \
    "is outside the witness folder" '["../outside/missing.wtns"]'
refused "a link pointing outside" 403 'witness_paths[1]' "is outside the witness folder" \
    '["a.wtns","out-link.wtns"]'
refused "absolute outside" 403 'witness_paths[0]' "is outside the witness folder" \
    "[\"$tmp/outside/o.wtns\"]"
refused "absolute outside over TCP" 403 'witness_paths[0]' "is outside the witness folder" \
    "[\"$tmp/outside/o.wtns\"]" "${tcp[@]}"
refused "the folder's neighbour with a common prefix" 403 'witness_paths[0]' \
    "is outside the witness folder" "[\"$tmp/wit2/x.wtns\"]"
refused "missing" 400 'witness_paths[2]' "cannot resolve nope.wtns in the witness folder" \
    '["a.wtns","a.wtns","nope.wtns"]'
refused "a folder" 400 'witness_paths[0]' "sub is not a regular file" '["sub"]'
if [ "$(id -u)" -ne 0 ]; then
    cp "$wtns" "$tmp/wit/locked.wtns"
    chmod 000 "$tmp/wit/locked.wtns"
    refused "unreadable" 400 'witness_paths[0]' "cannot read locked.wtns" '["locked.wtns"]'
fi
stop_server TERM
is "clean exit with a witness folder" "$server_rc" 0

# ------------------------------------------------ an unreadable witness, as root
# Root reads every file, so the case runs with a server of an unprivileged
# user (nobody), in a folder of its own that user may enter.
if [ "$(id -u)" -eq 0 ]; then
    if command -v setpriv >/dev/null && id nobody >/dev/null 2>&1; then
        nb=$(mktemp -d)
        chmod 755 "$nb"
        mkdir "$nb/run" "$nb/wit"
        chown nobody "$nb/run"
        cp "$fixtures/chain_bls12381.zkey" "$nb/chain.zkey"
        cp "$wtns" "$nb/wit/locked.wtns"
        chmod 000 "$nb/wit/locked.wtns"
        chmod 644 "$nb/chain.zkey"
        printf '[engine]\nbackend = cpu\n[server]\nsocket = %s\n[circuit chain]\nkind = zkey\nzkey = %s\n' \
            "$nb/run/s.sock" "$nb/chain.zkey" >"$nb/serve.ini"
        setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups \
            env CUZK_CACHE_DIR="$nb/run/cache" "$cuzk" serve --config "$nb/serve.ini" \
            --witness-dir "$nb/wit" --state-dir "$nb/run/state" >"$nb/run/serve.log" 2>&1 &
        server_pid=$!
        server_pids+=("$server_pid")
        for _ in $(seq 1 200); do
            "$cuzk" api --socket "$nb/run/s.sock" GET /v1/health >/dev/null 2>&1 && break
            sleep 0.05
        done
        refused "unreadable (a server of user nobody)" 400 'witness_paths[0]' \
            "cannot read locked.wtns" '["locked.wtns"]' --socket "$nb/run/s.sock"
        stop_server TERM
        is "clean exit of nobody's server" "$server_rc" 0
        rm -rf "$nb"
    else
        echo "SKIPPED (visibly): the unreadable-file case needs setpriv and a user nobody as root"
    fi
fi

# ------------------------------------------------ without a witness folder
start_server "$tmp/nodir.log" --config "$tmp/serve.ini" --tcp 127.0.0.1:0 --token-file "$tmp/token"
expect "the refusal over TCP is logged" "$tmp/nodir.log" "witness_paths refused over TCP"
tcp=(--url "http://127.0.0.1:$(tcp_port "$tmp/nodir.log")" --token-file "$tmp/token")
refused "TCP without a witness folder" 403 witness_paths "must set server.witness_dir" \
    "[\"$tmp/wit/a.wtns\"]" "${tcp[@]}"
expect "names the option" "$tmp/out" "--witness-dir"
check "the client's --witness over TCP" 1 "$cuzk" submit "${tcp[@]}" --circuit chain \
    --witness "$tmp/wit/a.wtns"
expect "the client's --witness over TCP: 403" "$tmp/err" "HTTP 403"
submit_paths "Unix socket without a witness folder: any readable path" \
    "[\"$tmp/outside/o.wtns\",\"$tmp/wit/out-link.wtns\"]"
check "a streamed witness over TCP still works" 0 "$cuzk" submit "${tcp[@]}" --circuit chain \
    --witness-stream "$wtns" --wait
expect "streamed over TCP: done" "$tmp/out" '"state":"done"'
stop_server TERM
is "clean exit without a witness folder" "$server_rc" 0

# ------------------------------------------------ a bad witness folder
check "a missing witness folder" 1 "$cuzk" serve --config "$tmp/serve.ini" \
    --witness-dir "$tmp/nowhere"
expect "says which key" "$tmp/err" "[server] witness_dir $tmp/nowhere"
check "a file as witness folder" 1 "$cuzk" serve --config "$tmp/serve.ini" \
    --witness-dir "$tmp/wit/a.wtns"
expect "says it is no folder" "$tmp/err" "is not a folder"
finish
