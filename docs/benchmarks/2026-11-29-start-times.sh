#!/usr/bin/env bash
# Where `tessera local`'s start goes (issue 65 item 10). Run from the repository root, built.
# Each round: a first start (no class archives, as after every build, in a new --dir), then a
# later start of the same cluster (with the archives the first wrote when it stopped). For each:
# the launcher's "Ready in", every process's CPU seconds at that moment, and each server's own
# account of its start (the "ready ... after its JVM started" and "registered ..." log lines).
#   bash docs/benchmarks/2026-11-29-start-times.sh [ROUNDS]
set -euo pipefail
rounds=${1:-2}
dir=/tmp/tessera-start-times
cds=admin-cli/target/cds

start() { # $1: label
  : > "$dir.out"
  TESSERA_SKIP_BUILD=1 ./tessera local --dir "$dir" --port-base 28000 > "$dir.out" 2>&1 &
  LOCAL=$!
  until grep -q "^Ready in" "$dir.out"; do
    kill -0 "$LOCAL" 2>/dev/null || { cat "$dir.out" >&2; exit 1; }
    sleep 0.1
  done
  echo "== $1: $(grep '^Ready in' "$dir.out" | cut -d. -f1-2 | cut -d' ' -f1-3), load $(cut -d' ' -f1 /proc/loadavg)"
  python3 - "$dir" <<'PY'
import json, os, sys
d = sys.argv[1]
c = json.load(open(d + "/cluster.json"))
tick = os.sysconf("SC_CLK_TCK")
procs = [(n["id"], n["pid"]) for v in c.values() if isinstance(v, list)
         for n in v if isinstance(n, dict) and "pid" in n]
procs.append(("launcher", int(open(d + "/launcher.pid").read())))
total = 0
line = []
for name, pid in procs:
    f = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
    cpu = (int(f[11]) + int(f[12])) / tick
    total += cpu
    line.append("%s %.1f" % (name, cpu))
print("   CPU s at Ready: " + ", ".join(line) + "; all %.1f" % total)
PY
  for log in "$dir"/logs/m*.log "$dir"/logs/ds-*.log; do
    for event in "ready [0-9].* after its JVM started.*" "registered with.*"; do
      { grep -ho "$event" "$log" || true; } | tail -1 | sed "s|^|   $(basename "$log" .log): |"
    done
  done
}
stop() {
  kill -TERM "$LOCAL"
  wait "$LOCAL" || true
}

uptime
for r in $(seq 1 "$rounds"); do
  rm -rf "$dir" "$cds"
  start "round $r, first start (no class archives)"
  stop
  start "round $r, later start"
  stop
done
uptime
