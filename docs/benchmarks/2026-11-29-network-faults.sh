#!/usr/bin/env bash
# Time to full redundancy after each network fault of NetworkFaultsProcessTest (as root: network
# namespaces, nftables, libfaketime), run after run; each run's table goes to
# /tmp/network-faults-N.md.
#   bash docs/benchmarks/2026-11-29-network-faults.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${1:-2}
mvn -B -q -DskipTests install
for i in $(seq 1 "$runs"); do
  uptime
  mvn -B -q -pl integration-tests test -Dtest=NetworkFaultsProcessTest \
    -Dsurefire.failIfNoSpecifiedTests=false
  cp integration-tests/target/network-faults.md "/tmp/network-faults-$i.md"
done
