#!/usr/bin/env bash
# The NFS gateway with its attribute cache off (-Dtessera.nfs.attribute-cache=0: every call asks
# the meta group for its handle) and on (the default, 1 s), alternating A B A B, each a fresh
# `tessera local --nfs`: creates through NFS against bench meta at 4 and 32 threads, and nfs-cp of
# 1 GiB against fs put. From the repository root, built; needs libnfs-utils and bc.
set -u
cd "$(dirname "$0")/../.."
export TESSERA_SKIP_BUILD=1
DIR=/tmp/nfscache; BASE=19860
M="127.0.0.1:$BASE,127.0.0.1:$((BASE+2)),127.0.0.1:$((BASE+4)) --credentials $DIR/admin.credentials"
Q="?version=3&nfsport=$((BASE+18))&mountport=$((BASE+19))"
[ -f /tmp/g1.bin ] || head -c 1073741824 /dev/urandom > /tmp/g1.bin
t() { local s=$(date +%s.%N); "$@" > /dev/null 2>&1; local rc=$?; local e=$(date +%s.%N); echo "$(echo "$e - $s" | bc) s rc=$rc"; }
echo "== $(date -u +%FT%TZ)  $(uptime)"
for run in "A off 0" "B on 1s" "A off 0" "B on 1s"; do
  set -- $run
  rm -rf $DIR
  ./tessera local --nfs --dir $DIR --port-base $BASE -Dtessera.nfs.attribute-cache=$3 > $DIR.log 2>&1 &
  LOCAL=$!
  until grep -q "^Ready" $DIR.log; do sleep 1; done
  echo "-- $1: attribute cache $2 ($3), load $(cut -d' ' -f1 /proc/loadavg)"
  # NFS calls come as root, squashed to nobody: a place nobody may write
  ./tessera fs mkdir -p /bench /data --meta $M && ./tessera fs chmod 1777 /bench /data --meta $M
  for th in 4 32; do
    echo "meta $th: $(./tessera bench meta --meta $M --threads $th --files 5000 --warmup 1000 --warmup-passes 1 2>/dev/null | grep '^creates' | tr -s ' ' | paste -sd ';')"
    echo "nfs  $th: $(./tessera bench nfs --nfs 127.0.0.1:$((BASE+18)) --threads $th --files 5000 --dir /bench/nfs-$th 2>/dev/null | grep '^creates' | tr -s ' ' | paste -sd ';')"
  done
  echo "put 1 GiB:    $(t ./tessera fs put -q /tmp/g1.bin /data/put.bin --meta $M)"
  echo "nfs-cp 1 GiB: $(t nfs-cp /tmp/g1.bin "nfs://127.0.0.1/data/nfs.bin$Q")"
  ./tessera fs get -q /data/nfs.bin /tmp/g1.back --meta $M && cmp -s /tmp/g1.bin /tmp/g1.back && echo "  nfs-cp copy identical"
  rm -f /tmp/g1.back
  kill -TERM $LOCAL; wait $LOCAL
done
echo "== done $(date -u +%FT%TZ)  $(uptime)"
