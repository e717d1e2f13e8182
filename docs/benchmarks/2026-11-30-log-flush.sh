#!/usr/bin/env bash
# Creates from 4 threads with three meta replicas, the Raft log fsynced in line (sync) and on a
# thread of its own (tessera.meta.log-async-flush=true), alternating, ROUNDS rounds (default 2),
# each on a fresh tessera local --data-servers 9. Usage: log-flush.sh [ROUNDS]
# Run from the repository root, Tessera built; results in docs/benchmarks/2026-11-30-same-policy.md.
set -euo pipefail
source docs/benchmarks/local-cluster.sh
export TESSERA_SKIP_BUILD=1
D=/tmp/log-flush
trap 'stop_cluster 2>/dev/null || true' EXIT
for round in $(seq "${1:-2}"); do
  for async in false true; do
    start_cluster $D -Dtessera.meta.log-async-flush=$async
    echo "== log-async-flush $async, round $round ($(uptime))"
    ./tessera bench meta --meta "$META" --credentials $D/admin.credentials --threads 4 \
      --files 5000 --warmup 5000 --warmup-passes 2 2>/dev/null | grep -E "^(warm|creates|stats|removes)"
    stop_cluster
  done
done
rm -rf $D $D.out
