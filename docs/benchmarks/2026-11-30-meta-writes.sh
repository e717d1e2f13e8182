#!/usr/bin/env bash
# What each meta replica writes during 4 GiB of bench ior (RS 6+3, 4 passes of 1 GiB, no warm-up)
# on a fresh tessera local --data-servers 9: /proc/PID/io (write_bytes: dirtied for the disk;
# wchar: through write calls) and its directories' sizes, before and after. Results in
# docs/benchmarks/2026-11-30-same-policy.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
source docs/benchmarks/local-cluster.sh
export TESSERA_SKIP_BUILD=1
D=/tmp/meta-io
trap 'stop_cluster 2>/dev/null || true' EXIT
start_cluster $D
io() { python3 - "$D/cluster.json" <<'PY'
import json,sys
c=json.load(open(sys.argv[1]))
for n in c['meta']:
  d=dict(l.split(': ') for l in open('/proc/%d/io'%n['pid']).read().split('\n') if l)
  print(n['id'], 'write_bytes', int(d['write_bytes'])//(1<<20), 'MiB', 'wchar', int(d['wchar'])//(1<<20), 'MiB')
PY
}
sizes() { du -sm $D/meta/m1/* 2>/dev/null | tr '\n' ' '; echo; }
echo "before:"; io; sizes
./tessera bench ior --meta "$META" --credentials $D/admin.credentials --ec 6+3 --block 1G --transfer 4M --warmup 0 --runs 4 --no-verify 2>&1 | grep -E "^(write|read)"
echo "after 4 GiB written:"; io; sizes
ls -la $D/meta/m1/raft/*/current | tail -5
