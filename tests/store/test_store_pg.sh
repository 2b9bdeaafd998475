#!/usr/bin/env bash
# The PostgreSQL job store against a real server: starts one
# (pg_test_server.sh), and runs store_pg_checks (built next to cuzk) with
# CUZK_TEST_PG set to it. Without PostgreSQL's binaries it fails.
# Usage: test_store_pg.sh path/to/cuzk
set -u
here=$(dirname "$0")
checks=$(dirname "$1")/store_pg_checks
source "$here/pg_test_server.sh"
trap pg_stop EXIT
pg_start
CUZK_TEST_PG=$PG_URL "$checks"
