#!/bin/sh
# Memory and verify speed of rankd with the public index over a large
# registry (issue #19: RSS under 200 MB with 1M certificates).
#
#   tests/bench/public_index_rss.sh [BUILD_DIR] [CERTIFICATES] [SECONDS]
#       (defaults: build, 1000000, 10)
#
# Needs public_index_fill, rankd and rankd_load built. Fills a temp SQLite
# registry (public_index_fill: 250,000 players, CERTIFICATES certificates),
# then for public_index = "on" and "off" starts the real rankd on it (rate
# limits off, log level info), prints the start-up time, VmRSS and VmHWM
# from /proc/PID/status, and public VerifyCertificate calls a second with
# rankd_load at 16 and 1 in flight for SECONDS each; stops rankd with
# SIGTERM. The temp folder is removed at the end.
set -eu
build=${1:-build}
certs=${2:-1000000}
secs=${3:-10}
fill=$build/tests/certificates/public_index_fill
rankd=$build/services/server/rankd
load=$build/tests/bench/rankd_load
for f in "$fill" "$rankd" "$load"; do
  [ -x "$f" ] || { echo "missing $f (build it first)" >&2; exit 2; }
done
dir=$(mktemp -d)
pid=
cleanup() {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
  rm -rf "$dir"
}
trap cleanup EXIT INT TERM

"$fill" "$dir" "$certs"
for mode in on off; do
  cat >"$dir/rankd.toml" <<EOF
db = "$dir/rankd.db"
listen = "127.0.0.1:0"
admin_token_file = "$dir/admin.token"
audit_key_file = "$dir/audit_ed25519.pem"
log_level = "info"
public_rate = 0
token_rate = 0
health_probe_ms = 0
public_index = "$mode"
EOF
  start=$(date +%s.%N)
  "$rankd" --config "$dir/rankd.toml" >"$dir/rankd.log" 2>&1 &
  pid=$!
  port=
  for _ in $(seq 1 600); do
    port=$(sed -n 's/.*rankd serving on port \([0-9]*\).*/\1/p' "$dir/rankd.log")
    [ -n "$port" ] && break
    kill -0 "$pid" 2>/dev/null || { cat "$dir/rankd.log" >&2; exit 1; }
    sleep 0.1
  done
  [ -n "$port" ] || { echo "rankd did not start" >&2; exit 1; }
  up=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
  echo "public_index = $mode: serving after ${up} s"
  grep -h "public index" "$dir/rankd.log" | sed 's/^/  /' || true
  grep -E '^(VmRSS|VmHWM)' "/proc/$pid/status" | sed 's/^/  /'
  for inflight in 16 1; do
    printf '  verify, %2d in flight: ' "$inflight"
    "$load" --mode verify --servers "127.0.0.1:$port" \
      --numbers-file "$dir/numbers.tsv" --threads "$inflight" \
      --seconds "$secs" | sed -n 's/^RESULT //p'
  done
  grep -E '^(VmRSS|VmHWM)' "/proc/$pid/status" | sed 's/^/  after load: /'
  kill "$pid"
  wait "$pid" || true
  pid=
done
