#!/usr/bin/env bash
# Degraded read: a 1 GiB RS 6+3 file read healthy, then with one of nine data servers SIGKILLed
# (one holding units of the file), alternating healthy/degraded is impossible without a rebuild,
# so: healthy reads x3, kill, degraded reads x3. Run from the repository root.
set -euo pipefail
cd "$(dirname "$0")/../.."
BASE=28000; DIR=/tmp/degraded-read
META=127.0.0.1:$BASE,127.0.0.1:$((BASE + 2)),127.0.0.1:$((BASE + 4))
t() { TESSERA_SKIP_BUILD=1 ./tessera "$@" --meta "$META" 2>/dev/null; }
rm -rf $DIR && mkdir -p $DIR
# recovery waits 10 min before replacing a lost server; rebuilding the dead one's units back
# onto it would need it back up: the degraded reads below run with it down throughout
TESSERA_SKIP_BUILD=1 ./tessera local --dir $DIR --port-base $BASE --data-servers 9 > $DIR.out 2>&1 &
LOCAL=$!
until grep -q "^Ready in" $DIR.out; do sleep 1; done
echo "== $(uptime)"
t bench ior --ec 6+3 --block 1G --transfer 4M --runs 3 --keep --dir /degraded
t bench ior --ec 6+3 --block 1G --transfer 4M --runs 3 --read-only --dir /degraded
victim=$(t fs stat /degraded/ior-kept-0 | grep -o 'ds-[0-9]*' | head -1)
pid=$(python3 -c "import json;print([n['pid'] for n in json.load(open('$DIR/cluster.json'))['data'] if n['id']=='$victim'][0])")
echo "== SIGKILL $victim (pid $pid), holding the file's first unit"
kill -KILL "$pid"
sleep 12   # past tessera.meta.data-server-timeout: readers know it is down
t bench ior --ec 6+3 --block 1G --transfer 4M --runs 3 --read-only --dir /degraded
kill -TERM $LOCAL; wait $LOCAL || true
