#!/usr/bin/env bash
# Issuance and public-verify throughput: rankd on SQLite, on PostgreSQL with
# one instance, and with two instances on one PostgreSQL database (issue #10).
#
#   tests/bench/pg_compare.sh [BUILD_DIR]        (default: build-pgbench)
#
# Needs rankd and rankd_load built in BUILD_DIR and the PostgreSQL server
# binaries (tests/pg/pg_server.sh). Each setup gets a fresh database:
#   sqlite  one rankd on a temp SQLite file
#   pg-1    one rankd on a fresh PostgreSQL database
#   pg-2    two rankd on one fresh PostgreSQL database, load round-robin
# and is measured with rankd_load: `issue` for ISSUE_SECONDS, then `verify`
# of the numbers just issued for VERIFY_SECONDS, both with THREADS client
# threads (environment; defaults 15, 10, 4). Rate limits are off and rankd
# logs at warn (no per-call log line). Prints one Markdown table; removes
# the server, the databases and every temp file at the end.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
build=${1:-$repo/build-pgbench}
case "$build" in /*) ;; *) build="$PWD/$build" ;; esac
rankd=$build/services/server/rankd
load=$build/tests/bench/rankd_load
issue_seconds=${ISSUE_SECONDS:-15}
verify_seconds=${VERIFY_SECONDS:-10}
threads=${THREADS:-4}

die() { echo "pg_compare.sh: $*" >&2; exit 1; }
[ -x "$rankd" ] || die "no $rankd (cmake --build $build --target rankd rankd_load)"
[ -x "$load" ] || die "no $load (cmake --build $build --target rankd rankd_load)"

work=$(mktemp -d /tmp/pg_compare.XXXXXX)
chmod 755 "$work"  # pg_server.sh run by root hands $work/pg to user postgres
pids=()
cleanup() {
  local pid
  for pid in "${pids[@]}"; do
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  "$repo/tests/pg/pg_server.sh" stop "$work/pg" || true
  rm -rf "$work"
}
trap cleanup EXIT

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# start_rankd DIR DB: starts one rankd with its config in DIR (shared token
# and audit key for instances of one setup) on a free port; sets addr to
# HOST:PORT and adds its pid to pids.
addr=""
start_rankd() {
  local dir=$1 db=$2 attempt port pid log
  log="$dir/rankd.$RANDOM.log"
  for attempt in 1 2 3 4 5 6 7 8 9 10; do
    port=$((20000 + RANDOM % 40000))
    port_free "$port" || continue
    "$rankd" --config "$dir/rankd.toml" --db "$db" --listen "127.0.0.1:$port" \
      --admin-token-file "$dir/admin.token" --log-level warn >"$log" 2>&1 &
    pid=$!
    # Ready when the port answers; a busy port or a failed start ends the process.
    local tries
    for tries in $(seq 1 600); do
      if ! kill -0 "$pid" 2>/dev/null; then break; fi
      if ! port_free "$port"; then
        pids+=("$pid")
        addr="127.0.0.1:$port"
        return 0
      fi
      sleep 0.1
    done
    if kill -0 "$pid" 2>/dev/null; then
      kill "$pid"
      die "rankd did not listen on $port within 60 s: $(tail -5 "$log")"
    fi
    wait "$pid" 2>/dev/null || true
    grep -qi "address\|bind\|port" "$log" || die "rankd cannot start: $(tail -5 "$log")"
  done
  die "no free port for rankd after 10 attempts"
}

write_config() {
  local dir=$1
  mkdir -p "$dir"
  cat >"$dir/rankd.toml" <<EOF
public_rate = 0
token_rate = 0
audit_key_file = "$dir/audit_ed25519.pem"
EOF
}

# measure NAME SERVERS: issue then verify; appends a table row.
rows=()
measure() {
  local name=$1 servers=$2 dir=$3 issue verify
  echo "== $name: issue for ${issue_seconds}s on $servers" >&2
  "$load" --mode issue --servers "$servers" --token-file "$dir/admin.token" \
    --threads "$threads" --seconds "$issue_seconds" --numbers-out "$dir/numbers.tsv" \
    >"$dir/issue.out" 2>&1 || true
  cat "$dir/issue.out" >&2
  issue=$(grep '^RESULT' "$dir/issue.out" || true)
  echo "== $name: verify for ${verify_seconds}s" >&2
  "$load" --mode verify --servers "$servers" --numbers-file "$dir/numbers.tsv" \
    --threads "$threads" --seconds "$verify_seconds" >"$dir/verify.out" 2>&1 || true
  cat "$dir/verify.out" >&2
  verify=$(grep '^RESULT' "$dir/verify.out" || true)
  field() { sed -n "s/.* $2=\([^ ]*\).*/\1/p" <<<"$1"; }
  rows+=("| $name | $(field "$issue" ops_per_s) | $(field "$issue" p50_ms) / $(field "$issue" p99_ms) | $(field "$issue" errors) | $(field "$verify" ops_per_s) | $(field "$verify" p50_ms) / $(field "$verify" p99_ms) | $(field "$verify" errors) |")
}

load_before=$(cut -d' ' -f1-3 /proc/loadavg)

# SQLite.
write_config "$work/sqlite"
start_rankd "$work/sqlite" "$work/sqlite/rankd.db"
measure "SQLite, 1 rankd" "$addr" "$work/sqlite"
kill "${pids[@]}"; wait "${pids[@]}" 2>/dev/null || true; pids=()

# PostgreSQL: one server, a fresh database per setup.
"$repo/tests/pg/pg_server.sh" start "$work/pg" >&2
base=$(cat "$work/pg/url")
pg_version=$(psql "$base" -XAtc "SHOW server_version")
psql "$base" -Xqc "CREATE DATABASE bench1" -c "CREATE DATABASE bench2"

write_config "$work/pg1"
start_rankd "$work/pg1" "${base%/*}/bench1"
measure "PostgreSQL, 1 rankd" "$addr" "$work/pg1"
kill "${pids[@]}"; wait "${pids[@]}" 2>/dev/null || true; pids=()

write_config "$work/pg2"
start_rankd "$work/pg2" "${base%/*}/bench2"  # the first start writes the token
a=$addr
start_rankd "$work/pg2" "${base%/*}/bench2"
measure "PostgreSQL, 2 rankd" "$a,$addr" "$work/pg2"

echo
echo "$(nproc) cores; load average before $load_before, after $(cut -d' ' -f1-3 /proc/loadavg);"
echo "PostgreSQL $pg_version (fsync on, synchronous_commit on); client threads $threads;"
echo "issue ${issue_seconds}s, verify ${verify_seconds}s. Latency in ms (p50 / p99)."
echo
echo "| setup | issue/s | issue p50 / p99 | issue errors | verify/s | verify p50 / p99 | verify errors |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
printf '%s\n' "${rows[@]}"
