#!/usr/bin/env bash
# A fresh cluster's first minutes (run from the repository root, Tessera built; results in
# docs/benchmarks/2026-11-30-warm-up.md): on a fresh `tessera local --data-servers 9`, bench ior
# RS 6+3 (1 client, 1 GiB, 4 MiB transfers) with no warm-up, six timed passes; then the same again
# from a new client JVM on the now warm cluster, to tell the client's warm-up from the servers'.
# ROUNDS rounds (default 2), each on a cluster of its own. Extra arguments go to tessera local.
set -euo pipefail
source docs/benchmarks/local-cluster.sh
T="./tessera"
export TESSERA_SKIP_BUILD=1
D=/tmp/warm-up
ROUNDS=${1:-2}
shift || true
trap 'stop_cluster 2>/dev/null || true' EXIT
ior() {
  $T bench ior --meta "$META" --credentials $D/admin.credentials --ec 6+3 --block 1G \
    --transfer 4M --warmup 0 --runs 6 --no-verify 2>&1 | grep -E "^  run|^(write|read)"
}
for round in $(seq "$ROUNDS"); do
  start_cluster $D "$@"
  echo "== round $round, fresh cluster, new client ($(uptime))"
  ior
  echo "== round $round, same cluster, another new client ($(uptime))"
  ior
  stop_cluster
done
rm -rf $D $D.out
