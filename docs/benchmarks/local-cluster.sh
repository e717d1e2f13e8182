# Sourced by the benchmark scripts (run from the repository root, Tessera built):
# start_cluster DIR [tessera local options...] starts `tessera local --data-servers ${DATA_SERVERS:-9}` on port base
# 28000 in DIR (emptied first; its output in DIR.out) and waits until it is ready; stop_cluster
# stops it; META names its meta replicas.
BASE=28000
META=127.0.0.1:$BASE,127.0.0.1:$((BASE + 2)),127.0.0.1:$((BASE + 4))
start_cluster() {
  local dir=$1
  shift
  CLUSTER_DIR=$dir
  rm -rf "$dir" && mkdir -p "$dir"
  : > "$dir.out" # a previous round's output in the same place would read as ready
  TESSERA_SKIP_BUILD=1 ./tessera local --dir "$dir" --port-base $BASE --data-servers "${DATA_SERVERS:-9}" "$@" > "$dir.out" 2>&1 &
  LOCAL=$!
  until grep -q "^Ready in" "$dir.out"; do
    if ! kill -0 "$LOCAL" 2>/dev/null; then
      cat "$dir.out" >&2
      return 1
    fi
    sleep 1
  done
}
stop_cluster() {
  kill -TERM "$LOCAL" 2>/dev/null
  wait "$LOCAL" || true
}
# kill_server_of FILE: SIGKILLs the data server holding FILE's first unit, then waits 12 s (past
# tessera.meta.data-server-timeout: readers know it is down); sets VICTIM and VICTIM_PID.
kill_server_of() {
  VICTIM=$(TESSERA_SKIP_BUILD=1 ./tessera fs stat "$1" --meta "$META" 2>/dev/null | grep -o 'ds-[0-9]*' | head -1)
  VICTIM_PID=$(python3 -c "import json;print([n['pid'] for n in json.load(open('$CLUSTER_DIR/cluster.json'))['data'] if n['id']=='$VICTIM'][0])")
  kill -KILL "$VICTIM_PID"
  sleep 12
}
# creates_ab ROUNDS KEY "VALUES" [tessera local options...]: creates from 4 threads (bench meta
# --threads 4 --files 5000 --warmup 5000 --warmup-passes 2) with each value of setting KEY in turn,
# ROUNDS rounds, each run on a fresh cluster in /tmp/creates-ab.
creates_ab() {
  local rounds=$1 key=$2 values=$3 dir=/tmp/creates-ab
  shift 3
  trap 'stop_cluster 2>/dev/null || true' EXIT
  for round in $(seq "$rounds"); do
    for value in $values; do
      start_cluster $dir "$@" "-D$key=$value"
      echo "== ${key#tessera.meta.} $value, round $round ($(uptime))"
      TESSERA_SKIP_BUILD=1 ./tessera bench meta --meta "$META" --credentials $dir/admin.credentials \
        --threads 4 --files 5000 --warmup 5000 --warmup-passes 2 2>/dev/null \
        | grep -E "^(warm|creates|stats|removes)"
      stop_cluster
    done
  done
  rm -rf $dir $dir.out
}
