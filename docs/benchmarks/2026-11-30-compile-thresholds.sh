#!/usr/bin/env bash
# A fresh cluster's first pass with the JIT's thresholds lowered (issue 67 part 4): rounds of
# bench ior RS 6+3 (1 client, 1 GiB, 4 MiB transfers, no warm-up, six passes) on a fresh
# tessera local --data-servers 9, alternating every JVM at the defaults (A) and every JVM, servers
# and client, with JDK_JAVA_OPTIONS="$OPTS" (B; default -XX:CompileThresholdScaling=0.1: methods
# compile after a tenth of the calls). ROUNDS rounds of A then B (default 2). Results in
# docs/benchmarks/2026-11-30-warm-up.md.
set -euo pipefail
source docs/benchmarks/local-cluster.sh
export TESSERA_SKIP_BUILD=1
D=/tmp/compile-thresholds
ROUNDS=${1:-2}
OPTS=${OPTS:--XX:CompileThresholdScaling=0.1}
trap 'stop_cluster 2>/dev/null || true' EXIT
for round in $(seq "$ROUNDS"); do
  for opts in "" "$OPTS"; do
    if [ -n "$opts" ]; then export JDK_JAVA_OPTIONS="$opts"; else unset JDK_JAVA_OPTIONS; fi
    start_cluster $D
    echo "== round $round, JDK_JAVA_OPTIONS='$opts' ($(uptime))"
    ./tessera bench ior --meta "$META" --credentials $D/admin.credentials --ec 6+3 --block 1G \
      --transfer 4M --warmup 0 --runs 6 --no-verify 2>&1 | grep -E "^  run|^(write|read)"
    stop_cluster
  done
done
unset JDK_JAVA_OPTIONS
rm -rf $D $D.out
