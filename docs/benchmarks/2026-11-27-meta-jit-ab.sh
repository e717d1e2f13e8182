#!/usr/bin/env bash
# One side of the A/B of the meta replicas' JIT ($1: a label): a fresh 9-server cluster,
# `bench meta --threads 4` with six warm-up passes of 5000 files, then 32 outstanding creates.
# The "C1 only" side ran with "-XX:TieredStopAtLevel=1" appended to
# ProcessCluster.META_SERVER_JVM_OPTIONS (a local build, not committed); sides alternated.
set -euo pipefail
cd "$(dirname "$0")/../.."
BASE=28000; DIR=/tmp/meta-jit
META=127.0.0.1:$BASE,127.0.0.1:$((BASE + 2)),127.0.0.1:$((BASE + 4))
rm -rf $DIR && mkdir -p $DIR
TESSERA_SKIP_BUILD=1 ./tessera local --dir $DIR --port-base $BASE --data-servers 9 > $DIR.out 2>&1 &
LOCAL=$!
until grep -q "^Ready in" $DIR.out; do sleep 1; done
echo "== $1 ($(uptime)) meta cmd has TieredStopAtLevel: $(grep -c TieredStopAtLevel=1 <(python3 -c "import json;print(' '.join(json.load(open('$DIR/cluster.json'))['meta'][0]['cmd']))"))"
TESSERA_SKIP_BUILD=1 ./tessera bench meta --meta $META --threads 4 --files 5000 --warmup 5000 --warmup-passes 6 2>/dev/null | head -4
TESSERA_SKIP_BUILD=1 ./tessera bench meta --meta $META --clients 2 --threads 16 --files 10000 --warmup 0 2>/dev/null | head -1
kill -TERM $LOCAL; wait $LOCAL || true
