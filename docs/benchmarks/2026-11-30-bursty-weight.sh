#!/usr/bin/env bash
# A bursty application next to a steady one (vPFS Figure 3) at the weight its burst needs (issue 67
# part 1): 8 data servers each capped at CAP bytes/s (default 6M; tessera.data.test-device-cap, so
# storage is what applications wait for), the scheduler in the data servers
# (tessera.qos.placement=embedded), bench qos --experiment bursty with A's weight against B's 1 from
# WEIGHTS in turn (default "1 3"), each on a fresh cluster, ROUNDS rounds (default 2); further
# arguments go to tessera local (e.g. -Dtessera.qos.depth=1). Results in
# docs/benchmarks/2026-11-30-qos-placement.md.
set -euo pipefail
source docs/benchmarks/local-cluster.sh
export TESSERA_SKIP_BUILD=1
D=/tmp/bursty-weight
CAP=${1:-6M}
WEIGHTS=${2:-1 3}
ROUNDS=${3:-2}
shift $(($# < 3 ? $# : 3))
trap 'stop_cluster 2>/dev/null || true' EXIT
for round in $(seq "$ROUNDS"); do
  for w in $WEIGHTS; do
    DATA_SERVERS=8 start_cluster $D -Dtessera.qos.placement=embedded -Dtessera.data.test-device-cap="$CAP" "$@"
    echo "== round $round, A's weight $w $* ($(uptime))"
    ./tessera bench qos --meta "$META" --credentials $D/admin.credentials --experiment bursty \
      --threads 16 --seconds 12 --runs 3 --bursty-weight "$w"
    stop_cluster
  done
done
rm -rf $D $D.out
