#!/usr/bin/env bash
# What durability costs: bench ior's write phase (each client opens its file, writes, closes) with
# tessera.client.sync-on-close on (the default) and off, and fs put (sync before rename) against
# fs put --no-sync. Alternating, three rounds, one tessera local with 9 data servers. The ior rows
# compare syncs only on a build where every writing handle syncs at close (1358461); later builds
# sync the creating handle only, which ior's timed phase does not use.
# Run from the repository root after a build: bash docs/benchmarks/2026-11-29-durable-close.sh
set -euo pipefail
. docs/benchmarks/local-cluster.sh
trap stop_cluster EXIT
uptime
start_cluster /tmp/bench-durable
t() { TESSERA_SKIP_BUILD=1 ./tessera "$@" --meta "$META" --credentials /tmp/bench-durable/admin.credentials; }
head -c $((512 << 20)) /dev/urandom > /tmp/bench-durable-512m.bin
for round in 1 2 3; do
  for sync in true false; do
    echo "== round $round, sync-on-close=$sync"
    t bench ior --clients 4 --block 128M --transfer 1M --ec 4+2 --file-per-client --no-verify \
      --runs 3 --warmup 0 --dir /ior-$sync-$round -Dtessera.client.sync-on-close=$sync | grep -E "write|Write"
  done
  for put in sync no-sync; do
    flag=""; [ $put = no-sync ] && flag="--no-sync"
    echo "== round $round, fs put $put"
    start=$(date +%s.%N)
    t fs put -q $flag /tmp/bench-durable-512m.bin /put-$put-$round.bin
    echo "put 512 MiB: $(python3 -c "print(round(536.870912/($(date +%s.%N)-$start),1))") MB/s"
  done
done
rm -f /tmp/bench-durable-512m.bin
