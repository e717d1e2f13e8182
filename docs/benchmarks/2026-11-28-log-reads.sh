#!/usr/bin/env bash
# Issue 62, second sitting, after reads of a log file fetch a stripe of each data log at a time
# with the next one read ahead: log N-1 strided against N-N, alternating, two rounds; then the
# restart reads of a kept log file and the open of a 100,000-record file, as in
# 2026-11-28-log-files.sh. Same cluster and sizes. Run from the repository root, Tessera built.
set -euo pipefail
cd "$(dirname "$0")/../.."
source docs/benchmarks/local-cluster.sh
start_cluster /tmp/log-reads
ior() {
  echo "== $* ($(uptime))"
  TESSERA_SKIP_BUILD=1 ./tessera bench ior --meta "$META" --clients 8 --ec 4+2 \
    --credentials /tmp/log-reads/admin.credentials "$@" 2>/dev/null | grep -E "run 1|^reads"
}
W=(--warmup 16M --warmup-passes 1)
B=(--transfer 47001 --block 64M)
for round in 1 2; do
  ior "${W[@]}" "${B[@]}" --log --strided --dir /ckpt
  ior "${W[@]}" "${B[@]}" --file-per-client --dir /plain
done
ior "${W[@]}" "${B[@]}" --log --strided --dir /ckpt --keep
ior --warmup 0 "${B[@]}" --log --strided --dir /ckpt --read-only
ior --warmup 0 "${B[@]}" --log --strided --dir /ckpt --read-only --read-pattern nonuniform --readers 5
ior --warmup 0 "${B[@]}" --log --strided --dir /ckpt --read-only --read-pattern nonuniform --readers 1 --read-transfer 1M
ior --warmup 0 --transfer 4000 --block 50000000 --log --strided --dir /open -Dtessera.client.log-flatten-on-close=false
ior --warmup 0 --transfer 4000 --block 50000000 --log --strided --dir /open
stop_cluster
