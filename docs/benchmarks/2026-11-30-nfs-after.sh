#!/usr/bin/env bash
# NFS against the native client after group commit became the default (issue 67 part 2), in one
# sitting on one fresh `tessera local --nfs` (its defaults: 3 meta replicas, 6 data servers):
# ROUNDS rounds (default 3) alternating bench meta and bench nfs at 4 and at 32 threads (5,000
# files each after an untimed 1,000); then ROUNDS rounds alternating `fs put` and `nfs-cp` of the
# same 1 GiB of random bytes, each nfs-cp copy checked with cmp. From the repository root, built;
# needs libnfs-utils and bc. Results in docs/benchmarks/2026-11-30-nfs-after.md.
set -euo pipefail
source docs/benchmarks/local-cluster.sh
export TESSERA_SKIP_BUILD=1
D=/tmp/nfs-after
ROUNDS=${1:-3}
M="--meta $META --credentials $D/admin.credentials"
NFS=127.0.0.1:$((BASE + 18))
Q="?version=3&nfsport=$((BASE + 18))&mountport=$((BASE + 19))"
[ -f /tmp/nfs-after.bin ] || head -c 1073741824 /dev/urandom > /tmp/nfs-after.bin
trap 'stop_cluster 2>/dev/null || true; rm -f /tmp/nfs-after.back' EXIT
DATA_SERVERS=6 start_cluster $D --nfs
# NFS calls come as root, squashed to nobody: places nobody may write
./tessera fs mkdir -p /bench /data $M
./tessera fs chmod 1777 /bench /data $M
seconds() { local s e; s=$(date +%s.%N); "$@" > /dev/null 2>&1; e=$(date +%s.%N); echo "$e - $s" | bc; }
for threads in 4 32; do
  for round in $(seq "$ROUNDS"); do
    echo "== $threads threads, round $round ($(uptime))"
    ./tessera bench meta $M --threads $threads --files 5000 --warmup 1000 --warmup-passes 1 \
      2>/dev/null | grep "^creates, a directory per thread"
    ./tessera bench nfs --nfs $NFS --threads $threads --files 5000 --dir /bench/n$threads-$round \
      2>/dev/null | grep "^creates"
  done
done
for round in $(seq "$ROUNDS"); do
  put=$(seconds ./tessera fs put -q /tmp/nfs-after.bin /data/put$round.bin $M)
  cp=$(seconds nfs-cp /tmp/nfs-after.bin "nfs://127.0.0.1/data/nfs$round.bin$Q")
  ./tessera fs get -q /data/nfs$round.bin /tmp/nfs-after.back $M
  same=$(cmp -s /tmp/nfs-after.bin /tmp/nfs-after.back && echo identical || echo DIFFERENT)
  rm -f /tmp/nfs-after.back
  echo "== 1 GiB, round $round: fs put $put s, nfs-cp $cp s (copy $same), put/nfs-cp $(echo "scale=2; $put / $cp" | bc)"
done
stop_cluster
rm -rf $D $D.out
