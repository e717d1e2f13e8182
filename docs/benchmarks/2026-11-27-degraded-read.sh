#!/usr/bin/env bash
# Degraded read: a 1 GiB RS 6+3 file read healthy, then with one of nine data servers SIGKILLed
# (one holding units of the file), alternating healthy/degraded is impossible without a rebuild,
# so: healthy reads x3, kill, degraded reads x3. Run from the repository root.
set -euo pipefail
cd "$(dirname "$0")/../.."
DIR=/tmp/degraded-read
. docs/benchmarks/local-cluster.sh
t() { TESSERA_SKIP_BUILD=1 ./tessera "$@" --meta "$META" 2>/dev/null; }
# recovery waits 10 min before replacing a lost server; rebuilding the dead one's units back
# onto it would need it back up: the degraded reads below run with it down throughout
start_cluster "$DIR"
echo "== $(uptime)"
t bench ior --ec 6+3 --block 1G --transfer 4M --runs 3 --keep --dir /degraded
t bench ior --ec 6+3 --block 1G --transfer 4M --runs 3 --read-only --dir /degraded
kill_server_of /degraded/ior-kept-0
echo "== SIGKILLed $VICTIM (pid $VICTIM_PID), holding the file's first unit"
t bench ior --ec 6+3 --block 1G --transfer 4M --runs 3 --read-only --dir /degraded
stop_cluster
