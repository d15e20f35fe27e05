#!/usr/bin/env bash
# `rankctl player import` of ROWS generated players (issue #17): into an
# empty registry on SQLite and on PostgreSQL, then the same file again
# (every row matched, nothing changed). The real binaries end to end: rankctl
# reads and streams the CSV, rankd checks every row and stores the file in
# one transaction.
#
#   tests/bench/player_import_bench.sh [BUILD_DIR] [ROWS]   (defaults: build, 100000)
#
# Needs rankd and rankctl built in BUILD_DIR; PostgreSQL is measured when its
# server binaries are installed (tests/pg/pg_server.sh) and PG is not 0. Every
# row has a name, Latin name, gender, birth date, resident ID, agency (one of
# 31), rank, rank date and external id. Prints one Markdown table; removes
# the servers and every temp file at the end.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
build=${1:-$repo/build}
rows=${2:-100000}
case "$build" in /*) ;; *) build="$PWD/$build" ;; esac
rankd=$build/services/server/rankd
rankctl=$build/services/cli/rankctl

die() { echo "player_import_bench.sh: $*" >&2; exit 1; }
[ -x "$rankd" ] || die "no $rankd (cmake --build $build --target rankd rankctl)"
[ -x "$rankctl" ] || die "no $rankctl (cmake --build $build --target rankd rankctl)"

work=$(mktemp -d /tmp/player_import_bench.XXXXXX)
chmod 755 "$work"  # pg_server.sh run by root hands $work/pg to user postgres
pid=""
pg_started=""
cleanup() {
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  if [ -n "$pg_started" ]; then "$repo/tests/pg/pg_server.sh" stop "$work/pg" || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
export HOME=$work  # no developer config file
unset XDG_CONFIG_HOME RANKCTL_SERVER RANKCTL_TOKEN_FILE RANKCTL_CA_FILE

# The file: resident IDs with their MOD 11-2 check character, unique birth
# date and sequence per row.
awk -v n="$rows" 'BEGIN {
  split("7 9 10 5 8 4 2 1 6 3 7 9 10 5 8 4 2", w, " ");
  split("1 0 X 9 8 7 6 5 4 3 2", c, " ");
  split("110 120 130 140 150 210 220 230 310 320 330 340 350 360 370 410 420 430 440 450 460 500 510 520 530 540 610 620 630 640 650", ag, " ");
  split("5k 1k 1d 2d 3d 业余4段 10k 2k", rk, " ");
  print "name,latin_name,gender,birth_date,resident_id,agency,rank,rank_date,external_id";
  for (i = 0; i < n; i++) {
    y = 1950 + i % 60; m = 1 + int(i / 60) % 12; d = 1 + int(i / 720) % 28;
    s = 100 + int(i / 20160);
    id = sprintf("110105%04d%02d%02d%03d", y, m, d, s);
    sum = 0;
    for (k = 1; k <= 17; k++) sum += substr(id, k, 1) * w[k];
    id = id c[sum % 11 + 1];
    printf "选手%d,Player %d,%s,%04d-%02d-%02d,%s,%s,%s,2020-0%d-15,EXT-%07d\n",
      i, i, (i % 2 ? "男" : "女"), y, m, d, id, ag[i % 31 + 1], rk[i % 8 + 1], 1 + i % 9, i;
  }
}' >"$work/players.csv"

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# start_rankd DIR DB: one rankd on a free port; sets addr and pid.
addr=""
start_rankd() {
  local dir=$1 db=$2 attempt port tries
  mkdir -p "$dir"
  printf 'public_rate = 0\ntoken_rate = 0\naudit_key_file = "%s"\n' \
    "$dir/audit_ed25519.pem" >"$dir/rankd.toml"
  for attempt in 1 2 3 4 5 6 7 8 9 10; do
    port=$((20000 + RANDOM % 40000))
    port_free "$port" || continue
    "$rankd" --config "$dir/rankd.toml" --db "$db" --listen "127.0.0.1:$port" \
      --admin-token-file "$dir/admin.token" --log-level warn >"$dir/rankd.log" 2>&1 &
    pid=$!
    for tries in $(seq 1 600); do
      kill -0 "$pid" 2>/dev/null || break
      if ! port_free "$port"; then addr="127.0.0.1:$port"; return 0; fi
      sleep 0.1
    done
    wait "$pid" 2>/dev/null || true
    pid=""
  done
  die "rankd did not start: $(tail -5 "$dir/rankd.log")"
}

stop_rankd() { kill "$pid"; wait "$pid" 2>/dev/null || true; pid=""; }

# import DIR: seconds of one `rankctl player import`; its summary to stderr.
import() {
  local dir=$1 start end
  start=$(date +%s.%N)
  "$rankctl" --server "$addr" --token-file "$dir/admin.token" --timeout 600 \
    player import "$work/players.csv" >"$dir/import.out" 2>"$dir/import.err" ||
    die "import failed: $(tail -5 "$dir/import.out" "$dir/import.err")"
  end=$(date +%s.%N)
  grep '^added' "$dir/import.out" >&2
  awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }'
}

table=()
measure() {
  local name=$1 dir=$2 db=$3 first second
  start_rankd "$dir" "$db"
  echo "== $name: $rows rows into an empty registry" >&2
  first=$(import "$dir")
  echo "== $name: the same file again" >&2
  second=$(import "$dir")
  stop_rankd
  table+=("| $name | $rows | $first s | $second s |")
}

measure "SQLite" "$work/sqlite" "$work/sqlite/rankd.db"
if [ "${PG:-1}" = 0 ]; then
  echo "PG=0: PostgreSQL skipped" >&2
elif "$repo/tests/pg/pg_server.sh" start "$work/pg" >&2 2>/dev/null; then
  pg_started=1
  measure "PostgreSQL" "$work/pgrankd" "$(cat "$work/pg/url")"
else
  echo "PostgreSQL server binaries not found: PostgreSQL skipped" >&2
fi

echo
echo "$(nproc) cores; file $(du -h "$work/players.csv" | cut -f1)."
echo
echo "| database | rows | import (empty registry) | same file again (all matched) |"
echo "| --- | ---: | ---: | ---: |"
printf '%s\n' "${table[@]}"
