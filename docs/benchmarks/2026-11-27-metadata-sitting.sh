#!/usr/bin/env bash
# Issue 50, first sitting (Tessera side; the HDFS peer ran just before, see the .md): creates on a
# fresh 9-server cluster from 4 threads and from 32 outstanding (2 clients x 16, 4 x 8), then
# bench ior RS 6+3, then creates again; the meta leader's Raft commit latency (its /metrics)
# and vmstat around each metadata run. Run from the repository root.
set -euo pipefail
cd "$(dirname "$0")/../.."
BASE=28000
DIR=/tmp/meta-sitting
META=127.0.0.1:$BASE,127.0.0.1:$((BASE + 2)),127.0.0.1:$((BASE + 4))
t() { TESSERA_SKIP_BUILD=1 ./tessera "$@" --meta "$META" 2>/dev/null; }
leader_metrics() { # the meta leader's commit-latency histogram: count and sum
  for p in 0 2 4; do
    m=$(curl -s "http://127.0.0.1:$((BASE + 1000 + p))/metrics")
    if echo "$m" | grep -q '^tessera_meta_is_leader 1'; then
      echo "$m" | grep -E '^tessera_meta_raft_commit_duration_seconds_(count|sum) ' | tr '\n' ' '
      echo
    fi
  done
}
meta_run() { # $1: label, then bench meta args
  local label=$1; shift
  echo "== $label ($(uptime))"
  echo "leader before: $(leader_metrics)"
  vmstat 1 > "/tmp/vmstat-$label.txt" & local vm=$!
  t bench meta "$@"
  kill $vm
  echo "leader after:  $(leader_metrics)"
  awk 'NR>2 {us+=$13; sy+=$14; id+=$15; wa+=$16; n++} END {printf "vmstat over the run: us %.0f sy %.0f id %.0f wa %.0f (%%, mean of %d s)\n", us/n, sy/n, id/n, wa/n, n}' "/tmp/vmstat-$label.txt"
}
rm -rf "$DIR" && mkdir -p "$DIR"
TESSERA_SKIP_BUILD=1 ./tessera local --dir "$DIR" --port-base $BASE --data-servers 9 > "$DIR.out" 2>&1 &
LOCAL=$!
until grep -q "^Ready in" "$DIR.out"; do sleep 1; done
meta_run fresh-4 --threads 4 --files 10000 --warmup 2000 --warmup-passes 2
meta_run fresh-2x16 --clients 2 --threads 16 --files 10000 --warmup 2000 --warmup-passes 1
meta_run fresh-4x8 --clients 4 --threads 8 --files 10000 --warmup 2000 --warmup-passes 1
echo "== ior 6+3 ($(uptime))"
t bench ior --ec 6+3 --block 1G --transfer 4M --runs 3
meta_run after-ior-4 --threads 4 --files 10000 --warmup 2000 --warmup-passes 2
echo "== ior 6+0 ($(uptime))"
t bench ior --ec 6+0 --block 1G --transfer 4M --runs 3
meta_run after-ior-2x16 --clients 2 --threads 16 --files 10000 --warmup 2000 --warmup-passes 1
kill -TERM $LOCAL
wait $LOCAL || true
