#!/usr/bin/env bash
# Creates from 4 threads with three meta replicas, the Raft log fsynced in line (sync) and on a
# thread of its own (tessera.meta.log-async-flush=true), alternating, ROUNDS rounds (default 2),
# each on a fresh tessera local --data-servers 9. Usage: log-flush.sh [ROUNDS]
# Run from the repository root, Tessera built; results in docs/benchmarks/2026-11-30-same-policy.md.
set -euo pipefail
source docs/benchmarks/local-cluster.sh
creates_ab "${1:-2}" tessera.meta.log-async-flush "false true"
