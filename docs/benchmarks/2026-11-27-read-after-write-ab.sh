#!/usr/bin/env bash
# Reads right after writes: A/B of `bench ior` as is (each run's read starts while the kernel is
# still writing back what the run just wrote) against `--sync-before-read` (dirty pages flushed,
# untimed, before each read), RS 6+3 and 6+0, alternating on one fresh 9-server cluster, with
# vmstat over each command (its bo and wa columns: write-back and I/O wait).
# Usage: docs/benchmarks/2026-11-27-read-after-write-ab.sh [ROUNDS]   (default 2)
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=${1:-2}
DIR=/tmp/read-after-write
. docs/benchmarks/local-cluster.sh
start_cluster "$DIR"
trap stop_cluster EXIT
ior() { # $1: label, then bench ior args
  local label=$1; shift
  echo "== $label ($(uptime))"
  vmstat 1 > "/tmp/vmstat-raw.txt" & local vm=$!
  TESSERA_SKIP_BUILD=1 ./tessera bench ior --meta "$META" --block 1G --transfer 4M "$@" 2>/dev/null \
    | grep -E '^  run|^(write|read):'
  kill $vm
  awk 'NR>2 {bo+=$10; wa+=$16; n++} END {printf "vmstat: bo %.0f MB/s, wa %.0f%% (means of %d s)\n", bo/n/1024, wa/n, n}' /tmp/vmstat-raw.txt
}
ior "warm-up of the cluster, RS 6+3" --ec 6+3 --runs 1
for round in $(seq "$ROUNDS"); do
  for ec in 6+3 6+0; do
    ior "round $round, $ec, read right after write" --ec $ec --runs 3 --warmup-passes 1
    ior "round $round, $ec, --sync-before-read" --ec $ec --runs 3 --warmup-passes 1 --sync-before-read
  done
done
