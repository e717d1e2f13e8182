#!/usr/bin/env bash
# One sitting of the NFS gateway figures (issue 48): from the repository root, after
# mvn -B -DskipTests install; needs libnfs-utils and bc. ROUNDS=3 by default.
set -u
cd "$(dirname "$0")/../.."

export TESSERA_SKIP_BUILD=1
DIR=/tmp/nfsbench; BASE=19860
M=127.0.0.1:$BASE,127.0.0.1:$((BASE+2)),127.0.0.1:$((BASE+4))
Q="?version=3&nfsport=$((BASE+18))&mountport=$((BASE+19))"
ROUNDS=${ROUNDS:-3}
echo "== $(date -u +%FT%TZ)  $(uptime)"
rm -rf $DIR; ./tessera local --nfs --dir $DIR --port-base $BASE > /tmp/nfsbench-local.log 2>&1 &
LOCAL=$!
until grep -q "^Ready" /tmp/nfsbench-local.log; do sleep 1; done
grep -E "^NFS|^Ready|^Default" /tmp/nfsbench-local.log
./tessera fs mkdir /data --meta $M
[ -f /tmp/g1.bin ] || head -c 1073741824 /dev/urandom > /tmp/g1.bin
t() { local s=$(date +%s.%N); "$@" > /dev/null 2>&1; local rc=$?; local e=$(date +%s.%N); echo "$(echo "$e - $s" | bc) rc=$rc"; }
for r in $(seq 1 $ROUNDS); do
  echo "-- round $r"
  echo "put     $(t ./tessera fs put -q /tmp/g1.bin /data/put-$r.bin --meta $M)"
  echo "nfs-in  $(t nfs-cp /tmp/g1.bin "nfs://127.0.0.1/data/nfs-$r.bin$Q")"
  echo "get     $(t ./tessera fs get -q /data/put-$r.bin /tmp/g1.get --meta $M)"; rm -f /tmp/g1.get
  echo "nfs-out $(t nfs-cp "nfs://127.0.0.1/data/nfs-$r.bin$Q" /tmp/g1.out)"; cmp -s /tmp/g1.bin /tmp/g1.out && echo "  nfs-out identical"; rm -f /tmp/g1.out
  ./tessera fs rm /data/put-$r.bin /data/nfs-$r.bin --meta $M
done
echo "-- tree of 10,000 files (bench nfs, 10 threads of 1,000)"
./tessera bench nfs --nfs 127.0.0.1:$((BASE+18)) --threads 10 --files 10000 --dir /tree
for r in $(seq 1 $ROUNDS); do
  echo "nfs-ls -R /tree: $(t nfs-ls -R "nfs://127.0.0.1/tree$Q")  entries: $(nfs-ls -R "nfs://127.0.0.1/tree$Q" | grep -c '^-')"
done
for th in 4 32; do
  for r in $(seq 1 $ROUNDS); do
    echo "-- creates, $th threads, round $r"
    ./tessera bench meta --meta $M --threads $th --files 5000 --warmup 1000 --warmup-passes 1 | grep creates
    ./tessera bench nfs --nfs 127.0.0.1:$((BASE+18)) --threads $th --files 5000 --dir /bench/nfs-$th-$r | grep creates
  done
done
echo "-- small files of 4 KiB through NFS, 32 threads"
./tessera bench nfs --nfs 127.0.0.1:$((BASE+18)) --threads 32 --files 5000 --size 4096 --dir /bench/nfs-4k | grep creates
kill -TERM $LOCAL; wait $LOCAL
echo "== done $(date -u +%FT%TZ)"
