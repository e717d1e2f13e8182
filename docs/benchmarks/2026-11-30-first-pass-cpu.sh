#!/usr/bin/env bash
# CPU seconds of each kind of process (meta replicas, data servers: user and kernel, from
# /proc/PID/stat) around each of PASSES (default 3) single-pass bench ior runs (RS 6+3, 1 GiB, no
# warm-up) on a fresh tessera local --data-servers 9; the client's from /usr/bin/time. Extra
# arguments go to tessera local. Results in docs/benchmarks/2026-11-30-warm-up.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
source docs/benchmarks/local-cluster.sh
export TESSERA_SKIP_BUILD=1
D=/tmp/cpu-pass
trap 'stop_cluster 2>/dev/null || true' EXIT
start_cluster $D "$@"
snap() { python3 - "$D/cluster.json" <<'PY'
import json,sys,os
c=json.load(open(sys.argv[1]))
hz=os.sysconf('SC_CLK_TCK')
out={}
for kind in ('meta','data','proxies'):
  for n in c.get(kind,[]):
    try:
      f=open('/proc/%d/stat'%n['pid']).read().split(')')[1].split()
      out[kind+'.usr']=out.get(kind+'.usr',0)+int(f[11])/hz; out[kind+'.sys']=out.get(kind+'.sys',0)+int(f[12])/hz
    except Exception: pass
print(' '.join('%s=%.1f'%(k,v) for k,v in out.items()))
PY
}
for pass in $(seq ${PASSES:-3}); do
  before=$(snap)
  /usr/bin/time -f "client cpu user %U sys %S wall %e" ./tessera bench ior --meta "$META" --credentials $D/admin.credentials --ec 6+3 --block 1G --transfer 4M --warmup 0 --runs 1 --no-verify 2>&1 | grep -E "run 1|client cpu"
  echo "servers before: $before after: $(snap)"
done
