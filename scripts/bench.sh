#!/usr/bin/env bash
# The main job: installs what is missing, builds the release flavour and runs
# `cuzk bench` on its built-in default. Extra arguments go to `cuzk bench`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh release
exec build/release/cuzk bench "$@"
