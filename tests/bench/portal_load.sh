#!/usr/bin/env bash
# Requests a second of the public portal's HTML pages (a player page, the
# rating list, an event page, the verify page by number and name) from wrk,
# beside gRPC VerifyCertificate from rankd_load, against the real rankd on a
# temp SQLite file with the limits off (http_rate = public_rate = 0).
#   portal_load.sh RANKD RANKCTL RANKD_LOAD [PLAYERS] [SECONDS] [CONNECTIONS]
#   e.g. tests/bench/portal_load.sh build/services/server/rankd \
#          build/services/cli/rankctl build/tests/bench/rankd_load 5000 5 "1 4 16"
# The registry: rankd_load registers 50 players and issues 400 certificates;
# a Swiss event of 16 of them with round 1 played (rankctl); then, into the
# serving rankd's file, PLAYERS more players by SQL (as ratings_page_bench
# does) and a GoR for every player (1-3 rating events each, every 40th a pro
# rating): the rating table rankd would compute is not what is measured, and a
# restart would recompute it (its digest is not the table's), so rankd keeps
# running on it. Each wrk run keeps C connections on 2 threads
# (wrk -t min(2,C)); one URL a run (the verify page asks for one certificate).
# Needs wrk (apt-get install wrk), sqlite3 and python3. Prints one table.
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: $0 RANKD RANKCTL RANKD_LOAD [PLAYERS] [SECONDS] [CONNECTIONS]" >&2; exit 2; }
rankd=$1
ctl=$2
load=$3
players=${4:-5000}
seconds=${5:-5}
conns=${6:-"1 4 16"}
for tool in wrk sqlite3 python3; do
  command -v "$tool" >/dev/null || { echo "$0: needs $tool" >&2; exit 2; }
done
work=$(mktemp -d)
pid=""
cleanup() {
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

cat >"$work/rankd.toml" <<EOF
db = "$work/rankd.db"
listen = "127.0.0.1:0"
http_listen = "127.0.0.1:0"
admin_token_file = "$work/admin.token"
audit_key_file = "$work/audit.key"
log_level = "info"
public_rate = 0
http_rate = 0
EOF

grpc_port=""
http_port=""
start_rankd() {
  : >"$work/rankd.log"
  "$rankd" --config "$work/rankd.toml" >"$work/rankd.log" 2>&1 &
  pid=$!
  grpc_port=""
  http_port=""
  for _ in $(seq 1 300); do
    grpc_port=$(sed -n 's/.*rankd serving on port \([0-9]*\).*/\1/p' "$work/rankd.log" | head -1)
    http_port=$(sed -n 's|.*public web page on http://[^ ]*:\([0-9]*\).*|\1|p' "$work/rankd.log" | head -1)
    [ -n "$grpc_port" ] && [ -n "$http_port" ] && return 0
    kill -0 "$pid" 2>/dev/null || { cat "$work/rankd.log" >&2; echo "rankd exited" >&2; exit 1; }
    sleep 0.1
  done
  cat "$work/rankd.log" >&2
  echo "rankd did not start in 30 s" >&2
  exit 1
}
start_rankd
"$load" --mode issue --servers "127.0.0.1:$grpc_port" --token-file "$work/admin.token" \
  --players 50 --threads 2 --count 400 --numbers-out "$work/numbers.tsv" >/dev/null
c() { "$ctl" --server "127.0.0.1:$grpc_port" --token-file "$work/admin.token" "$@"; }
c event create --name "Portal bench Swiss" --organiser 000 --start 2025-11-01 \
  --level city --sub-event open_individual --format swiss --rounds 3 >"$work/event.txt"
event=$(c --json event list | python3 -c 'import json,sys; print(max(int(e["id"]) for e in json.load(sys.stdin)["events"]))')
c event enter "$event" --player "$(seq -s, 1 16)" >/dev/null
c event pair "$event" --round 1 >/dev/null
for board in $(seq 1 8); do
  c event result "$event" --round 1 --board "$board" --winner black >/dev/null
done

# The seeded registry: PLAYERS more players, a GoR for everyone.
python3 - "$work/rankd.db" "$players" >"$work/seed.sql" <<'PY'
import sqlite3, struct, sys
db, extra = sys.argv[1], int(sys.argv[2])
con = sqlite3.connect(db)
base = con.execute("SELECT coalesce(max(id), 0) FROM players").fetchone()[0]
con.close()
agencies = ["110", "120", "130", "310", "320", "330", "440", "510", "610", "650"]
def key(v):  # storage/sql_rating_repository.cc OrderKey
    bits = struct.unpack("<q", struct.pack("<d", v))[0]
    return bits if bits >= 0 else bits ^ (2**63 - 1)
out = ["BEGIN;"]
for i in range(1, extra + 1):
    rank = "NULL" if i % 50 == 0 else str(-19 + (i * 31) % 27)
    out.append("INSERT INTO players(id, name, latin_name, gender, agency_prefix, "
               "rank_ordinal, created_unix, updated_unix) VALUES(%d, '棋手%d', "
               "'Player %d', 1, '%s', %s, 1735660800, 1735660800);"
               % (base + i, i, i, agencies[i % 10], rank))
events = 24
for e in range(events):
    y, m = 2025 if e < 12 else 2026, e % 12 + 1
    out.append("INSERT INTO rating_events(seq, event_id, event_date, event_order) "
               "VALUES(%d, 'e%d', '%04d-%02d-15', 1);" % (e + 1, e, y, m))
for pid in range(1, base + extra + 1):
    gor = 100.0 + ((pid * 7919) % 27000) / 10.0
    n = 1 + pid % 3
    pro = (2000.0 + pid % 997) if pid % 40 == 0 else None
    out.append("INSERT INTO ratings(player_id, gor, gor_key, rated_games, "
               "rated_events, pro_elo, pro_key, pro_games) VALUES(%d, '%r', %d, "
               "%d, %d, %s, %s, %d);" % (
                   pid, gor, key(gor), 5 * n, n,
                   "NULL" if pro is None else "'%r'" % pro,
                   "NULL" if pro is None else str(key(pro)),
                   0 if pro is None else 3))
    for k in range(n):
        out.append("INSERT INTO rating_history(player_id, event_seq, gor_before, "
                   "gor_after, games, pro_before, pro_after, pro_games) "
                   "VALUES(%d, %d, '%r', '%r', 5, NULL, NULL, 0);"
                   % (pid, (pid + k * 7) % events + 1, gor - 5, gor))
out.append("INSERT INTO rating_state(id, table_sha256, events, players) "
           "VALUES(1, 'bench', %d, %d) ON CONFLICT(id) DO UPDATE SET "
           "events = excluded.events, players = excluded.players;"
           % (events, base + extra))
out.append("COMMIT;")
print("\n".join(out))
PY
sqlite3 -cmd ".timeout 10000" "$work/rankd.db" <"$work/seed.sql"

number=$(head -1 "$work/numbers.tsv" | cut -f1)
holder=$(head -1 "$work/numbers.tsv" | cut -f2 | python3 -c 'import sys,urllib.parse; print(urllib.parse.quote(sys.stdin.read().strip()))')
base="http://127.0.0.1:$http_port"
declare -A urls=(
  ["/players/{id}"]="$base/players/1"
  ["/ratings"]="$base/ratings"
  ["/events/{id}"]="$base/events/$event"
  ["/verify (HTML)"]="$base/verify?number=$number&name=$holder"
)
for path in "/players/{id}" "/ratings" "/events/{id}" "/verify (HTML)"; do
  code=$(curl -s -o /dev/null -w '%{http_code}' "${urls[$path]}")
  [ "$code" = 200 ] || { echo "$path: HTTP $code from ${urls[$path]}" >&2; exit 1; }
done

# What the pages show: the seeded ratings, the played round.
need() {  # PATH TEXT: the JSON twin of PATH holds TEXT
  curl -s "$base/api/v1$1" | grep -q "$2" || { echo "$0: /api/v1$1 has no $2" >&2; exit 1; }
}
need "/ratings" '"gor"'
need "/players/1" '"gor"'
need "/events/$event" '"GAME_OUTCOME_BLACK_WINS"'

printf '%-22s' "requests/s at C conn."
for n in $conns; do printf '%10s' "C=$n"; done
printf '\n'
for path in "/players/{id}" "/ratings" "/events/{id}" "/verify (HTML)"; do
  printf '%-22s' "$path"
  for n in $conns; do
    threads=$((n < 2 ? n : 2))
    out=$(wrk -t"$threads" -c"$n" -d"${seconds}s" "${urls[$path]}")
    if grep -q 'Non-2xx' <<<"$out"; then echo "$path: non-2xx answers: $out" >&2; exit 1; fi
    printf '%10.0f' "$(sed -n 's/^Requests\/sec: *\([0-9.]*\).*/\1/p' <<<"$out")"
  done
  printf '\n'
done
printf '%-22s' "gRPC VerifyCertificate"
for n in $conns; do
  out=$("$load" --mode verify --servers "127.0.0.1:$grpc_port" --numbers-file "$work/numbers.tsv" \
    --threads "$n" --seconds "$seconds" 2>&1)
  rate=$(grep -o '[0-9.]* ok/s' <<<"$out" | head -1 | cut -d' ' -f1)
  [ -n "$rate" ] || { echo "rankd_load said: $out" >&2; exit 1; }
  printf '%10.0f' "$rate"
done
printf '\n'
echo "(registry: $(sqlite3 "$work/rankd.db" 'SELECT count(*) FROM players') players, $(sqlite3 "$work/rankd.db" 'SELECT count(*) FROM ratings') rated; ${seconds} s a run; load: $(uptime | sed 's/.*load average/load average/'))"
