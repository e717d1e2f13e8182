#!/usr/bin/env bash
# Degraded against healthy reads of one file, two builds alternating: for each build (a checkout
# with its jars built, e.g. a git worktree), a fresh 9-server cluster, `bench ior --keep` of a 1 GiB
# RS 6+3 file, `bench ior --read-only --runs 5` of it, the data server of its first unit SIGKILLed,
# the same read again; each client's collections counted from its GC log.
# Usage: 2026-11-27-degraded-read-ab.sh A_CHECKOUT B_CHECKOUT [ROUNDS]
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
A=$1
B=$2
ROUNDS=${3:-2}
one() {
  local repo=$1 tag=$2
  (
    cd "$repo"
    . "$HERE/local-cluster.sh"
    start_cluster /tmp/degraded-ab
    trap stop_cluster EXIT
    ior() { TESSERA_SKIP_BUILD=1 ./tessera bench ior --meta "$META" --ec 6+3 --block 1G --transfer 4M --dir /ab "$@" 2>/dev/null; }
    ior --runs 1 --keep > /dev/null
    for mode in healthy degraded; do
      if [ $mode = degraded ]; then kill_server_of /ab/ior-kept-0; fi
      TESSERA_JAVA_OPTS="-Xmx2g -XX:+UseParallelGC -Xlog:gc:file=/tmp/degraded-ab-$mode.gc" \
        ior --runs 5 --read-only --no-verify > /tmp/degraded-ab-$mode.txt
      echo "$tag $mode $(grep '^read:' /tmp/degraded-ab-$mode.txt) $(grep -c Pause /tmp/degraded-ab-$mode.gc) collections"
    done
  )
}
for r in $(seq "$ROUNDS"); do
  echo "== round $r ($(uptime))"
  one "$A" A
  one "$B" B
done
