#!/usr/bin/env bash
# Issue 62 part 1: the striped path's speed before and after the layout abstraction (FileBody,
# StripedBody). One 9-server cluster of this build; the client of 95e67de (before, built in
# $OLD, default /tmp/ab-old: git worktree add /tmp/ab-old 95e67de && mvn -o -q package
# -DskipTests there) and of this build, alternating before, after, after, before. Each: 4
# clients, RS 4+2 with 1 MiB units, 256 MiB per client in 4 MiB transfers, one shared file
# (segmented) through streams, 3 runs after one 64 MiB warm-up pass. Run from the repository root.
set -euo pipefail
cd "$(dirname "$0")/../.."
OLD=${OLD:-/tmp/ab-old}
source docs/benchmarks/local-cluster.sh
start_cluster /tmp/layout-ab
ior() {
  local cli=$1
  echo "== $cli ($(uptime))"
  TESSERA_SKIP_BUILD=1 "$cli/tessera" bench ior --meta "$META" --clients 4 --block 256M \
    --transfer 4M --ec 4+2 --warmup 64M --warmup-passes 1 --runs 3 --dir /ab \
    --credentials /tmp/layout-ab/admin.credentials 2>/dev/null | grep -E "^(write|read)"
}
for cli in "$OLD" . . "$OLD"; do
  ior "$cli"
done
stop_cluster
