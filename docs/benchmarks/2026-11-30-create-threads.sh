#!/usr/bin/env bash
# Which threads of the meta replicas spend the CPU of creates from 4 threads: on a fresh
# tessera local --data-servers 9 (extra arguments go to tessera local, e.g. --meta-replicas 1),
# one untimed bench meta run, then each replica thread's CPU time (/proc/PID/task/*/stat, by the
# thread's name with its numbers left out) around a second run. Results in
# docs/benchmarks/2026-11-30-same-policy.md.
set -euo pipefail
source docs/benchmarks/local-cluster.sh
export TESSERA_SKIP_BUILD=1
D=/tmp/create-threads
trap 'stop_cluster 2>/dev/null || true' EXIT
start_cluster $D "$@"
pids=$(python3 -c "import json;print(','.join(str(n['pid']) for n in json.load(open('$D/cluster.json'))['meta']))")
threads() { python3 - "$pids" <<'PY'
import glob, re, sys, os
tick = os.sysconf('SC_CLK_TCK')
# the kernel keeps 15 characters of a thread's name; jcmd gives the whole of it
names = {}
for pid in sys.argv[1].split(','):
  out = os.popen('jcmd %s Thread.print 2>/dev/null' % pid).read()
  names[pid] = {int(m.group(2), 16): m.group(1) for m in re.finditer(r'^"([^"]+)".* nid=0x([0-9a-f]+)', out, re.M)}
for pid in sys.argv[1].split(','):
  for d in glob.glob('/proc/%s/task/*' % pid):
    try:
      stat = open(d + '/stat').read()
      name = stat[stat.index('(') + 1:stat.rindex(')')]
      f = stat[stat.rindex(')') + 2:].split()
      tid = d.rsplit('/', 1)[1]
      name = names.get(pid, {}).get(int(tid), name)
      print('%s|%s|%s|%.2f' % (pid, tid, name.replace(' ', '_').replace('|', '_'), (int(f[11]) + int(f[12])) / tick))
    except (OSError, ValueError):
      pass
PY
}
bench() {
  ./tessera bench meta --meta "$META" --credentials $D/admin.credentials --threads 4 \
    --files 5000 --warmup 0 2>/dev/null | grep -E "^(creates|stats|removes):"
}
bench >/dev/null
echo "$(uptime)"
before=$(threads)
bench
after=$(threads)
python3 - "$before" "$after" <<'PY'
import collections, re, sys
b = {}
for l in sys.argv[1].split():
  pid, tid, name, cpu = l.split('|'); b[(pid, tid)] = float(cpu)
groups = collections.defaultdict(lambda: collections.Counter())
total = collections.Counter()
for l in sys.argv[2].split():
  pid, tid, name, cpu = l.split('|')
  d = float(cpu) - b.get((pid, tid), 0.0)
  key = re.sub(r'[0-9]+', 'N', re.sub(r'group-[0-9A-F]+', 'group', name))
  groups[pid][key] += d; total[pid] += d
for pid in groups:
  print('replica pid %s: %.1f CPU s in all' % (pid, total[pid]))
  for k, v in groups[pid].most_common(14):
    if v >= 0.1: print('  %6.1f s %5.1f%%  %s' % (v, 100 * v / total[pid], k))
PY
stop_cluster
rm -rf $D $D.out
