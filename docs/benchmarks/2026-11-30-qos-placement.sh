#!/usr/bin/env bash
# QoS placement (run from the repository root, Tessera built; results and what each run showed in
# docs/benchmarks/2026-11-30-qos-placement.md). Two parts, each one sitting:
#   overhead [ROUNDS] [CONFIGS]: bench ior --ec 6+3 (4 clients x 256 MiB, 4 MiB transfers, 3 runs
#     after its warm-up) on 9 data servers, for each of CONFIGS in turn, ROUNDS times (default 2
#     rounds of "none embedded proxy"). A config: none (no QoS), proxy (tessera local --qos),
#     embedded (-Dtessera.qos.placement=embedded), or embedded-dN / proxy-dN (tessera.qos.depth=N).
#   shares CAP [PLACEMENTS]: 8 data servers each capped at CAP bytes/s (tessera.data.test-device-cap,
#     so storage is what applications wait for), bench qos writers (4 writers per application,
#     weights 1:3 and 3:1) and bursty, for each placement (default "embedded proxy").
set -euo pipefail
source docs/benchmarks/local-cluster.sh
T="./tessera"
export TESSERA_SKIP_BUILD=1
D=/tmp/qos-placement
trap 'stop_cluster 2>/dev/null || true' EXIT
config_opts() {
  local depth=${1##*-d}
  case $1 in
    none) ;;
    embedded) echo "-Dtessera.qos.placement=embedded" ;;
    proxy) echo "--qos" ;;
    embedded-d*) echo "-Dtessera.qos.placement=embedded -Dtessera.qos.depth=$depth" ;;
    proxy-d*) echo "--qos -Dtessera.qos.depth=$depth" ;;
    *) echo "unknown config $1" >&2; exit 2 ;;
  esac
}
overhead() {
  local rounds=${1:-2} configs=${2:-none embedded proxy}
  echo "== overhead: bench ior --ec 6+3, 4 clients x 256 MiB, 4 MiB transfers; $(uptime)"
  for round in $(seq "$rounds"); do
    for c in $configs; do
      # shellcheck disable=SC2046
      start_cluster $D $(config_opts "$c")
      printf '%s round %s (load %s): ' "$c" "$round" "$(cut -d' ' -f1 /proc/loadavg)"
      $T bench ior --meta "$META" --credentials $D/admin.credentials --ec 6+3 --block 256M \
        --transfer 4M --clients 4 --runs 3 --no-verify 2>&1 | grep -E "^(write|read)" | tr '\n' ' '
      echo
      stop_cluster
    done
  done
}
shares() {
  local cap=$1 placements=${2:-embedded proxy}
  echo "== shares: 8 data servers capped at $cap each; $(uptime)"
  for p in $placements; do
    # shellcheck disable=SC2046
    DATA_SERVERS=8 start_cluster $D $(config_opts "$p") -Dtessera.data.test-device-cap="$cap"
    echo "-- $p (load $(cut -d' ' -f1 /proc/loadavg))"
    $T bench qos --meta "$META" --credentials $D/admin.credentials --experiment writers \
      --threads 4 --seconds 12 --runs 3
    $T bench qos --meta "$META" --credentials $D/admin.credentials --experiment bursty \
      --threads 16 --seconds 12 --runs 3
    stop_cluster
  done
}
case ${1:-} in
  overhead) shift; overhead "$@" ;;
  shares) shift; shares "$@" ;;
  *) echo "usage: $0 overhead [ROUNDS] [CONFIGS] | shares CAP [PLACEMENTS]" >&2; exit 2 ;;
esac
rm -rf $D $D.out
