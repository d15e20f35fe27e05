#!/usr/bin/env bash
# Smoke test of rankd_load (ctest rankd_load_smoke_test): the real rankd on a
# temp SQLite file, then rankd_load issues 20 certificates and verifies 40
# times. rankd_load exits 0 only when calls succeeded and none failed.
#   rankd_load_smoke.sh RANKD RANKD_LOAD
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 RANKD RANKD_LOAD" >&2; exit 2; }
rankd=$1
load=$2
work=$(mktemp -d)
pid=""
cleanup() {
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

"$rankd" --db "$work/rankd.db" --listen 127.0.0.1:0 --admin-token-file "$work/admin.token" \
  --log-level info >"$work/rankd.log" 2>&1 &
pid=$!
port=""
for _ in $(seq 1 300); do
  port=$(sed -n 's/.*rankd serving on port \([0-9]*\).*/\1/p' "$work/rankd.log" | head -1)
  [ -n "$port" ] && break
  kill -0 "$pid" 2>/dev/null || { cat "$work/rankd.log" >&2; echo "rankd exited" >&2; exit 1; }
  sleep 0.1
done
[ -n "$port" ] || { cat "$work/rankd.log" >&2; echo "rankd did not start in 30 s" >&2; exit 1; }

"$load" --mode issue --servers "127.0.0.1:$port" --token-file "$work/admin.token" \
  --players 3 --threads 2 --count 20 --numbers-out "$work/numbers.tsv"
[ "$(wc -l <"$work/numbers.tsv")" -eq 20 ] || { echo "expected 20 issued numbers" >&2; exit 1; }
"$load" --mode verify --servers "127.0.0.1:$port" --numbers-file "$work/numbers.tsv" \
  --threads 2 --count 40
echo "rankd_load smoke test passed"
