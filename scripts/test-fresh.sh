#!/usr/bin/env bash
# The whole check in one command, on a fresh Debian machine as on a developer's (the README's "Test it", and what
# .ci/run runs): the Debian packages the suite drives (sudo is asked for only when one is missing), exactly what
# package-lock.json locks, typecheck and lint side by side, then `npm test` (which builds first).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-system-deps.sh
# Exactly what package-lock.json locks (it lists every platform's optional binaries of Biome and Tailwind).
npm ci --no-audit --no-fund

# tsc works on one core and the linters mostly on the other: side by side, each reporting its own failure.
npm run typecheck & typecheck=$!
npm run lint & lint=$!
typecheck_status=0 lint_status=0
wait "$typecheck" || typecheck_status=$?
wait "$lint" || lint_status=$?
[ "$typecheck_status" -eq 0 ] && [ "$lint_status" -eq 0 ] || { echo 'typecheck or lint failed' >&2; exit 1; }

npm test
