#!/usr/bin/env bash
# Issue 66 part 7, reproduced before any fix: two bench ior processes of 16 clients each (1 MiB
# transfers, RS 4+2) against tessera local with 8 data servers. Their outputs go to /tmp/overload/.
# Run from the repository root after a build: bash docs/benchmarks/2026-11-29-overload.sh
set -uo pipefail

. docs/benchmarks/local-cluster.sh
trap stop_cluster EXIT
uptime
rm -rf /tmp/overload && mkdir -p /tmp/overload
CLUSTER_DIR=/tmp/overload-cluster
rm -rf $CLUSTER_DIR; mkdir -p $CLUSTER_DIR; : > $CLUSTER_DIR.out
TESSERA_SKIP_BUILD=1 ./tessera local --dir $CLUSTER_DIR --port-base $BASE --data-servers 8 "$@" > $CLUSTER_DIR.out 2>&1 &
LOCAL=$!
until grep -q "^Ready in" $CLUSTER_DIR.out; do sleep 1; done
C="--meta $META --credentials $CLUSTER_DIR/admin.credentials"
for a in a b; do
  TESSERA_SKIP_BUILD=1 ./tessera bench ior --clients 16 --block 48M --transfer 1M --ec 4+2 --warmup 0 --dir /ior-$a $C > /tmp/overload/$a.out 2>&1 &
done
while [ $(pgrep -fc "bench ior --clients 16") -gt 0 ]; do sleep 2; done
sleep 1
