#!/usr/bin/env bash
# Where a read's CPU goes: a fresh 9-server cluster, `bench ior --keep` of a 1 GiB file (RS 6+3 by
# default, or $1), then one `bench ior --read-only --runs 5` with every process's CPU (utime and
# stime from /proc: the reading client, each data server, the meta replicas) and vmstat (us, sy,
# wa, st and bi: disk reads) over it; with a second argument "degraded", one of the file's servers
# is SIGKILLed first. Run from the repository root.
set -euo pipefail
cd "$(dirname "$0")/../.."
EC=${1:-6+3}
MODE=${2:-healthy}
DIR=/tmp/read-cpu
. docs/benchmarks/local-cluster.sh
start_cluster "$DIR"
trap stop_cluster EXIT
ior() { TESSERA_SKIP_BUILD=1 ./tessera bench ior --meta "$META" --ec "$EC" --block 1G --transfer 4M --dir /read-cpu "$@" 2>/dev/null; }
echo "== ior $EC --keep ($(uptime))"
ior --runs 3 --keep | grep -E '^warm|^(write|read):'
if [ "$MODE" = degraded ]; then
  kill_server_of /read-cpu/ior-kept-0
  victim=$VICTIM
  echo "== SIGKILLed $victim (pid $VICTIM_PID), a server of the file"
fi
servers=$(python3 -c "import json;d=json.load(open('$DIR/cluster.json'));print(' '.join(n['id']+':'+str(n['pid']) for k in ('meta','data') for n in d[k] if '$MODE' != 'degraded' or n['id'] != '${victim:-}'))")
ticks() { for e in $servers "client:$1"; do awk -v id="${e%%:*}" '{print id, $14, $15}' "/proc/${e#*:}/stat"; done; }
echo "== ior $EC --read-only --runs 5 ($(uptime))"
vmstat 1 > /tmp/read-cpu-vmstat.txt & vm=$!
ior --runs 5 --read-only --no-verify > /tmp/read-cpu-ior.txt &
sleep 1
client=$(pgrep -f 'bench ior.*--read-only' | head -1)
threads() { # the client's threads: name, utime, stime
  for t in /proc/"$1"/task/*; do
    awk '{ match($0, /\(.*\)/); name = substr($0, RSTART + 1, RLENGTH - 2); gsub(/[0-9]+/, "N", name); gsub(/ /, "_", name)
           split(substr($0, RSTART + RLENGTH), f, " "); print name, f[12], f[13] }' "$t/stat"
  done
}
ticks $client > /tmp/read-cpu-before.txt
threads $client > /tmp/read-cpu-threads-before.txt
t0=$(date +%s.%N)
while kill -0 $client 2>/dev/null; do
  ticks $client > /tmp/read-cpu-after.txt.new 2>/dev/null && mv /tmp/read-cpu-after.txt.new /tmp/read-cpu-after.txt
  threads $client > /tmp/read-cpu-threads-after.txt.new 2>/dev/null && mv /tmp/read-cpu-threads-after.txt.new /tmp/read-cpu-threads-after.txt
  t1=$(date +%s.%N)
  sleep 0.2
done
kill $vm
grep -E '^warm|^  run|^read:' /tmp/read-cpu-ior.txt
python3 - "$t0" "$t1" <<'PY'
import sys
secs = float(sys.argv[2]) - float(sys.argv[1])
b = {l.split()[0]: l.split()[1:] for l in open('/tmp/read-cpu-before.txt')}
a = {l.split()[0]: l.split()[1:] for l in open('/tmp/read-cpu-after.txt')}
groups = {}
for k in a:
    g = 'client' if k == 'client' else ('meta' if k.startswith('m') else 'data')
    u = (int(a[k][0]) - int(b[k][0])) / 100
    s = (int(a[k][1]) - int(b[k][1])) / 100
    gu, gs = groups.get(g, (0, 0))
    groups[g] = (gu + u, gs + s)
print(f"CPU over {secs:.1f} s of reading (warm-up passes included):")
for g, (u, s) in groups.items():
    print(f"  {g:7s} user {u:6.1f} s  system {s:6.1f} s  = {(u + s) / secs:.2f} cores")
def by_name(path):
    out = {}
    for line in open(path):
        name, u, s = line.split()
        out[name] = out.get(name, 0) + int(u) + int(s)
    return out
tb, ta = by_name('/tmp/read-cpu-threads-before.txt'), by_name('/tmp/read-cpu-threads-after.txt')
rows = sorted(((ta[k] - tb.get(k, 0)) / 100, k) for k in ta)
print("client threads (CPU s):", ", ".join(f"{k} {v:.1f}" for v, k in reversed(rows[-10:]) if v > 0))
PY
awk 'NR>2 {us+=$13; sy+=$14; id+=$15; wa+=$16; st+=$17; bi+=$9; n++} END {printf "vmstat means over %d s: us %.0f sy %.0f id %.0f wa %.0f st %.0f %%, bi %.0f MB/s\n", n, us/n, sy/n, id/n, wa/n, st/n, bi/n/1024}' /tmp/read-cpu-vmstat.txt
