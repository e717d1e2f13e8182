#!/usr/bin/env bash
# A/B of the data servers' direct I/O (tessera.data.direct-writes / direct-reads): each side on a
# fresh 9-server cluster, `bench ior` RS 6+3 then 6+0 (1 GiB, 3 runs), with vmstat over each
# (bi: MB/s read from the disk, bo: written; us/sy: CPU). Sides alternate.
# Usage: docs/benchmarks/2026-11-27-direct-io-ab.sh [ROUNDS [SIDE...]], each SIDE the -D settings
# of `tessera local` ("" for the defaults); default: 2 rounds of "" against both direct settings
# false.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=${1:-2}
shift || true
if [ $# -eq 0 ]; then
  set -- "" "-Dtessera.data.direct-writes=false -Dtessera.data.direct-reads=false"
fi
DIR=/tmp/direct-io
. docs/benchmarks/local-cluster.sh
side() { # $1 label, then tessera local -D settings
  local label=$1; shift
  start_cluster "$DIR" "$@"
  for ec in 6+3 6+0; do
    echo "== $label, $ec ($(uptime))"
    vmstat 1 > /tmp/direct-io-vmstat.txt & local vm=$!
    TESSERA_SKIP_BUILD=1 ./tessera bench ior --meta "$META" --ec $ec --block 1G --transfer 4M --runs 3 2>/dev/null \
      | grep -E '^warm|^(write|read):'
    kill $vm
    awk 'NR>2 {us+=$13; sy+=$14; wa+=$16; bi+=$9; bo+=$10; n++} END {printf "vmstat means over %d s: us %.0f sy %.0f wa %.0f %%, bi %.0f MB/s, bo %.0f MB/s\n", n, us/n, sy/n, wa/n, bi/n/1024, bo/n/1024}' /tmp/direct-io-vmstat.txt
  done
  stop_cluster
}
for round in $(seq "$ROUNDS"); do
  for settings in "$@"; do
    # shellcheck disable=SC2086 # each side is a list of settings
    side "round $round, ${settings:-defaults}" $settings
  done
done
