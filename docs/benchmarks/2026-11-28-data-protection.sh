#!/usr/bin/env bash
# Issue 61, second sitting: what protects data frames after the handshake. Fresh 9-server clusters
# with tessera.security.data-protection=privacy (the default: TLS to the end),
# =authentication (mutual TLS handshake, then frames in clear with their access tokens) and
# tessera.security=off, alternating auth, privacy, off, off, privacy, auth; each runs bench ior
# RS 6+3 (1 GiB, 4 MiB transfers, 3 runs, warm reads on every side), setting the same on servers
# and client. Run from the repository root, Tessera built.
set -euo pipefail
cd "$(dirname "$0")/../.."
source docs/benchmarks/local-cluster.sh
round() { # $1: privacy|authentication|off
  local mode=$1 dir=/tmp/data-protection-$1 settings
  case $mode in
    off) settings=(-Dtessera.security=off) ;;
    *) settings=(-Dtessera.security.data-protection="$mode") ;;
  esac
  start_cluster "$dir" "${settings[@]}"
  local client=("${settings[@]}")
  [ "$mode" = off ] || client+=(--credentials "$dir/admin.credentials")
  echo "== $mode ior 6+3 ($(uptime))"
  TESSERA_SKIP_BUILD=1 ./tessera bench ior --meta "$META" "${client[@]}" \
    --ec 6+3 --block 1G --transfer 4M --runs 3 2>/dev/null
  stop_cluster
}
for mode in authentication privacy off off privacy authentication; do
  round "$mode"
done
