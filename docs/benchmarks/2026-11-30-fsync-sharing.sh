#!/usr/bin/env bash
# How this machine's disk shares synchronous writes: 1 writer, then 3 at once (as three meta
# replicas on one disk), each writing 4 KiB blocks with O_DSYNC (one write and flush per block, as
# a Raft log append of a few entries), ROUNDS rounds (default 3), in DIR (default /tmp, where
# tessera local keeps its replicas). Prints each writer's syncs/s and the disk's total.
# Usage: fsync-sharing.sh [ROUNDS] [DIR]. Results in docs/benchmarks/2026-11-30-same-policy.md.
set -euo pipefail
DIR=${2:-/tmp}/fsync-sharing
mkdir -p "$DIR"
trap 'rm -rf "$DIR"' EXIT
N=1000
writers() {
  local n=$1 pids=() start end
  start=$(date +%s.%N)
  for i in $(seq "$n"); do
    dd if=/dev/zero of="$DIR/w$i" bs=4k count=$N oflag=dsync 2>/dev/null &
    pids+=($!)
  done
  wait "${pids[@]}"
  end=$(date +%s.%N)
  awk -v n="$n" -v N=$N -v s="$start" -v e="$end" \
    'BEGIN { t = e - s; printf "%d writer(s): %.0f syncs/s each, %.0f in all (%.2f s)\n", n, N / t, n * N / t, t }'
  rm -f "$DIR"/w*
}
echo "$(uptime)"
for round in $(seq "${1:-3}"); do
  writers 1
  writers 3
done
