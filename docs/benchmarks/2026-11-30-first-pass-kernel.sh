#!/usr/bin/env bash
# What the kernel does for the data servers in a fresh cluster's first bench ior pass that it does
# not in the second: perf record of every CPU (99 Hz) around each of two single-pass runs (RS 6+3,
# 1 GiB, no warm-up) on a fresh tessera local --data-servers 9, then the kernel symbols with the
# most samples in the data servers' threads. Extra arguments go to tessera local.
# Results in docs/benchmarks/2026-11-30-warm-up.md.
set -euo pipefail
source docs/benchmarks/local-cluster.sh
export TESSERA_SKIP_BUILD=1
D=/tmp/kernel-pass
trap 'stop_cluster 2>/dev/null || true' EXIT
start_cluster $D "$@"
pids=$(python3 -c "import json;print(','.join(str(n['pid']) for n in json.load(open('$D/cluster.json'))['data']))")
echo "$(uptime)"
for pass in 1 2; do
  perf record -q -F 99 -g -p "$pids" -o $D/pass$pass.data -- \
    ./tessera bench ior --meta "$META" --credentials $D/admin.credentials --ec 6+3 --block 1G \
    --transfer 4M --warmup 0 --runs 1 --no-verify 2>&1 | grep -E "^  run 1|^write"
  perf report -i $D/pass$pass.data --no-children --sort dso --stdio > $D/dso$pass.txt 2>/dev/null
  perf report -i $D/pass$pass.data --no-children --sort sym --stdio > $D/sym$pass.txt 2>/dev/null
  echo "== pass $pass: data servers' samples by where they ran ($(grep -m1 -o '[0-9]* samples' $D/dso$pass.txt || true))"
  grep -E "^ +[0-9]" $D/dso$pass.txt | head -6 || true
  echo "-- the kernel's hottest functions"
  grep -E "^ +[0-9].*\[k\]" $D/sym$pass.txt | head -15 || true
done
stop_cluster
rm -rf $D $D.out
