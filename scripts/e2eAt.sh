#!/usr/bin/env bash
# Runs the browser tests as if the clock read INSTANT (UTC), for every process of the run at once: the test runner,
# Chromium, the server, the demo generator's "today" and the embedded PostgreSQL (libfaketime's LD_PRELOAD; the
# clock starts at INSTANT and runs on). Usage: scripts/e2eAt.sh 2026-11-30T23:30:00Z [playwright test arguments]
set -euo pipefail
cd "$(dirname "$0")/.."
instant="${1:?usage: scripts/e2eAt.sh YYYY-MM-DDTHH:MM:SSZ [playwright arguments]}"
shift
if ! command -v faketime >/dev/null; then
  echo "faketime is not installed: apt-get install faketime" >&2
  exit 2
fi
at="$(date -u -d "$instant" '+%Y-%m-%d %H:%M:%S')"
TZ=UTC exec faketime -f "@$at" npx playwright test "$@"
