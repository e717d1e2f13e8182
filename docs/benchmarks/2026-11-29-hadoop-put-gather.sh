#!/usr/bin/env bash
# Issue 64 follow-up: where hadoop fs -put lost to tessera fs put. Three alternating rounds on one
# cluster (tessera local, 9 data servers, security on, /bench RS 4+2 with 1 MiB units): the start
# of each command (tessera fs ls against hadoop fs -ls), hadoop fs -put of 1 GiB with Hadoop's
# default 4 KiB io.file.buffer.size and with 1 MiB, and tessera fs put. Run from the repository
# root, Tessera built (mvn -B -DskipTests install).
set -euo pipefail
cd "$(dirname "$0")/../.."
source docs/benchmarks/local-cluster.sh
WORK=/tmp/hadoop-put-gather
rm -rf $WORK && mkdir -p $WORK
head -c 1073741824 /dev/urandom > $WORK/in.bin
start_cluster /tmp/hadoop-put-gather-cluster
trap stop_cluster EXIT
CREDS=/tmp/hadoop-put-gather-cluster/admin.credentials
TESSERA="env TESSERA_SKIP_BUILD=1 ./tessera"
$TESSERA fs mkdir --ec 4+2 --stripe-unit 1M /bench --meta "$META" --credentials $CREDS
mkdir -p $WORK/hadoop-conf && echo '<configuration/>' > $WORK/hadoop-conf/core-site.xml
HCP="$WORK/hadoop-conf:$(ls ~/.m2/repository/org/apache/hadoop/hadoop-client-api/3.5.0/*.jar):$(ls ~/.m2/repository/org/apache/hadoop/hadoop-client-runtime/3.5.0/*.jar):$(ls hadoop-adapter/target/tessera-hadoop-*.jar | grep -v original):$(ls ~/.m2/repository/org/slf4j/slf4j-api/2.0.17/*.jar)"
hadoopfs() { java -Xmx1g -cp "$HCP" org.apache.hadoop.fs.FsShell -Dfs.tessera.credentials=$CREDS "$@" 2>/dev/null; }
t() { local name=$1; shift; local t0 t1; t0=$(date +%s.%N); "$@" > /dev/null; t1=$(date +%s.%N); python3 -c "print('%s %.2f s' % ('$name', $t1-$t0))"; }
URI=tessera://127.0.0.1:$BASE
sleep 20
for r in 1 2 3; do
  echo "== round $r ($(uptime))"
  t tessera-ls $TESSERA fs ls /bench --meta "$META" --credentials $CREDS
  t hadoop-ls hadoopfs -ls $URI/bench
  t hadoop-put-1M-buffer hadoopfs -Dio.file.buffer.size=1048576 -put $WORK/in.bin $URI/bench/h$r.bin
  t hadoop-put hadoopfs -put $WORK/in.bin $URI/bench/g$r.bin
  t cli-put $TESSERA fs put $WORK/in.bin /bench/c$r.bin --meta "$META" --credentials $CREDS -q
done
rm -rf $WORK
