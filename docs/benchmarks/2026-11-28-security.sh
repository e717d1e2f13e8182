#!/usr/bin/env bash
# Issue 61, one sitting: what security costs. Four fresh 9-server clusters, security on (the
# default: mutual TLS everywhere, Raft over gRPC with TLS, access tokens) and off
# (-Dtessera.security=off on every server and client), alternating on, off, off, on.
# Each runs bench meta from 4 threads and from 2 clients x 16, bench ior RS 6+3 (1 GiB, 4 MiB
# transfers, warm reads on both sides), five `fs ls /` (a command's whole time) and bench
# handshakes; the meta leader's Raft commit latency (its /metrics) is read around each metadata
# run. Then the Raft port alone: security off with the
# old netty transport against security on, alternating, bench meta --threads 4.
# Run from the repository root, Tessera built.
set -euo pipefail
cd "$(dirname "$0")/../.."
source docs/benchmarks/local-cluster.sh
t() { TESSERA_SKIP_BUILD=1 ./tessera "$@" --meta "$META" 2>/dev/null; }
leader_commits() { # the meta leader's commit-latency histogram: "count sum"
  for p in 0 2 4; do
    m=$(curl -s "http://127.0.0.1:$((BASE + 1000 + p))/metrics" || true)
    if echo "$m" | grep -q '^tessera_meta_is_leader 1'; then
      echo "$m" | awk '/^tessera_meta_raft_commit_duration_seconds_count /{c=$2} /^tessera_meta_raft_commit_duration_seconds_sum /{s=$2} END {print c, s}'
    fi
  done
}
meta_run() { # $1: label, then bench meta args; prints the mean commit latency of the run
  local label=$1; shift
  echo "== $label ($(uptime))"
  local before after
  before=$(leader_commits)
  t bench meta "${CLIENT[@]}" "$@"
  after=$(leader_commits)
  echo "$before $after" | awk '{n=$3-$1; if (n > 0) printf "Raft commit, mean over the run: %.2f ms (%d commits)\n", ($4-$2)/n*1000, n}'
}
round() { # $1: on|off
  local mode=$1 dir=/tmp/security-sitting-$1
  if [ "$mode" = on ]; then
    start_cluster "$dir"
    CLIENT=(--credentials "$dir/admin.credentials")
  else
    start_cluster "$dir" -Dtessera.security=off
    CLIENT=(-Dtessera.security=off)
  fi
  echo "#### security $mode: $(grep '^Ready in' "$dir.out")"
  meta_run "$mode meta 4 threads" --threads 4 --files 10000 --warmup 2000 --warmup-passes 2
  meta_run "$mode meta 2x16" --clients 2 --threads 16 --files 10000 --warmup 2000 --warmup-passes 1
  echo "== $mode ior 6+3 ($(uptime))"
  t bench ior "${CLIENT[@]}" --ec 6+3 --block 1G --transfer 4M --runs 3
  echo "== $mode fs ls /, seconds a command, 5 runs: $(for i in 1 2 3 4 5; do
    /usr/bin/time -f %e env TESSERA_SKIP_BUILD=1 ./tessera fs ls / --meta "$META" "${CLIENT[@]}" 2>&1 >/dev/null | tail -1
  done | tr '\n' ' ')"
  echo "== $mode handshakes ($(uptime))"
  t bench handshakes "${CLIENT[@]}" --threads 4 --seconds 10 --runs 3
  stop_cluster
}
raft_round() { # $1: netty-off|on
  local dir=/tmp/security-sitting-raft
  if [ "$1" = on ]; then
    start_cluster "$dir"
    CLIENT=(--credentials "$dir/admin.credentials")
  else
    start_cluster "$dir" -Dtessera.security=off -Dtessera.meta.raft-transport=netty
    CLIENT=(-Dtessera.security=off)
  fi
  meta_run "raft $1 meta 4 threads" --threads 4 --files 10000 --warmup 2000 --warmup-passes 2
  stop_cluster
}
for mode in on off off on; do
  round "$mode"
done
for mode in netty-off on on netty-off; do
  raft_round "$mode"
done
