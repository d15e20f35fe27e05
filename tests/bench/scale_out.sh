#!/usr/bin/env bash
# Public verify/s of one rankd against two (issue #19 item 4), each rankd
# pinned to a core of its own with taskset, or with --cpu-quota in a cgroup
# with a CPU budget of its own: prints one Markdown table.
#
#   tests/bench/scale_out.sh [--seconds S] [--cpu-quota CORES] [BUILD_DIR]
#                                                     (default: build)
#
# BUILD_DIR must hold rankd and rankd_load. A throw-away PostgreSQL primary
# and a hot standby of it (tests/pg/pg_server.sh start / standby) are
# started; rankd A on the primary issues for S seconds (default 10) to make
# the numbers, then, once the standby has replayed everything, public
# VerifyCertificate runs for S seconds with THREADS client threads
# (environment, default 16: calls in flight), round-robin over the servers:
#   1 rankd          A alone, pinned to core 0
#   2 rankd, replica A (core 0) and B (core 1, db = the primary,
#                    db_read_replica = the standby)
#   1 rankd, replica B alone
#   2 rankd, primary A (core 0) and C (core 1), both on the primary
#   1 rankd again    A alone once more (the machine's drift during the run)
# PUBLIC_INDEX (environment, default: the config's default) is given to every
# rankd as public_index. The load client and both PostgreSQL servers are NOT
# pinned: they share the same cores, so on a machine with 2 cores the figure
# is what a second rankd adds when it gets a core but the rest of the work
# still competes for the same two; it is not the figure of two machines.
# Each row also gives the CPU each rankd and the load client used over the
# measurement, as cores busy (from /proc/PID/stat and /usr/bin/time): when
# one rankd is not using its whole core, the client or the machine is the
# limit, not rankd.
# --cpu-quota CORES (e.g. 0.4) replaces the pinning: each rankd runs in a
# cgroup of its own (cgroup v1 cpu controller or v2 cpu.max; needs root)
# limited to CORES of CPU time per 10 ms, so each has a fixed budget of its
# own, as on a machine where it had a core to itself, while the load client
# and PostgreSQL keep the rest of the machine: on 2 cores the only way to
# show what a second instance adds when the client is not the limit.
# Rate limits off, log level warn. Servers and files are
# removed at the end.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
seconds=10
quota=""
build=""
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) [ $# -ge 2 ] || { echo "scale_out.sh: --seconds needs a value" >&2; exit 2; }
               seconds=$2; shift ;;
    --cpu-quota) [ $# -ge 2 ] || { echo "scale_out.sh: --cpu-quota needs a value" >&2; exit 2; }
               quota=$2; shift ;;
    -*) echo "usage: $0 [--seconds S] [--cpu-quota CORES] [BUILD_DIR]" >&2; exit 2 ;;
    *) build=$1 ;;
  esac
  shift
done
build=${build:-$repo/build}
case "$build" in /*) ;; *) build="$PWD/$build" ;; esac
rankd=$build/services/server/rankd
load=$build/tests/bench/rankd_load
threads=${THREADS:-16}
pg_server=$repo/tests/pg/pg_server.sh

die() { echo "scale_out.sh: $*" >&2; exit 1; }
for b in "$rankd" "$load"; do
  [ -x "$b" ] || { echo "scale_out.sh: no $b (cmake --build $build --target rankd rankd_load)" >&2; exit 2; }
done
command -v taskset >/dev/null || die "taskset missing (util-linux)"
[ -x /usr/bin/time ] || die "/usr/bin/time missing (apt-get install time)"
[ "$(nproc)" -ge 2 ] || die "needs 2 cores (one a rankd)"

# The cgroup folder for a CPU budget: v1's cpu controller or v2's root.
cgroot=""
if [ -n "$quota" ]; then
  awk -v q="$quota" 'BEGIN { exit !(q > 0 && q <= 64) }' || die "--cpu-quota must be a number of cores above 0"
  if [ -w /sys/fs/cgroup/cpu ]; then cgroot=/sys/fs/cgroup/cpu
  elif [ -f /sys/fs/cgroup/cgroup.controllers ] && [ -w /sys/fs/cgroup ]; then
    cgroot=/sys/fs/cgroup
    # v2: the children get cpu.max only once the root hands them the controller.
    grep -qw cpu /sys/fs/cgroup/cgroup.subtree_control ||
      echo +cpu >/sys/fs/cgroup/cgroup.subtree_control || die "cannot enable the cgroup v2 cpu controller"
  else die "--cpu-quota needs a writable cgroup cpu controller (root)"; fi
fi
cgroups=()

work=$(mktemp -d "${TMPDIR:-/tmp}/scale_out.XXXXXX")
chmod 755 "$work"  # pg_server.sh run by root hands its folders to user postgres
pids=()
cleanup() {
  local pid
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  "$pg_server" stop "$work/standby" >/dev/null 2>&1 || true
  "$pg_server" stop "$work/primary" >/dev/null 2>&1 || true
  for cg in "${cgroups[@]}"; do rmdir "$cg" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

cat >"$work/rankd.toml" <<CONF
public_rate = 0
token_rate = 0
audit_key_file = "$work/audit_ed25519.pem"
CONF
if [ -n "${PUBLIC_INDEX:-}" ]; then echo "public_index = \"$PUBLIC_INDEX\"" >>"$work/rankd.toml"; fi

# start_rankd CORE ARGS...: one rankd pinned to CORE on a free port; sets
# addr and pid, adds the pid to pids.
addr=""
pid=""
start_rankd() {
  local core=$1 attempt port log tries launch
  shift
  log="$work/rankd.$RANDOM.log"
  for attempt in 1 2 3 4 5 6 7 8 9 10; do
    port=$((20000 + RANDOM % 40000))
    port_free "$port" || continue
    if [ -n "$quota" ]; then
      local cg="$cgroot/rankd_scale_out.$$.$core.$RANDOM"
      mkdir "$cg" || die "cannot make cgroup $cg"
      cgroups+=("$cg")
      if [ -f "$cg/cpu.max" ]; then
        awk -v q="$quota" 'BEGIN { printf "%d 10000\n", q * 10000 }' >"$cg/cpu.max"
      else
        echo 10000 >"$cg/cpu.cfs_period_us"
        awk -v q="$quota" 'BEGIN { printf "%d\n", q * 10000 }' >"$cg/cpu.cfs_quota_us"
      fi
      launch=(bash -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$cg")
    else
      launch=(taskset -c "$core")
    fi
    "${launch[@]}" "$rankd" --config "$work/rankd.toml" --listen "127.0.0.1:$port" \
      --admin-token-file "$work/admin.token" --log-level warn "$@" >"$log" 2>&1 &
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
stop_rankd() {  # stop_rankd PID
  kill "$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
  local kept=() p
  for p in "${pids[@]}"; do [ "$p" = "$1" ] || kept+=("$p"); done
  pids=("${kept[@]}")
}

# CPU seconds (user + system) a process has used so far.
cpu_seconds() { awk -v hz="$(getconf CLK_TCK)" '{ printf "%.2f", ($14 + $15) / hz }' "/proc/$1/stat"; }
# cores SECONDS: SECONDS of CPU over the measurement, as cores busy.
cores() { awk -v c="$1" -v s="$seconds" 'BEGIN { printf "%.2f", c / s }'; }

# verify NAME SERVERS PID...: one verify measurement; its rate in rate[NAME],
# the CPU each rankd PID and the load client used, as cores busy, in
# rankd_cpu[NAME] ("0.95 + 0.40") and client_cpu[NAME].
declare -A rate errors rankd_cpu client_cpu
verify() {
  local name=$1 servers=$2 out="$work/$1.out" line p before=() i=0 used
  shift 2
  for p in "$@"; do before+=("$(cpu_seconds "$p")"); done
  echo "== $name ($servers)" >&2
  /usr/bin/time -f 'CLIENT_CPU %U %S' -o "$work/$name.time" \
    "$load" --mode verify --servers "$servers" --numbers-file "$work/numbers.tsv" \
    --threads "$threads" --seconds "$seconds" >"$out" 2>&1 || true
  rankd_cpu[$name]=""
  for p in "$@"; do
    used=$(awk -v a="${before[$i]}" -v b="$(cpu_seconds "$p")" 'BEGIN { print b - a }')
    rankd_cpu[$name]+="${rankd_cpu[$name]:+ + }$(cores "$used")"
    i=$((i + 1))
  done
  client_cpu[$name]=$(cores "$(awk '/^CLIENT_CPU/ { print $2 + $3 }' "$work/$name.time")")
  line=$(grep '^RESULT' "$out" || true)
  echo "${line:-$(tail -3 "$out")}; rankd CPU ${rankd_cpu[$name]}, client CPU ${client_cpu[$name]} cores" >&2
  rate[$name]=$(sed -n 's/.* ops_per_s=\([0-9.]*\).*/\1/p' <<<"$line")
  errors[$name]=$(sed -n 's/.* errors=\([0-9]*\).*/\1/p' <<<"$line")
  [ -n "${rate[$name]}" ] || rate[$name]=0
}

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
"$pg_server" start "$work/primary" >&2
"$pg_server" standby "$work/standby" "$work/primary" >&2
primary=$(cat "$work/primary/url")
standby=$(cat "$work/standby/url")

start_rankd 0 --db "$primary"
a=$addr
echo "== issue for ${seconds}s through A" >&2
"$load" --mode issue --servers "$a" --token-file "$work/admin.token" --threads 4 \
  --seconds "$seconds" --numbers-out "$work/numbers.tsv" >"$work/issue.out" 2>&1 || true
grep '^RESULT' "$work/issue.out" >&2 || die "issue failed: $(tail -3 "$work/issue.out")"
# Every issued certificate on the standby before B reads it.
target=$(psql "$primary" -XAtc "SELECT pg_current_wal_lsn()")
for _ in $(seq 1 600); do
  behind=$(psql "$standby" -XAtc "SELECT pg_wal_lsn_diff('$target', pg_last_wal_replay_lsn()) > 0")
  [ "$behind" = f ] && break
  sleep 0.1
done
[ "$behind" = f ] || die "the standby did not catch up in 60 s"
certificates=$(wc -l <"$work/numbers.tsv")

a_pid=$pid
verify one "$a" "$a_pid"
start_rankd 1 --db "$primary" --db-read-replica "$standby"
b_pid=$pid
verify replica "$a,$addr" "$a_pid" "$b_pid"
verify replica_alone "$addr" "$b_pid"
stop_rankd "$b_pid"
start_rankd 1 --db "$primary"
verify primary "$a,$addr" "$a_pid" "$pid"
stop_rankd "$pid"
# A alone once more: how far the machine drifted during the run.
verify again "$a" "$a_pid"

n() { awk -v r="$1" 'BEGIN { s = sprintf("%.0f", r); o = "";
  while (length(s) > 3) { o = "," substr(s, length(s) - 2) o; s = substr(s, 1, length(s) - 3) }
  print s o }'; }
q() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else printf "-" }'; }

echo
echo "$(nproc) cores; load average before $load_before, after $(cut -d' ' -f1-3 /proc/loadavg);"
echo "PostgreSQL $(psql "$primary" -XAtc "SHOW server_version" | cut -d' ' -f1) primary + hot standby on loopback; $certificates certificates;"
if [ -n "$quota" ]; then placed="each rankd in a cgroup of its own limited to $quota cores (CFS quota per 10 ms), not pinned"
else placed="rankd pinned (taskset)"; fi
echo "public_index ${PUBLIC_INDEX:-default}; verify ${seconds} s each, $threads calls in flight; $placed, client and PostgreSQL not;"
echo "$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo '?')."
echo
echo "| setup | verify/s | errors | vs 1 rankd | rankd CPU (cores) | client CPU (cores) |"
echo "| --- | ---: | ---: | ---: | ---: | ---: |"
row() {  # row NAME LABEL
  echo "| $2 | $(n "${rate[$1]}") | ${errors[$1]:-?} | $(q "${rate[$1]}" "${rate[one]}") | ${rankd_cpu[$1]} | ${client_cpu[$1]} |"
}
c0="core 0" c1="core 1"
if [ -n "$quota" ]; then c0="$quota cores" c1="$quota cores"; fi
row one "1 rankd ($c0)"
row replica "2 rankd: + one on the replica ($c1)"
row replica_alone "1 rankd on the replica alone ($c1)"
row primary "2 rankd: + one on the primary ($c1)"
row again "1 rankd again, last ($c0)"
