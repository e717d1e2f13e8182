#!/usr/bin/env bash
# JFR of every process during writes right after many removes: a fresh 9-server cluster,
# `bench meta --threads 4` (skipped with SKIP_META=1, for the fresh-cluster comparison), then
# `bench ior` RS 6+3 (3 runs, 1 warm-up pass) with 15 s of JFR (profile settings) on each meta
# replica, data server and the client, 8 s into it; recordings in /tmp/writes-jfr[-fresh]-ID.jfr.
# Slow Raft log fsyncs: jfr print --events jdk.FileForce /tmp/writes-jfr-m1.jfr. Run from the
# repository root.
set -euo pipefail
cd "$(dirname "$0")/../.."
DIR=/tmp/writes-jfr
. docs/benchmarks/local-cluster.sh
start_cluster "$DIR"
trap stop_cluster EXIT
[ -n "${SKIP_META:-}" ] || TESSERA_SKIP_BUILD=1 ./tessera bench meta --threads 4 --meta "$META" 2>/dev/null | grep -E '^(creates|removes):'
TESSERA_SKIP_BUILD=1 ./tessera bench ior --ec 6+3 --block 1G --transfer 4M --runs 3 --warmup-passes 1 --meta "$META" > "$DIR.ior" 2>/dev/null &
ior=$!
sleep 8
client=$(pgrep -f 'java.*bench ior' | head -1)
pids=$(python3 -c "import json;d=json.load(open('$DIR/cluster.json'));print(' '.join(n['id']+':'+str(n['pid']) for k in ('meta','data') for n in d[k]))")
for e in $pids client:$client; do
  jcmd "${e#*:}" JFR.start name=p settings=profile duration=15s filename="/tmp/writes-jfr${SKIP_META:+-fresh}-${e%%:*}.jfr" > /dev/null 2>&1 || echo "attach failed: $e"
done
wait $ior
grep -E '^warm|^  run|^write' "$DIR.ior"
