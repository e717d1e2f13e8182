#!/usr/bin/env bash
# A/B of one meta setting of group commit (default tessera.meta.max-entries-in-flight: how many
# Raft entries the leader pipelines): each side on a fresh 9-server cluster, warmed by three
# passes of 5000 creates, then `bench meta` from 4 threads and from 2 clients x 16; the meta
# replicas' CPU seconds (/proc) over each measured run. Sides alternate. Usage:
#   docs/benchmarks/2026-11-27-meta-group-commit-ab.sh [ROUNDS] [KEY] [VALUE...]
# (default: 2 rounds of tessera.meta.max-entries-in-flight = 16 4 1)
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=${1:-2}; shift || true
KEY=${1:-tessera.meta.max-entries-in-flight}; shift || true
VALUES=${*:-16 4 1}
DIR=/tmp/meta-group-commit
. docs/benchmarks/local-cluster.sh
bench() { TESSERA_SKIP_BUILD=1 ./tessera bench meta --meta "$META" "$@" 2>/dev/null; }
meta_ticks() { # summed utime+stime of the meta replicas, in clock ticks
  python3 -c "
import json
d = json.load(open('$DIR/cluster.json'))
print(sum(int(open(f'/proc/{n[\"pid\"]}/stat').read().rsplit(')', 1)[1].split()[11])
          + int(open(f'/proc/{n[\"pid\"]}/stat').read().rsplit(')', 1)[1].split()[12]) for n in d['meta']))"
}
measured() { # $1 label, then bench meta args: its first lines and the meta replicas' CPU
  local label=$1; shift
  local t0; t0=$(meta_ticks)
  local out; out=$(bench "$@" --warmup 0)
  local t1; t1=$(meta_ticks)
  echo "$label: $(echo "$out" | grep -E '^(creates|stats|removes)' | head -4 | sed 's/ (.*//' | tr '\n' ' ') meta CPU $(( (t1 - t0) / 100 )) s"
}
for round in $(seq "$ROUNDS"); do
  for v in $VALUES; do
    start_cluster "$DIR" -D"$KEY=$v"
    echo "== round $round, $KEY=$v ($(uptime))"
    bench --threads 4 --files 5000 --warmup 5000 --warmup-passes 3 | grep -E '^(warm-up|creates:)' | sed 's/ (.*//' | tr '\n' ' '
    echo
    measured "4 threads" --threads 4 --files 10000
    measured "2 x 16" --clients 2 --threads 16 --files 10000
    stop_cluster
  done
done
