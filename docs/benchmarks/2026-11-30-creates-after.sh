#!/usr/bin/env bash
# Creates from 4 threads against the HDFS peer, one sitting (run after 307aef0, and again after
# bdc570b made group commit the default): the peer's metadata phases (its data phases cut to
# 16 MiB), then Tessera with three meta replicas and with one, each on a fresh tessera local
# --data-servers 9, bench meta --threads 4 with its defaults.
# Usage: docs/benchmarks/2026-11-30-creates-after.sh [PEER_DIR] (default /tmp/hdfs-ec, built).
# Results in docs/benchmarks/2026-11-30-same-policy.md.
set -euo pipefail
PEER=${1:-/tmp/hdfs-ec}
source docs/benchmarks/local-cluster.sh
export TESSERA_SKIP_BUILD=1
D=/tmp/creates-after
trap 'stop_cluster 2>/dev/null || true' EXIT
echo "== HDFS peer, metadata ($(uptime))"
(cd "$PEER" && java -Xmx6g -cp "target/hdfs-bench.jar:target/lib/*" -Dquiet.wait.s=20 \
  -Dsingle.mib=16 -Dmulti.mib=16 -Dwarmup.mib=16 bench.HdfsEcBench /tmp/hdfs-bench-data 2>/dev/null) \
  | grep -E "create\+close|getFileStatus" | grep -E "^\s" || true
rm -rf /tmp/hdfs-bench-data
for replicas in 3 1; do
  start_cluster $D --meta-replicas $replicas
  echo "== Tessera, $replicas meta replica(s) ($(uptime))"
  ./tessera bench meta --meta "$META" --credentials $D/admin.credentials --threads 4 2>/dev/null \
    | grep -E "^(warm|creates|stats|removes)"
  stop_cluster
done
rm -rf $D $D.out
