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
