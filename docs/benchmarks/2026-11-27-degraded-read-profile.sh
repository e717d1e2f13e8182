#!/usr/bin/env bash
# The degraded read's profile: JFR of the reading client healthy and with one of nine data
# servers SIGKILLed (/tmp/ior-healthy.jfr, /tmp/ior-degraded.jfr), then the degraded read with
# the Backblaze table loop (TESSERA_VECTOR=0) and the Vector API loop, alternating.
# Run from the repository root.
set -euo pipefail
cd "$(dirname "$0")/../.."
BASE=28000; DIR=/tmp/degraded-prof
META=127.0.0.1:$BASE,127.0.0.1:$((BASE + 2)),127.0.0.1:$((BASE + 4))
t() { TESSERA_SKIP_BUILD=1 ./tessera "$@" --meta "$META" 2>/dev/null; }
rm -rf $DIR && mkdir -p $DIR
TESSERA_SKIP_BUILD=1 ./tessera local --dir $DIR --port-base $BASE --data-servers 9 > $DIR.out 2>&1 &
LOCAL=$!
until grep -q "^Ready in" $DIR.out; do sleep 1; done
echo "== $(uptime)"
t bench ior --ec 6+3 --block 1G --transfer 4M --runs 1 --keep --dir /degraded --no-verify | tail -3
TESSERA_JAVA_OPTS="-Xmx2g -XX:+UseParallelGC -XX:StartFlightRecording=filename=/tmp/ior-healthy.jfr,settings=profile" t bench ior --ec 6+3 --block 1G --transfer 4M --runs 3 --read-only --dir /degraded --no-verify | grep "^read"
victim=$(t fs stat /degraded/ior-kept-0 | grep -o 'ds-[0-9]*' | head -1)
pid=$(python3 -c "import json;print([n['pid'] for n in json.load(open('$DIR/cluster.json'))['data'] if n['id']=='$victim'][0])")
kill -KILL "$pid"; sleep 12
TESSERA_JAVA_OPTS="-Xmx2g -XX:+UseParallelGC -XX:StartFlightRecording=filename=/tmp/ior-degraded.jfr,settings=profile" t bench ior --ec 6+3 --block 1G --transfer 4M --runs 3 --read-only --dir /degraded --no-verify | grep "^read"
for round in 1 2; do
  echo -n "degraded, Backblaze table loop (TESSERA_VECTOR=0): "; TESSERA_VECTOR=0 t bench ior --ec 6+3 --block 1G --transfer 4M --runs 3 --read-only --dir /degraded --no-verify | grep "^read"
  echo -n "degraded, Vector API loop (default for bench):      "; t bench ior --ec 6+3 --block 1G --transfer 4M --runs 3 --read-only --dir /degraded --no-verify | grep "^read"
done
kill -TERM $LOCAL; wait $LOCAL || true
