#!/usr/bin/env bash
# Creates from 4 threads with three meta replicas, for each tessera.meta.append-wait of WAITS (the
# least time between two sends of log entries to a follower; Ratis's own default is 1 ms; default
# WAITS "10ms 0ms"), alternating, ROUNDS rounds (default 2), each on a fresh tessera local
# --data-servers 9. Usage: append-wait.sh [ROUNDS] [WAITS]
# Run from the repository root, Tessera built; results in docs/benchmarks/2026-11-30-same-policy.md.
set -euo pipefail
source docs/benchmarks/local-cluster.sh
creates_ab "${1:-2}" tessera.meta.append-wait "${2:-10ms 0ms}"
