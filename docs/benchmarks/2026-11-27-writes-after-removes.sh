#!/usr/bin/env bash
# Writes right after many removes: on a fresh 9-server cluster, `bench ior` RS 6+3 (one run), then
# `bench meta --threads 4` (its defaults: some 70,000 empty files created and removed, warm-up
# included), then the same `bench ior` at once and again after 60 s idle; the data servers' and
# the meta replicas' CPU (/proc) over each step and each 15 s of the idle minute, and how many
# removed files the data servers have yet to drop (tessera cluster status). Arguments go to
# `tessera local` (e.g. -D=tessera.meta.reclaim-per-second=128). Run from the repository root.
set -euo pipefail
cd "$(dirname "$0")/../.."
DIR=/tmp/writes-after-removes
. docs/benchmarks/local-cluster.sh
start_cluster "$DIR" "$@"
trap stop_cluster EXIT
ticks() { python3 -c "
import json
d = json.load(open('$DIR/cluster.json'))
print(' '.join(str(sum(sum(int(x) for x in open(f'/proc/{n[\"pid\"]}/stat').read().rsplit(')', 1)[1].split()[11:13]) for n in d[k])) for k in ('data', 'meta')))"; }
cpu() { # CPU seconds of the data servers and the meta replicas between two ticks
  python3 -c "b = '$1'.split(); a = '$2'.split(); print(f'data servers {(int(a[0]) - int(b[0])) / 100:.1f} s, meta replicas {(int(a[1]) - int(b[1])) / 100:.1f} s CPU')"
}
to_reclaim() { TESSERA_SKIP_BUILD=1 ./tessera cluster status --meta "$META" 2>/dev/null | sed -n 's/^Removed files whose shards are still to be deleted: //p'; }
step() { # $1 label, then a tessera command
  local label=$1; shift
  local t0 c0; t0=$(date +%s.%N); c0=$(ticks)
  local out; out=$(TESSERA_SKIP_BUILD=1 ./tessera "$@" --meta "$META" 2>/dev/null | grep -E '^(warm|write:|read:|creates:|removes:)' | tr '\n' ' ')
  local t1 c1; t1=$(date +%s.%N); c1=$(ticks)
  echo "$label ($(date +%T)): $out| $(cpu "$c0" "$c1") over $(python3 -c "print(f'{$t1 - $t0:.1f}')") s; files to reclaim after: $(to_reclaim)"
}
echo "== $(uptime)"
step "ior 6+3, fresh" bench ior --ec 6+3 --block 1G --transfer 4M --runs 1
step "bench meta --threads 4" bench meta --threads 4
step "ior 6+3, right after" bench ior --ec 6+3 --block 1G --transfer 4M --runs 1
for i in 1 2 3 4; do
  c0=$(ticks); sleep 15; c1=$(ticks)
  echo "idle, 15 s: $(cpu "$c0" "$c1"); files to reclaim: $(to_reclaim)"
done
step "ior 6+3, 60 s later" bench ior --ec 6+3 --block 1G --transfer 4M --runs 1
