#!/usr/bin/env bash
# Whether garbage collection slows a fresh cluster's first pass (issue 67 part 4): on a fresh
# tessera local --data-servers 9 (extra arguments go to tessera local), the nine data servers'
# young and full collections (jstat -gc, summed) at the start and after each of three single-pass
# bench ior runs (RS 6+3, 1 GiB, 4 MiB transfers). Results in docs/benchmarks/2026-11-30-warm-up.md.
set -euo pipefail
source docs/benchmarks/local-cluster.sh
export TESSERA_SKIP_BUILD=1
D=/tmp/first-pass-gc
trap 'stop_cluster 2>/dev/null || true' EXIT
start_cluster $D "$@"
pids=$(python3 -c "import json;print(' '.join(str(n['pid']) for n in json.load(open('$D/cluster.json'))['data']))")
gc() { for p in $pids; do jstat -gc $p | tail -1; done | awk '{ygc+=$13; ygct+=$14; fgc+=$15; fgct+=$16; ec+=$5; oc+=$7} END {printf "young GCs %d (%.2f s), full GCs %d (%.2f s), eden %.0f MB, old %.0f MB committed in all\n", ygc, ygct, fgc, fgct, ec/1024, oc/1024}'; }
echo "start: $(gc)"
for pass in 1 2 3; do
  ./tessera bench ior --meta "$META" --credentials $D/admin.credentials --ec 6+3 --block 1G --transfer 4M --warmup 0 --runs 1 --no-verify 2>&1 | grep -E "^(write|read)" | tr '\n' ' '
  echo; echo "after pass $pass: $(gc)"
done
stop_cluster
rm -rf $D $D.out
