#!/usr/bin/env bash
# The degraded read's profile: JFR of the reading client healthy and with one of nine data
# servers SIGKILLed (/tmp/ior-healthy.jfr, /tmp/ior-degraded.jfr), then the degraded read with
# the Backblaze table loop (TESSERA_VECTOR=0) and the Vector API loop, alternating.
# Run from the repository root.
set -euo pipefail
cd "$(dirname "$0")/../.."
DIR=/tmp/degraded-prof
. docs/benchmarks/local-cluster.sh
t() { TESSERA_SKIP_BUILD=1 ./tessera "$@" --meta "$META" 2>/dev/null; }
start_cluster "$DIR"
echo "== $(uptime)"
t bench ior --ec 6+3 --block 1G --transfer 4M --runs 1 --keep --dir /degraded --no-verify | tail -3
TESSERA_JAVA_OPTS="-Xmx2g -XX:+UseParallelGC -XX:StartFlightRecording=filename=/tmp/ior-healthy.jfr,settings=profile" t bench ior --ec 6+3 --block 1G --transfer 4M --runs 3 --read-only --dir /degraded --no-verify | grep "^read"
kill_server_of /degraded/ior-kept-0
TESSERA_JAVA_OPTS="-Xmx2g -XX:+UseParallelGC -XX:StartFlightRecording=filename=/tmp/ior-degraded.jfr,settings=profile" t bench ior --ec 6+3 --block 1G --transfer 4M --runs 3 --read-only --dir /degraded --no-verify | grep "^read"
for round in 1 2; do
  echo -n "degraded, Backblaze table loop (TESSERA_VECTOR=0): "; TESSERA_VECTOR=0 t bench ior --ec 6+3 --block 1G --transfer 4M --runs 3 --read-only --dir /degraded --no-verify | grep "^read"
  echo -n "degraded, Vector API loop (default for bench):      "; t bench ior --ec 6+3 --block 1G --transfer 4M --runs 3 --read-only --dir /degraded --no-verify | grep "^read"
done
stop_cluster
