#!/usr/bin/env bash
# Creates from 4 threads with three meta replicas, for each tessera.meta.append-wait of WAITS (the
# least time between two sends of log entries to a follower; Ratis's own default is 1 ms; default
# WAITS "10ms 0ms"), alternating, ROUNDS rounds (default 2), each on a fresh tessera local
# --data-servers 9. Usage: append-wait.sh [ROUNDS] [WAITS]
# Run from the repository root, Tessera built; results in docs/benchmarks/2026-11-30-same-policy.md.
set -euo pipefail
source docs/benchmarks/local-cluster.sh
export TESSERA_SKIP_BUILD=1
D=/tmp/append-wait
trap 'stop_cluster 2>/dev/null || true' EXIT
for round in $(seq "${1:-2}"); do
  for wait in ${2:-10ms 0ms}; do
    start_cluster $D -Dtessera.meta.append-wait=$wait
    echo "== append-wait $wait, round $round ($(uptime))"
    ./tessera bench meta --meta "$META" --credentials $D/admin.credentials --threads 4 \
      --files 5000 --warmup 5000 --warmup-passes 2 2>/dev/null | grep -E "^(warm|creates|stats|removes)"
    stop_cluster
  done
done
rm -rf $D $D.out
