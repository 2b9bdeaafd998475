#!/usr/bin/env bash
# Interop with snarkjs in both directions on the BN254 circom fixtures
# (circom's default curve, snarkjs's "bn128"; interop_lib.sh says what is
# checked): cuzk's proofs pass `snarkjs groth16 verify`, snarkjs's pass
# `cuzk verify`, changed public inputs fail both.
# Usage: test_cli_interop_bn254.sh path/to/cuzk
cuzk=$1
tag=bn128
r=21888242871839275222246405745257275088548364400416034343698204186575808495617
. "$(dirname "$0")/interop_lib.sh"
