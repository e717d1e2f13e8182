#!/usr/bin/env bash
# A restarted cluster's first pass: on a fresh tessera local --data-servers 9, bench ior RS 6+3
# (1 client, 1 GiB, 4 MiB transfers, no warm-up, six timed passes); then the whole cluster stopped
# and started again on the same directory, and the same six passes from a new client. The data
# servers keep their spare value files across the restart (53efea1). ROUNDS rounds (default 2).
# Results in docs/benchmarks/2026-11-30-warm-up.md.
set -euo pipefail
source docs/benchmarks/local-cluster.sh
export TESSERA_SKIP_BUILD=1
D=/tmp/warm-restart
trap 'stop_cluster 2>/dev/null || true' EXIT
ior() {
  ./tessera bench ior --meta "$META" --credentials $D/admin.credentials --ec 6+3 --block 1G \
    --transfer 4M --warmup 0 --runs 6 --no-verify 2>&1 | grep -E "^  run|^(write|read)"
}
for round in $(seq "${1:-2}"); do
  start_cluster $D
  echo "== round $round, fresh cluster ($(uptime))"
  ior
  stop_cluster
  echo "spare files kept: $(find $D/data -path '*spare/spare-*' | wc -l)"
  : > "$D.out"
  ./tessera local --dir $D --port-base $BASE > "$D.out" 2>&1 &
  LOCAL=$!
  until grep -q "^Ready in" "$D.out"; do kill -0 $LOCAL; sleep 1; done
  echo "== round $round, the same cluster restarted ($(uptime))"
  ior
  stop_cluster
done
rm -rf $D $D.out
