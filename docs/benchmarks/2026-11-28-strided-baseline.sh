#!/usr/bin/env bash
# Issue 62, before log files: what N-1 strided checkpoints cost on a striped file today. One
# 9-server cluster (security on, the default), RS 4+2 with 1 MiB units, 8 clients, 47,001-byte
# transfers, 64 MiB per client (1,427 whole transfers); N-1 strided against N-N (a file per
# client), alternating strided, N-N, strided, N-N; each invocation warms up on 8 MiB per client.
# Run from the repository root, Tessera built.
set -euo pipefail
cd "$(dirname "$0")/../.."
source docs/benchmarks/local-cluster.sh
start_cluster /tmp/strided-baseline
ior() {
  echo "== $* ($(uptime))"
  TESSERA_SKIP_BUILD=1 ./tessera bench ior --meta "$META" --clients 8 --transfer 47001 --block 64M \
    --credentials /tmp/strided-baseline/admin.credentials --ec 4+2 --warmup 8M --warmup-passes 1 \
    --dir /plain "$@" 2>/dev/null
}
for round in 1 2; do
  ior --strided
  ior --file-per-client
done
stop_cluster
