#!/usr/bin/env bash
# One sitting of issue 50, the HDFS peer first: its default run (RS-6-3 write, read, degraded
# read, creates and stats from 4 threads) and its creates from 32 threads; then Tessera on
# `tessera local --data-servers 9`: creates from 4 threads on a fresh cluster, then on another one bench ior RS 6+3
# (its file kept) and 6+0, creates from 4 threads and from 2 clients x 16 after them, the kept
# file read healthy three times, one of its servers SIGKILLed, read three times more.
# Usage: docs/benchmarks/2026-11-27-sitting.sh [PEER_DIR]   (default /tmp/hdfs-ec, built)
# (Sittings 1-3 ran the fresh creates on the same cluster as the rest, before bench ior.)
# Run from anywhere; Tessera must be built (mvn -DskipTests install). `bench meta` runs with its
# defaults (10,000 files, warm-up passes of 10,000 until the rate settles), as the peer warms up
# with 10,000 creates and stats.
set -euo pipefail
cd "$(dirname "$0")/../.."
PEER=${1:-/tmp/hdfs-ec}
DIR=/tmp/sitting
. docs/benchmarks/local-cluster.sh
t() { TESSERA_SKIP_BUILD=1 ./tessera "$@" --meta "$META" 2>/dev/null; }
peer() { (cd "$PEER" && java -Xmx6g -cp "target/hdfs-bench.jar:target/lib/*" -Dquiet.wait.s=20 "$@" \
  bench.HdfsEcBench /tmp/hdfs-bench-data 2>/dev/null); rm -rf /tmp/hdfs-bench-data; }
echo "== HDFS peer ($(uptime))"
peer
echo "== HDFS peer, creates from 32 threads ($(uptime))"
peer -Dmeta.threads=32 -Druns=1 -Dsingle.mib=64 -Dmulti.mib=16 -Dwarmup.mib=16
to_reclaim() { t cluster status | sed -n 's/^Removed files whose shards are still to be deleted: //p'; }
wait_reclaimed() { # until the data servers dropped every removed file's shards (at most 5 min)
  local start=$SECONDS left
  left=$(to_reclaim)
  echo "files to reclaim: $left"
  while [ "$left" != 0 ] && [ $((SECONDS - start)) -lt 300 ]; do sleep 5; left=$(to_reclaim); done
  echo "reclaimed in $((SECONDS - start)) s (left: $left)"
}
trap stop_cluster EXIT
# creates on a fresh cluster of their own: writes right after tens of thousands of creates and
# removes run slower for a minute (not because of the reclaim; see the .md)
start_cluster "$DIR"
echo "== Tessera, fresh cluster: creates from 4 threads ($(uptime))"
t bench meta --threads 4
stop_cluster
start_cluster "$DIR"
echo "== bench ior RS 6+3, file kept ($(uptime))"
t bench ior --ec 6+3 --block 1G --transfer 4M --runs 3 --keep --dir /degraded
echo "== bench ior 6+0 ($(uptime))"
t bench ior --ec 6+0 --block 1G --transfer 4M --runs 3
echo "== after 8 GiB written and deleted: creates from 4 threads ($(uptime))"
t bench meta --threads 4
echo "== creates from 2 clients x 16 threads ($(uptime))"
t bench meta --clients 2 --threads 16
wait_reclaimed
echo "== the kept RS 6+3 file, healthy ($(uptime))"
t bench ior --ec 6+3 --block 1G --transfer 4M --runs 3 --read-only --dir /degraded
kill_server_of /degraded/ior-kept-0
echo "== SIGKILLed $VICTIM (pid $VICTIM_PID), a server of the kept file"
t bench ior --ec 6+3 --block 1G --transfer 4M --runs 3 --read-only --dir /degraded
