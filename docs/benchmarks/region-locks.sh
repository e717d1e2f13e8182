#!/usr/bin/env bash
# Region locks (pCFS), one sitting: the lock home's round trips and hand-offs (tessera bench locks),
# then pCFS's exercisers on 4 processes writing and reading disjoint regions of one RS 4+2 file
# for each record size, every kind with cached locks, and wrt-sml-lck again without caching.
# Sizes shrink with the record so every kind runs for seconds, not hours (see the results file).
set -euo pipefail
cd "$(dirname "$0")/../.."
. docs/benchmarks/local-cluster.sh
D=${D:-/tmp/tessera-region-locks}
uptime
start_cluster "$D"
trap stop_cluster EXIT
T="env TESSERA_SKIP_BUILD=1 ./tessera"
C="--meta $META --credentials $D/admin.credentials"
$T bench locks $C
for rs in 4K:2M 64K:16M 1M:256M 4M:1G; do
  record=${rs%%:*}
  size=${rs##*:}
  $T bench exerciser --pattern P --size "$size" --record "$record" --processes 4 --ec 4+2 --all --runs 3 $C
  $T bench exerciser --pattern P --size "$size" --record "$record" --processes 4 --ec 4+2 \
    --kind wrt-sml-lck --runs 3 -Dtessera.client.region-cache=false $C
done
uptime
