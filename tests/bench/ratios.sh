#!/usr/bin/env bash
# rankd against its limits, measured in one run (issue #19, item 6): prints
# the table of README "Speed" (path, rankd, limit in the same run, ratio).
#
#   tests/bench/ratios.sh [--pg] [--seconds S] [--smoke] [BUILD_DIR]
#
# BUILD_DIR (default: build) must hold rankd, rankd_load, rankd_echo and
# sqlite_insert_bench:
#   cmake --build build --target rankd rankd_load rankd_echo sqlite_insert_bench
# One run starts the bare gRPC echo server (rankd_echo) and one rankd on a
# temp SQLite file (rate limits off, log level warn), then measures, each for
# S seconds (default 10), with the same load client (rankd_load):
#   issue    IssueCertificate, 16 client threads (calls in flight), against
#            rankd; then 4, against a second rankd on a fresh file;
#   sqlite   raw SQLite single-insert transactions, WAL + synchronous=FULL,
#            16 and 4 threads (sqlite_insert_bench), a file in the same folder;
#   verify   public VerifyCertificate of the numbers just issued, 16 and 1
#            client threads (calls in flight), against rankd and the echo.
# --pg adds PostgreSQL rows (a throw-away server, tests/pg/pg_server.sh): one
# rankd and two rankd on one database, issue and verify at 16 in flight,
# each against SQLite's figure of the same run. --smoke (ctest
# ratios_smoke_test) measures 0.3 s each. Exit status 0 when every
# measurement made calls and none failed, 1 otherwise, 2 for bad arguments.
# Temp files, servers and databases are removed at the end.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
pg=0
seconds=10
build=""
while [ $# -gt 0 ]; do
  case "$1" in
    --pg) pg=1 ;;
    --smoke) seconds=0.3 ;;
    --seconds) [ $# -ge 2 ] || { echo "ratios.sh: --seconds needs a value" >&2; exit 2; }
               seconds=$2; shift ;;
    -*) echo "usage: $0 [--pg] [--seconds S] [--smoke] [BUILD_DIR]" >&2; exit 2 ;;
    *) build=$1 ;;
  esac
  shift
done
build=${build:-$repo/build}
case "$build" in /*) ;; *) build="$PWD/$build" ;; esac
rankd=$build/services/server/rankd
load=$build/tests/bench/rankd_load
echo_server=$build/tests/bench/rankd_echo
sqlite_bench=$build/tests/bench/sqlite_insert_bench

die() { echo "ratios.sh: $*" >&2; exit 1; }
for b in "$rankd" "$load" "$echo_server" "$sqlite_bench"; do
  [ -x "$b" ] || { echo "ratios.sh: no $b (cmake --build $build --target rankd rankd_load rankd_echo sqlite_insert_bench)" >&2; exit 2; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/ratios.XXXXXX")
chmod 755 "$work"  # pg_server.sh run by root hands $work/pg to user postgres
pids=()
pg_started=0
cleanup() {
  local pid
  for pid in "${pids[@]}"; do
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  if [ "$pg_started" = 1 ]; then "$repo/tests/pg/pg_server.sh" stop "$work/pg" >/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# start_rankd DIR DB: one rankd with DIR's config (instances of one setup
# share the token and the audit key) on a free port; sets addr, adds the pid.
addr=""
start_rankd() {
  local dir=$1 db=$2 attempt port pid log tries
  log="$dir/rankd.$RANDOM.log"
  for attempt in 1 2 3 4 5 6 7 8 9 10; do
    port=$((20000 + RANDOM % 40000))
    port_free "$port" || continue
    "$rankd" --config "$dir/rankd.toml" --db "$db" --listen "127.0.0.1:$port" \
      --admin-token-file "$dir/admin.token" --log-level warn >"$log" 2>&1 &
    pid=$!
    for tries in $(seq 1 600); do
      kill -0 "$pid" 2>/dev/null || break
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
  mkdir -p "$1"
  cat >"$1/rankd.toml" <<CONF
public_rate = 0
token_rate = 0
audit_key_file = "$1/audit_ed25519.pem"
CONF
}

stop_servers() {
  local pid
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  pids=()
}

# run NAME COMMAND...: runs one measurement; its RESULT line in results[NAME].
declare -A rate
failed=()
run() {
  local name=$1 out line ok errors
  shift
  out="$work/$name.out"
  echo "== $name" >&2
  "$@" >"$out" 2>&1 || true
  line=$(grep '^RESULT' "$out" || true)
  echo "${line:-$(tail -3 "$out")}" >&2
  ok=$(sed -n 's/.* ok=\([0-9]*\).*/\1/p' <<<"$line")
  errors=$(sed -n 's/.* errors=\([0-9]*\).*/\1/p' <<<"$line")
  rate[$name]=$(sed -n 's/.* ops_per_s=\([0-9.]*\).*/\1/p' <<<"$line")
  [ -n "${rate[$name]}" ] || rate[$name]=0
  if [ -z "$ok" ] || [ "$ok" = 0 ] || [ "${errors:-1}" != 0 ]; then
    failed+=("$name: $(grep -v '^RESULT' "$out" | tail -3 | tr '\n' ' ')")
  fi
}

issue() {  # issue NAME SERVERS DIR THREADS
  run "$1" "$load" --mode issue --servers "$2" --token-file "$3/admin.token" \
    --threads "$4" --seconds "$seconds" --numbers-out "$3/numbers.tsv"
}
verify() {  # verify NAME MODE SERVERS DIR THREADS
  run "$1" "$load" --mode "$2" --servers "$3" --numbers-file "$4/numbers.tsv" \
    --threads "$5" --seconds "$seconds"
}

load_before=$(cut -d' ' -f1-3 /proc/loadavg)

"$echo_server" --listen 127.0.0.1:0 >"$work/echo.log" 2>&1 &
pids+=("$!")
echo_addr=""
for _ in $(seq 1 300); do
  echo_port=$(sed -n 's/^rankd_echo serving on port \([0-9]*\)$/\1/p' "$work/echo.log")
  if [ -n "$echo_port" ]; then echo_addr="127.0.0.1:$echo_port"; break; fi
  kill -0 "${pids[0]}" 2>/dev/null || die "rankd_echo exited: $(cat "$work/echo.log")"
  sleep 0.1
done
[ -n "$echo_addr" ] || die "rankd_echo did not start in 30 s"

write_config "$work/sqlite"
start_rankd "$work/sqlite" "$work/sqlite/rankd.db"
sq=$addr
issue issue16 "$sq" "$work/sqlite" 16
run sqlite16 "$sqlite_bench" --db "$work/raw16.db" --threads 16 --seconds "$seconds"
verify verify16 verify "$sq" "$work/sqlite" 16
verify echo16 echo "$echo_addr" "$work/sqlite" 16
verify verify1 verify "$sq" "$work/sqlite" 1
verify echo1 echo "$echo_addr" "$work/sqlite" 1
stop_servers
# 4 in flight on a fresh file (the load client numbers its calls from 0,
# and the serials of the years the first run took are spent).
write_config "$work/sqlite4"
start_rankd "$work/sqlite4" "$work/sqlite4/rankd.db"
issue issue4 "$addr" "$work/sqlite4" 4
run sqlite4 "$sqlite_bench" --db "$work/raw4.db" --threads 4 --seconds "$seconds"
stop_servers

if [ "$pg" = 1 ]; then
  "$repo/tests/pg/pg_server.sh" start "$work/pg" >&2
  pg_started=1
  base=$(cat "$work/pg/url")
  pg_version=$(psql "$base" -XAtc "SHOW server_version" | cut -d" " -f1)
  psql "$base" -Xqc "CREATE DATABASE bench1" -c "CREATE DATABASE bench2"
  write_config "$work/pg1"
  start_rankd "$work/pg1" "${base%/*}/bench1"
  issue pg1_issue "$addr" "$work/pg1" 16
  verify pg1_verify verify "$addr" "$work/pg1" 16
  stop_servers
  write_config "$work/pg2"
  start_rankd "$work/pg2" "${base%/*}/bench2"  # the first start writes the token
  a=$addr
  start_rankd "$work/pg2" "${base%/*}/bench2"
  issue pg2_issue "$a,$addr" "$work/pg2" 16
  verify pg2_verify verify "$a,$addr" "$work/pg2" 16
  stop_servers
fi

# n RATE: a rate with thousands separators, no decimals.
n() { awk -v r="$1" 'BEGIN { s = sprintf("%.0f", r); o = "";
  while (length(s) > 3) { o = "," substr(s, length(s) - 2) o; s = substr(s, 1, length(s) - 3) }
  print s o }'; }
# q A B: A / B to two decimals ("-" when B is 0).
q() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else printf "-" }'; }

echo
echo "$(nproc) cores; load average before $load_before, after $(cut -d' ' -f1-3 /proc/loadavg);"
echo "${seconds} s a measurement; rate limits off, rankd at log level warn; $(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo '?')."
echo
echo "| path | rankd | limit in the same run | ratio |"
echo "| --- | --- | --- | --- |"
echo "| issue a certificate, SQLite, 16 in flight | $(n "${rate[issue16]}")/s | raw SQLite insert transactions, WAL + synchronous=FULL, 16 threads: $(n "${rate[sqlite16]}")/s | $(q "${rate[issue16]}" "${rate[sqlite16]}") |"
echo "| issue a certificate, SQLite, 4 in flight | $(n "${rate[issue4]}")/s | the same, 4 threads: $(n "${rate[sqlite4]}")/s | $(q "${rate[issue4]}" "${rate[sqlite4]}") |"
echo "| public verify, 16 in flight | $(n "${rate[verify16]}")/s | bare gRPC echo server: $(n "${rate[echo16]}")/s | $(q "${rate[verify16]}" "${rate[echo16]}") |"
echo "| public verify, 1 in flight | $(n "${rate[verify1]}")/s | echo: $(n "${rate[echo1]}")/s | $(q "${rate[verify1]}" "${rate[echo1]}") |"
if [ "$pg" = 1 ]; then
  echo "| issue on PostgreSQL $pg_version, 16 in flight, 1 rankd / 2 rankd | $(n "${rate[pg1_issue]}")/s / $(n "${rate[pg2_issue]}")/s | SQLite: $(n "${rate[issue16]}")/s | $(q "${rate[pg1_issue]}" "${rate[issue16]}") / $(q "${rate[pg2_issue]}" "${rate[issue16]}") |"
  echo "| verify on PostgreSQL $pg_version, 16 in flight, 1 rankd / 2 rankd | $(n "${rate[pg1_verify]}")/s / $(n "${rate[pg2_verify]}")/s | SQLite: $(n "${rate[verify16]}")/s | $(q "${rate[pg1_verify]}" "${rate[verify16]}") / $(q "${rate[pg2_verify]}" "${rate[verify16]}") |"
fi
if [ ${#failed[@]} -gt 0 ]; then
  echo
  printf 'failed: %s\n' "${failed[@]}"
  exit 1
fi
