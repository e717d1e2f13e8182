#!/usr/bin/env bash
# Creates through NFS against bench meta, alternating (the second sitting of 2026-11-27).
set -u
cd "$(dirname "$0")/../.."
export TESSERA_SKIP_BUILD=1
DIR=/tmp/nfsbench2; BASE=19860
M=127.0.0.1:$BASE,127.0.0.1:$((BASE+2)),127.0.0.1:$((BASE+4))
ROUNDS=${ROUNDS:-3}
echo "== $(date -u +%FT%TZ)  $(uptime)"
rm -rf $DIR; ./tessera local --nfs --dir $DIR --port-base $BASE > /tmp/nfsbench2-local.log 2>&1 &
LOCAL=$!
until grep -q "^Ready" /tmp/nfsbench2-local.log; do sleep 1; done
for th in 4 32; do
  for r in $(seq 1 $ROUNDS); do
    echo "-- creates, $th threads, round $r"
    ./tessera bench meta --meta $M --threads $th --files 5000 --warmup 1000 --warmup-passes 1 2>/dev/null | grep creates
    ./tessera bench nfs --nfs 127.0.0.1:$((BASE+18)) --threads $th --files 5000 --dir /bench/nfs-$th-$r 2>/dev/null | grep creates
  done
done
kill -TERM $LOCAL; wait $LOCAL
echo "== done $(date -u +%FT%TZ)"
