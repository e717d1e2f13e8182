#!/usr/bin/env bash
# Issue 62: log-structured files against striped ones. One 9-server cluster (security on, the
# default), RS 4+2 with 1 MiB units, 8 clients, 47,001-byte transfers, 64 MiB per client (1,427
# whole transfers). Alternating, two rounds: log N-1 strided, striped N-1 strided, N-N (a file per
# client); each invocation warms up on 16 MiB per client and verifies every byte after its run.
# Then restart reads of a kept log file (8 readers as written, 5 readers of contiguous shares,
# one reader of 1 MiB calls), and the open of an 8-writer log file with 100,000 index entries,
# not flattened and flattened. Run from the repository root, Tessera built.
set -euo pipefail
cd "$(dirname "$0")/../.."
source docs/benchmarks/local-cluster.sh
start_cluster /tmp/log-files
ior() {
  echo "== $* ($(uptime))"
  TESSERA_SKIP_BUILD=1 ./tessera bench ior --meta "$META" --clients 8 \
    --credentials /tmp/log-files/admin.credentials --ec 4+2 "$@" 2>/dev/null
}
for round in 1 2; do
  ior --warmup 16M --warmup-passes 1 --transfer 47001 --block 64M --log --strided --dir /ckpt
  ior --warmup 16M --warmup-passes 1 --transfer 47001 --block 64M --strided --dir /plain
  ior --warmup 16M --warmup-passes 1 --transfer 47001 --block 64M --file-per-client --dir /plain
done
ior --warmup 16M --warmup-passes 1 --transfer 47001 --block 64M --log --strided --dir /ckpt --keep
ior --transfer 47001 --block 64M --log --strided --dir /ckpt --read-only --warmup 0
ior --transfer 47001 --block 64M --log --strided --dir /ckpt --read-only --warmup 0 --read-pattern nonuniform --readers 5
ior --transfer 47001 --block 64M --log --strided --dir /ckpt --read-only --warmup 0 --read-pattern nonuniform --readers 1 --read-transfer 1M
# 100,000 records: 8 writers of 12,500 transfers of 4,000 bytes each
ior --transfer 4000 --block 50000000 --log --strided --dir /open --warmup 0 -Dtessera.client.log-flatten-on-close=false
ior --transfer 4000 --block 50000000 --log --strided --dir /open --warmup 0
stop_cluster
