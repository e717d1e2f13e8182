#!/usr/bin/env bash
# Creates from 32 outstanding against the HDFS peer at 32 threads (issue 67 part 3), one sitting,
# ROUNDS rounds (default 2) of: the peer's metadata phases at 32 threads (its data phases cut to
# 16 MiB), then Tessera with three meta replicas and with one, each on a fresh tessera local
# --data-servers 9, bench meta with 2 client processes of 16 threads.
# Usage: docs/benchmarks/2026-11-30-creates-32.sh [ROUNDS] [PEER_DIR] (default /tmp/hdfs-ec,
# built). Results in docs/benchmarks/2026-11-30-same-policy.md.
set -euo pipefail
ROUNDS=${1:-2}
PEER=${2:-/tmp/hdfs-ec}
source docs/benchmarks/local-cluster.sh
export TESSERA_SKIP_BUILD=1
D=/tmp/creates-32
trap 'stop_cluster 2>/dev/null || true' EXIT
for round in $(seq "$ROUNDS"); do
  echo "== round $round: HDFS peer, metadata at 32 threads ($(uptime))"
  (cd "$PEER" && java -Xmx6g -cp "target/hdfs-bench.jar:target/lib/*" -Dquiet.wait.s=20 \
    -Dsingle.mib=16 -Dmulti.mib=16 -Dwarmup.mib=16 -Dmeta.threads=32 \
    bench.HdfsEcBench /tmp/hdfs-bench-data 2>/dev/null) \
    | grep -E "create\+close|getFileStatus" | grep -E "^\s" || true
  rm -rf /tmp/hdfs-bench-data
  for replicas in 3 1; do
    start_cluster $D --meta-replicas $replicas
    echo "== round $round: Tessera, $replicas meta replica(s), 2 clients x 16 threads ($(uptime))"
    ./tessera bench meta --meta "$META" --credentials $D/admin.credentials --clients 2 \
      --threads 16 2>/dev/null | grep -E "^(warm|creates|stats|removes)"
    stop_cluster
  done
done
rm -rf $D $D.out
