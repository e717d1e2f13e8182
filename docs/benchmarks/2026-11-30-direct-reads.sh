#!/usr/bin/env bash
# Cold reads with and without direct I/O on the data servers, against dd, one sitting: bench ior
# RS 6+3, 1 client, 1 GiB, 4 MiB transfers, the page cache dropped before each read (--drop-caches,
# as the HDFS peer), 3 runs, on a fresh tessera local --data-servers 9 with
# tessera.data.direct-reads=true (the default) then false, alternating, ROUNDS rounds (default 2);
# between the rounds dd reads a 1 GiB file with the page cache dropped, buffered and O_DIRECT.
# Usage: direct-reads.sh [ROUNDS]. Results in docs/benchmarks/2026-11-30-same-policy.md.
set -euo pipefail
source docs/benchmarks/local-cluster.sh
export TESSERA_SKIP_BUILD=1
D=/tmp/direct-reads
f=/tmp/direct-reads-dd
trap 'stop_cluster 2>/dev/null || true; rm -f $f' EXIT
head -c 1073741824 /dev/urandom > $f && sync
for round in $(seq "${1:-2}"); do
  for direct in true false; do
    start_cluster $D -Dtessera.data.direct-reads=$direct
    echo "== direct-reads $direct, round $round ($(uptime))"
    ./tessera bench ior --meta "$META" --credentials $D/admin.credentials --ec 6+3 --block 1G \
      --transfer 4M --runs 3 --drop-caches 2>/dev/null | grep -E "^  run|^(write|read)"
    stop_cluster
  done
  for flags in "" "iflag=direct"; do
    sync && echo 3 > /proc/sys/vm/drop_caches
    echo "dd bs=4M $flags: $(dd if=$f of=/dev/null bs=4M $flags 2>&1 | tail -1)"
  done
done
rm -rf $D $D.out
