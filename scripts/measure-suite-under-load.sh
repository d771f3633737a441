#!/usr/bin/env bash
# Issue 15's measure: RUNS consecutive `npm test` runs while two busy processes (`yes > /dev/null`) load both cores,
# each run's wall time and closing Suite line printed, and a failure of any run fails the measure. Run it in a
# checkout that `.ci/run` has installed (or after `npm ci` and scripts/install-system-deps.sh). The suite runs as CI
# runs it: on PGlite, and on the machine's PostgreSQL and Redis unless TEST_DATABASE_URL / TEST_REDIS_URL say otherwise.
#
#   bash scripts/measure-suite-under-load.sh [RUNS]     (default 5)
set -uo pipefail
cd "$(dirname "$0")/.."
runs="${1:-5}"
export TEST_DATABASE_URL="${TEST_DATABASE_URL:-postgres://root@127.0.0.1:5432/test}"
export TEST_REDIS_URL="${TEST_REDIS_URL:-redis://127.0.0.1:6379}"
export CI=true

# The load: started here and ended here, whatever happens to the runs.
yes > /dev/null & load_a=$!
yes > /dev/null & load_b=$!
trap 'kill "$load_a" "$load_b" 2>/dev/null' EXIT

failed=0
for run in $(seq 1 "$runs"); do
  log="$(mktemp -t packgate-suite-run-XXXXXX.log)"
  started=$(date +%s)
  npm test > "$log" 2>&1
  status=$?
  seconds=$(( $(date +%s) - started ))
  suite_line="$(grep -a '^Suite: ' "$log" | tail -n 1)"
  echo "run $run/$runs: exit $status in ${seconds} s (load: $(cut -d' ' -f1-3 /proc/loadavg)) — ${suite_line:-no Suite line} — log $log"
  [ "$status" -eq 0 ] || failed=1
done
exit "$failed"
