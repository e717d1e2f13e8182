#!/usr/bin/env bash
# Creates from 4 threads (three meta replicas unless told), each change its own log entry while at most 8
# are outstanding (tessera.meta.group-commit-above=8, the default before bdc570b) against always one entry in
# flight and the rest gathered into the next (=0), alternating, ROUNDS rounds (default 2), each on
# a fresh tessera local --data-servers 9; further arguments go to tessera local (e.g.
# --meta-replicas 1). Usage: group-commit.sh [ROUNDS] [tessera local options]
# Run from the repository root, Tessera built; results in docs/benchmarks/2026-11-30-same-policy.md.
set -euo pipefail
source docs/benchmarks/local-cluster.sh
ROUNDS=${1:-2}
shift || true
creates_ab "$ROUNDS" tessera.meta.group-commit-above "8 0" "$@"
