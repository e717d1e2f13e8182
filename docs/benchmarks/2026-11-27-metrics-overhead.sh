#!/usr/bin/env bash
# What metrics cost: bench ior and bench meta on a fresh tessera local cluster with metrics
# counted and every server scraped every 5 s ("on"), and with -Dtessera.metrics.enabled=false
# and no scraping ("off"), alternating the order each round. Run from the repository root.
set -euo pipefail
cd "$(dirname "$0")/../.."
BASE=26000
META=127.0.0.1:$BASE,127.0.0.1:$((BASE + 2)),127.0.0.1:$((BASE + 4))
ROUNDS=${ROUNDS:-3}
one() { # $1: on|off
  local dir=/tmp/metrics-$1 flag=true
  [ "$1" = off ] && flag=false
  rm -rf "$dir" && mkdir -p "$dir"
  TESSERA_SKIP_BUILD=1 ./tessera local --dir "$dir" --port-base $BASE \
    -Dtessera.metrics.enabled=$flag > "$dir.out" 2>&1 &
  local local_pid=$! scraper=
  until grep -q "^Ready in" "$dir.out"; do sleep 1; done
  if [ "$1" = on ]; then
    (while true; do
       for url in $(python3 -c "import json;d=json.load(open('$dir/cluster.json'));print(' '.join(n['metrics'] for k in ('meta','data') for n in d[k]))"); do
         curl -s "$url" > /dev/null
       done
       sleep 5
     done) &
    scraper=$!
  fi
  echo "== metrics $1 ($(uptime))"
  TESSERA_SKIP_BUILD=1 ./tessera bench ior --meta "$META" --ec 4+2 --block 1G --transfer 4M --runs 3 2>/dev/null
  TESSERA_SKIP_BUILD=1 ./tessera bench meta --meta "$META" --threads 4 --files 5000 --warmup 1000 --warmup-passes 1 2>/dev/null
  [ -n "$scraper" ] && kill $scraper
  kill -TERM $local_pid
  wait $local_pid || true
}
for round in $(seq 1 "$ROUNDS"); do
  if [ $((round % 2)) = 1 ]; then one on; one off; else one off; one on; fi
done
