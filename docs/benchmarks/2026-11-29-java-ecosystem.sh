#!/usr/bin/env bash
# Issue 64: one 1 GiB file into and out of Tessera four ways, alternating, three rounds:
# `tessera fs put/get`, `hadoop fs -put/-get` (FsShell, shaded adapter, own JVM), Files.copy
# through the java.nio provider (own JVM); then the HDFS peer's `hadoop fs -put/-get` in the same
# sitting. The page cache is dropped before every read, on both sides. Tessera: tessera local, 9
# data servers, security on (the default), files RS 4+2 with 1 MiB units (/bench's default).
# Run from the repository root as root, Tessera built (mvn -B -DskipTests install) and the peer
# built in $PEER (default /tmp/hdfs-peer: a copy of ../shared/peers/hdfs-ec after `mvn package`).
set -euo pipefail
cd "$(dirname "$0")/../.."
source docs/benchmarks/local-cluster.sh
PEER=${PEER:-/tmp/hdfs-peer}
WORK=/tmp/java-eco
rm -rf $WORK && mkdir -p $WORK
head -c 1073741824 /dev/urandom > $WORK/in.bin
drop() { sync; echo 3 > /proc/sys/vm/drop_caches; }
start_cluster /tmp/java-eco-cluster
trap stop_cluster EXIT
# the machine is shared: wait (at most 2 min) for the 1-minute load to settle after the start
quiet() { for _ in $(seq 60); do awk '{exit !($1 < 2.5)}' /proc/loadavg && return; sleep 2; done; }
CREDS=/tmp/java-eco-cluster/admin.credentials
TESSERA="env TESSERA_SKIP_BUILD=1 ./tessera"
$TESSERA fs mkdir --ec 4+2 --stripe-unit 1M /bench --meta "$META" --credentials $CREDS
mkdir -p $WORK/hadoop-conf && echo '<configuration/>' > $WORK/hadoop-conf/core-site.xml
HCP="$WORK/hadoop-conf:$(ls ~/.m2/repository/org/apache/hadoop/hadoop-client-api/3.5.0/*.jar):$(ls ~/.m2/repository/org/apache/hadoop/hadoop-client-runtime/3.5.0/*.jar):$(ls hadoop-adapter/target/tessera-hadoop-*.jar | grep -v original):$(ls ~/.m2/repository/org/slf4j/slf4j-api/2.0.17/*.jar)"
hadoopfs() { java -Xmx1g -cp "$HCP" org.apache.hadoop.fs.FsShell -Dfs.tessera.credentials=$CREDS "$@" 2>/dev/null; }
timed() { # NAME COMMAND...: prints NAME BYTES SECONDS MB/s
  local name=$1; shift
  local t0 t1; t0=$(date +%s.%N); "$@" > /dev/null; t1=$(date +%s.%N)
  python3 -c "s=$t1-$t0; print('%s 1073741824 %.2f %.0f' % ('$name', s, 1073741824/s/1e6))"
}
URI=tessera://127.0.0.1:$BASE
for round in 1 2 3; do
  quiet
  echo "== round $round ($(uptime))"
  timed cli-put $TESSERA fs put $WORK/in.bin /bench/cli.bin --meta "$META" --credentials $CREDS -q
  drop; rm -f $WORK/out.bin
  timed cli-get $TESSERA fs get /bench/cli.bin $WORK/out.bin --meta "$META" --credentials $CREDS -q
  cmp $WORK/in.bin $WORK/out.bin
  $TESSERA fs rm /bench/cli.bin --meta "$META" --credentials $CREDS
  timed hadoop-put hadoopfs -put $WORK/in.bin $URI/bench/hadoop.bin
  drop; rm -f $WORK/out.bin
  timed hadoop-get hadoopfs -get $URI/bench/hadoop.bin $WORK/out.bin
  cmp $WORK/in.bin $WORK/out.bin
  hadoopfs -rm -skipTrash $URI/bench/hadoop.bin
  java -Xmx1g -cp 'admin-cli/target/lib/*' docs/benchmarks/NioCopy.java in $WORK/in.bin /bench/nio.bin 127.0.0.1:$BASE $CREDS
  drop; rm -f $WORK/out.bin
  java -Xmx1g -cp 'admin-cli/target/lib/*' docs/benchmarks/NioCopy.java out $WORK/out.bin /bench/nio.bin 127.0.0.1:$BASE $CREDS
  cmp $WORK/in.bin $WORK/out.bin
  $TESSERA fs rm /bench/nio.bin --meta "$META" --credentials $CREDS
done
stop_cluster
trap - EXIT
quiet
echo "== HDFS peer ($(uptime))"
java -Xmx6g -cp "$PEER/target/hdfs-bench.jar:$PEER/target/lib/*" docs/benchmarks/HdfsShellPutGet.java $WORK/hdfs $WORK/in.bin 3 2>/dev/null
rm -rf $WORK
