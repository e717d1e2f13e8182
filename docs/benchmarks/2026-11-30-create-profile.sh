#!/usr/bin/env bash
# Where the meta replicas' CPU goes during creates from 4 threads with three replicas: on a fresh
# tessera local --data-servers 9, one untimed bench meta run, then JFR (settings=profile) on every
# replica during a second; prints each replica's hottest frames (top of stack, by execution
# samples) and which packages own its samples anywhere in the stack. Extra arguments go to
# tessera local. Results in docs/benchmarks/2026-11-30-same-policy.md.
set -euo pipefail
source docs/benchmarks/local-cluster.sh
export TESSERA_SKIP_BUILD=1
D=/tmp/create-profile
trap 'stop_cluster 2>/dev/null || true' EXIT
start_cluster $D "$@"
bench() {
  ./tessera bench meta --meta "$META" --credentials $D/admin.credentials --threads 4 \
    --files 5000 --warmup 0 2>/dev/null | grep -E "^(creates|removes):"
}
bench >/dev/null
ids=$(python3 -c "import json;print(' '.join(n['id']+':'+str(n['pid']) for n in json.load(open('$D/cluster.json'))['meta']))")
for e in $ids; do jcmd "${e#*:}" JFR.start name=cp settings=profile filename=$D/${e%%:*}.jfr >/dev/null; done
echo "$(uptime)"
bench
for e in $ids; do jcmd "${e#*:}" JFR.stop name=cp >/dev/null; done
leader=$(./tessera cluster status --meta "$META" --credentials $D/admin.credentials --json 2>/dev/null | python3 -c "import json,sys;print([r['id'] for r in json.load(sys.stdin)['replicas'] if r.get('leader')][0])" || echo "?")
for e in $ids; do
  id=${e%%:*}
  echo "== $id $([ "$id" = "$leader" ] && echo '(leader)')"
  jfr print --events jdk.ExecutionSample $D/$id.jfr | python3 -c '
import sys, re, collections
top = collections.Counter(); pkg = collections.Counter(); n = 0
frames = None
for line in sys.stdin:
  if "jdk.ExecutionSample" in line:
    if frames: 
      n += 1; top[frames[0]] += 1
      for p in set(frames): pkg[p] += 0
      seen = set()
      for f in frames:
        m = re.match(r"((?:[a-z0-9_]+\.){1,3})", f)
        k = m.group(1) if m else f
        if k not in seen: seen.add(k); pkg[k] += 1
    frames = []
  elif frames is not None and re.match(r"\s+[\w$.]+\(", line) and "line:" in line:
    frames.append(line.strip().split("(")[0])
if frames:
  n += 1; top[frames[0]] += 1
print("samples:", n)
for f, c in top.most_common(12): print("  top %5.1f%% %s" % (100 * c / n, f))
for p, c in sorted(pkg.items(), key=lambda x: -x[1])[:12]:
  if c: print("  in stack %5.1f%% %s" % (100 * c / n, p))
'
done
stop_cluster
rm -rf $D $D.out
