#!/usr/bin/env bash
# Per-process CPU (utime+stime from /proc) of every server during one `bench meta --threads 4`
# on a fresh 9-server cluster after three warm-up passes, and a JFR recording of the meta leader
# (/tmp/leader.jfr). Run from the repository root.
set -euo pipefail
cd "$(dirname "$0")/../.."
BASE=28000; DIR=/tmp/meta-cpu
META=127.0.0.1:$BASE,127.0.0.1:$((BASE + 2)),127.0.0.1:$((BASE + 4))
rm -rf $DIR && mkdir -p $DIR
TESSERA_SKIP_BUILD=1 ./tessera local --dir $DIR --port-base $BASE --data-servers 9 > $DIR.out 2>&1 &
LOCAL=$!
until grep -q "^Ready in" $DIR.out; do sleep 1; done
TESSERA_SKIP_BUILD=1 ./tessera bench meta --meta $META --threads 4 --files 5000 --warmup 5000 --warmup-passes 3 2>/dev/null | head -2
pids=$(python3 -c "import json;d=json.load(open('$DIR/cluster.json'));print(' '.join(n['id']+':'+str(n['pid']) for k in ('meta','data') for n in d[k]))")
ticks() { for e in $pids; do p=${e#*:}; awk -v id=${e%%:*} '{print id, $14+$15}' /proc/$p/stat; done; }
ticks > /tmp/ticks-before.txt
leader=""
for e in $pids; do case $e in m*) p=${e#*:}; port=$(( BASE + 1000 + 2*(${e:1:1}-1) )); m=$(curl -s http://127.0.0.1:$port/metrics); if [[ "$m" == *$'\ntessera_meta_is_leader 1'* ]]; then leader=$p; echo "leader ${e%%:*} pid $p"; fi;; esac; done
jcmd $leader JFR.start name=c duration=30s filename=/tmp/leader.jfr settings=profile > /dev/null
T0=$(date +%s.%N)
TESSERA_SKIP_BUILD=1 ./tessera bench meta --meta $META --threads 4 --files 10000 --warmup 0 2>/dev/null | head -1
T1=$(date +%s.%N)
ticks > /tmp/ticks-after.txt
jcmd $leader JFR.stop name=c > /dev/null || true
python3 - <<PY
b=dict(l.split() for l in open('/tmp/ticks-before.txt'))
a=dict(l.split() for l in open('/tmp/ticks-after.txt'))
secs=$T1-$T0
tot=0
for k in a:
  d=(int(a[k])-int(b[k]))/100
  tot+=d
  print(f"{k:6s} {d:6.2f} s CPU  ({d/secs*100:5.1f}% of one core)")
print(f"servers {tot:.2f} s CPU over {secs:.2f} s wall ({tot/secs:.2f} cores)")
PY
kill -TERM $LOCAL; wait $LOCAL || true
