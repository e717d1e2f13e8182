#!/usr/bin/env bash
# Where a create from 4 threads waits, with three meta replicas (or the tessera local options given,
# e.g. --meta-replicas 1): on a fresh tessera local --data-servers 9, around one bench meta run after an untimed one,
# each replica's CPU time and time runnable but waiting for a CPU (/proc/PID/task/*/schedstat), and
# with FSYNCS=1 also the count and duration of its fsyncs (perf trace -s, which slows every replica
# several times over: its rates then say nothing). Results in
# docs/benchmarks/2026-11-30-same-policy.md.
set -euo pipefail
source docs/benchmarks/local-cluster.sh
export TESSERA_SKIP_BUILD=1
D=/tmp/create-waits
trap 'stop_cluster 2>/dev/null || true; [ -z "${TRACE:-}" ] || kill $TRACE 2>/dev/null || true' EXIT
start_cluster $D "$@"
pids=$(python3 -c "import json;print(','.join(str(n['pid']) for n in json.load(open('$D/cluster.json'))['meta']))")
sched() { python3 - "$pids" <<'PY'
import glob,sys
for pid in sys.argv[1].split(','):
  run=wait=0
  for f in glob.glob('/proc/%s/task/*/schedstat'%pid):
    try:
      r,w,_=open(f).read().split(); run+=int(r); wait+=int(w)
    except Exception: pass
  print('%s:%.2f:%.2f'%(pid,run/1e9,wait/1e9))
PY
}
# warmed first, untimed, as bench meta --warmup would, but outside the measured window
./tessera bench meta --meta "$META" --credentials $D/admin.credentials --threads 4 \
  --files 5000 --warmup 0 >/dev/null 2>&1
echo "$(uptime)"
before=$(sched)
TRACE=
if [ "${FSYNCS:-0}" = 1 ]; then
  perf trace -s -p "$pids" -e fsync,fdatasync -o $D/fsyncs.txt &
  TRACE=$!
fi
start=$(date +%s.%N)
./tessera bench meta --meta "$META" --credentials $D/admin.credentials --threads 4 \
  --files 5000 --warmup 0 2>/dev/null | grep -E "^(creates|stats|removes):"
end=$(date +%s.%N)
[ -z "$TRACE" ] || { kill -INT $TRACE; wait $TRACE || true; }
after=$(sched)
python3 - "$before" "$after" "$start" "$end" <<'PY'
import sys
b={l.split(':')[0]:l.split(':')[1:] for l in sys.argv[1].split()}
a={l.split(':')[0]:l.split(':')[1:] for l in sys.argv[2].split()}
wall=float(sys.argv[4])-float(sys.argv[3])
for pid in a:
  run=float(a[pid][0])-float(b[pid][0]); wait=float(a[pid][1])-float(b[pid][1])
  print('replica pid %s: on CPU %.1f s, runnable but waiting %.1f s, over %.1f s of bench' % (pid, run, wait, wall))
PY
[ -z "$TRACE" ] || grep -E "fsync|fdatasync" $D/fsyncs.txt
stop_cluster
rm -rf $D $D.out
