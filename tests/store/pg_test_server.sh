# A real PostgreSQL for the tests, sourced by them: pg_start starts one
# from Debian's binaries (scripts/install-deps.sh installs the package
# postgresql) in a temporary folder, listening only on a unix socket in
# that folder, as the unprivileged user nobody when run as root; it sets
# PG_URL (a postgresql:// URL to the database cuzk). fsync is off (the
# tests need no durability across a machine crash) unless PG_FSYNC=on
# (bench/bench_cluster.sh: production-like figures). The caller runs
# pg_stop at exit (it stops the server, removes the folder). Without the binaries it says so and
# exits 1: the tests that need PostgreSQL fail, they are not skipped.
pg_start() {
    local bin
    bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
    if [ -z "$bin" ] || [ ! -x "$bin/initdb" ] || [ ! -x "$bin/pg_ctl" ]; then
        echo "FAIL: PostgreSQL's initdb and pg_ctl are not installed" \
            "(/usr/lib/postgresql/*/bin): scripts/install-deps.sh installs them" >&2
        exit 1
    fi
    PG_DIR=$(mktemp -d /tmp/cuzk-pg-XXXXXX)
    local as=()
    if [ "$(id -u)" -eq 0 ]; then
        chown nobody:nogroup "$PG_DIR"
        as=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
    fi
    PG_AS=("${as[@]}")
    PG_BIN=$bin
    if ! "${as[@]}" "$bin/initdb" -D "$PG_DIR/data" -U cuzk -A trust --no-sync -E UTF8 \
        >"$PG_DIR/initdb.log" 2>&1; then
        echo "FAIL: initdb failed:" >&2
        cat "$PG_DIR/initdb.log" >&2
        exit 1
    fi
    if ! "${as[@]}" "$bin/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 60 \
        -o "-c listen_addresses='' -c unix_socket_directories=$PG_DIR -c fsync=${PG_FSYNC:-off}" start \
        >/dev/null 2>&1; then
        echo "FAIL: the PostgreSQL server did not start:" >&2
        cat "$PG_DIR/server.log" >&2
        exit 1
    fi
    "${as[@]}" "$bin/createdb" -h "$PG_DIR" -U cuzk cuzk || exit 1
    PG_URL="postgresql:///cuzk?host=$PG_DIR&user=cuzk"
    export PG_URL
}

pg_stop() {
    [ -n "${PG_DIR:-}" ] || return 0
    "${PG_AS[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m immediate -w stop >/dev/null 2>&1
    rm -rf "$PG_DIR"
    PG_DIR=
}
