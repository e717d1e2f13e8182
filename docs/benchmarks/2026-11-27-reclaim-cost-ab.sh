#!/usr/bin/env bash
# What reclaiming removed files costs the data servers, two builds alternating: for each build (a
# checkout with its jars built), a fresh 9-server cluster, `bench meta --threads 4` (some 70,000
# empty files created and removed), then wait until no removed file is left to reclaim; the data
# servers' CPU (/proc) from before `bench meta` to then, and the files reclaimed.
# Usage: 2026-11-27-reclaim-cost-ab.sh A_CHECKOUT B_CHECKOUT [ROUNDS]
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
A=$1
B=$2
ROUNDS=${3:-1}
one() {
  local repo=$1 tag=$2
  (
    cd "$repo"
    . "$HERE/local-cluster.sh"
    DIR=/tmp/reclaim-cost
    start_cluster "$DIR"
    trap stop_cluster EXIT
    data_ticks() { python3 -c "
import json
d = json.load(open('$DIR/cluster.json'))
print(sum(sum(int(x) for x in open(f'/proc/{n[\"pid\"]}/stat').read().rsplit(')', 1)[1].split()[11:13]) for n in d['data']))"; }
    left() { TESSERA_SKIP_BUILD=1 ./tessera cluster status --meta "$META" 2>/dev/null | sed -n 's/^Removed files whose shards are still to be deleted: //p'; }
    c0=$(data_ticks); t0=$(date +%s)
    files=$(TESSERA_SKIP_BUILD=1 ./tessera bench meta --threads 4 --meta "$META" 2>/dev/null | grep -oE '[0-9]+ pass\(es\) of [0-9]+ files' | awk '{print ($1 + 1) * $4}')
    until [ "$(left)" = 0 ]; do sleep 2; done
    c1=$(data_ticks); t1=$(date +%s)
    echo "$tag: about $files files created and removed; data servers $(python3 -c "print(f'{($c1 - $c0) / 100:.2f}')") s CPU until all were reclaimed, $((t1 - t0)) s"
  )
}
for r in $(seq "$ROUNDS"); do
  echo "== round $r ($(uptime))"
  one "$A" A
  one "$B" B
done
