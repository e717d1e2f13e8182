#!/usr/bin/env bash
# The console with 100,000 files in one directory and 100 snapshots: page load, first paint,
# sign-in to a full overview, the first page of the big directory, the snapshot list, and the
# API calls' times (ConsoleLoadBench, headless Debian chromium through Selenium).
# Run from the repository root after `mvn -B -DskipTests install`.
set -euo pipefail
cd "$(dirname "$0")/../.."
mvn -B -q -o -pl integration-tests dependency:build-classpath \
  -Dmdep.outputFile=/tmp/console-bench-cp.txt -Dmdep.includeScope=test
CP="integration-tests/target/test-classes:$(cat /tmp/console-bench-cp.txt)"
DIR=/tmp/console-bench
BASE=24000
uptime
rm -rf "$DIR" && mkdir -p "$DIR"
TESSERA_SKIP_BUILD=1 ./tessera local --dir "$DIR" --port-base $BASE > "$DIR.out" 2>&1 &
LOCAL=$!
until grep -q "^Ready in" "$DIR.out"; do sleep 1; done
META=127.0.0.1:$BASE,127.0.0.1:$((BASE + 2)),127.0.0.1:$((BASE + 4))
java -cp "$CP" io.tessera.it.console.ConsoleLoadBench "$META" "http://127.0.0.1:$((BASE + 1000))/" \
  "$DIR/console.token" 100000 100 5
kill -TERM $LOCAL
wait $LOCAL || true
