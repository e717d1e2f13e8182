#!/usr/bin/env bash
# Tessera and the HDFS peer under the same conditions, one sitting (run from the repository root,
# Tessera built; results in docs/benchmarks/2026-11-30-same-policy.md):
#  - the peer's default run (RS-6-3 1 GiB write and read, the page cache dropped before every read;
#    creates and stats from 4 threads);
#  - Tessera creates from 4 threads (bench meta defaults) with one meta replica (one fsynced log,
#    as the peer's NameNode) and with three;
#  - Tessera bench ior RS 6+3, 1 client, 1 GiB, 4 MiB transfers: reads warm, then reads with the page
#    cache dropped before each (--drop-caches, as the peer), each run printed so the first cold
#    read right after the writes shows;
#  - dd reading a 1 GiB file with the page cache dropped, buffered and with O_DIRECT.
# Usage: docs/benchmarks/2026-11-30-same-policy.sh [PEER_DIR]   (default /tmp/hdfs-ec, built)
set -euo pipefail
PEER=${1:-/tmp/hdfs-ec}
source docs/benchmarks/local-cluster.sh
export TESSERA_SKIP_BUILD=1
D=/tmp/same-policy
t() { ./tessera "$@" --meta "$META" --credentials $D/admin.credentials 2>/dev/null; }
trap 'stop_cluster 2>/dev/null || true' EXIT
echo "== HDFS peer ($(uptime))"
(cd "$PEER" && java -Xmx6g -cp "target/hdfs-bench.jar:target/lib/*" -Dquiet.wait.s=20 \
  bench.HdfsEcBench /tmp/hdfs-bench-data 2>/dev/null)
rm -rf /tmp/hdfs-bench-data
for replicas in 1 3; do
  start_cluster $D --meta-replicas $replicas
  echo "== Tessera, $replicas meta replica(s), fresh cluster: creates from 4 threads ($(uptime))"
  t bench meta --threads 4
  stop_cluster
done
start_cluster $D
echo "== Tessera bench ior RS 6+3, reads warm ($(uptime))"
t bench ior --ec 6+3 --block 1G --transfer 4M --runs 3 | grep -E "^  run|^(write|read)"
echo "== Tessera bench ior RS 6+3, page cache dropped before each read ($(uptime))"
t bench ior --ec 6+3 --block 1G --transfer 4M --runs 3 --drop-caches | grep -E "^  run|^(write|read)"
stop_cluster
echo "== dd, 1 GiB, page cache dropped ($(uptime))"
f=/tmp/same-policy-dd
head -c 1073741824 /dev/urandom > $f && sync
for flags in "" "iflag=direct"; do
  sync && echo 3 > /proc/sys/vm/drop_caches
  echo "dd bs=4M $flags: $(dd if=$f of=/dev/null bs=4M $flags 2>&1 | tail -1)"
done
rm -f $f
rm -rf $D $D.out
