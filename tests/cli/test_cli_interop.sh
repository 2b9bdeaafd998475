#!/usr/bin/env bash
# Interop with snarkjs in both directions on the BLS12-381 circom fixtures
# (interop_lib.sh says what is checked).
# Usage: test_cli_interop.sh path/to/cuzk
cuzk=$1
tag=bls12381
r=52435875175126190479447740508185965837690552500527637822603658699938581184513
. "$(dirname "$0")/interop_lib.sh"
