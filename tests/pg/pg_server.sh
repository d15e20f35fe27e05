#!/usr/bin/env bash
# A throw-away PostgreSQL server for the test suites (issue #10).
#
#   pg_server.sh start DIR   initdb a cluster in DIR/data (superuser rankd_test,
#                            trust auth on the unix socket and 127.0.0.1), start
#                            it on a free TCP port of 127.0.0.1, wait until it
#                            accepts connections, write its URL to DIR/url:
#                            postgresql://rankd_test@127.0.0.1:PORT/postgres
#   pg_server.sh stop DIR    stop it (pg_ctl -m fast) and remove DIR.
#   pg_server.sh pause DIR   stop it (pg_ctl -m fast) but keep DIR and its data:
#                            an outage of the database server, for tests.
#   pg_server.sh resume DIR  start a paused server again on the port of DIR/url
#                            and wait until it accepts connections.
#   pg_server.sh standby DIR PRIMARY_DIR
#                            a hot standby of the running server of PRIMARY_DIR
#                            (pg_basebackup -R over a replication connection:
#                            initdb's pg_hba.conf trusts those on 127.0.0.1,
#                            and wal_level is replica by default) in DIR/data,
#                            started on another free port with
#                            hot_standby_feedback on (fsync off: a throw-away
#                            copy); its URL in DIR/url. Stop
#                            (or pause/resume) it as any server.
#
# PostgreSQL refuses to run as root: when started by root (CI), the server runs
# as the Debian package's user `postgres` and DIR is handed to that user. The
# server binaries come from the newest /usr/lib/postgresql/*/bin (the Debian
# `postgresql` package; deploy/setup.sh test installs it). Server log: DIR/log.
# As root DIR is a symbolic link to a folder under /tmp (see below).
set -euo pipefail
# The server outlives this script: it must not keep the caller's open files
# (a lock such as `flock FILE pg_server.sh start ...` holds, or a pipe a test
# reads to its end). Every descriptor above stderr is closed here (255 is
# the one bash reads this script from).
for fd_path in /proc/$$/fd/*; do
  fd=${fd_path##*/}
  if [ "$fd" -gt 2 ] && [ "$fd" -lt 255 ]; then eval "exec $fd>&-" 2>/dev/null || true; fi
done
unset fd fd_path

die() { echo "pg_server.sh: $*" >&2; exit 1; }

usage() { die "usage: $0 start|stop|pause|resume DIR | standby DIR PRIMARY_DIR"; }

[ $# -eq 2 ] || { [ $# -eq 3 ] && [ "$1" = standby ]; } || usage
action=$1
dir=$2
primary=${3:-}
case "$dir" in /*) ;; *) dir="$PWD/$dir" ;; esac
# As root the cluster lives in a folder of its own under /tmp (the user
# postgres may not reach DIR: a checkout under /root is closed to it) and DIR
# is a symbolic link to it; every action works on the real folder.
requested=$dir
if [ -L "$dir" ]; then dir=$(readlink -f "$dir"); fi

find_bindir() {
  local candidate
  candidate=$(printf "%s\n" /usr/lib/postgresql/*/bin | sort -V | tail -1)
  [ -d "$candidate" ] || candidate=""
  if [ -z "$candidate" ] || [ ! -x "$candidate/initdb" ] || [ ! -x "$candidate/pg_ctl" ]; then
    die "PostgreSQL server binaries not found (no /usr/lib/postgresql/*/bin/initdb).
Install the Debian package: apt-get install postgresql   (or: deploy/setup.sh test).
To build without the PostgreSQL suites: cmake -DGORANK_PG_TESTS=OFF"
  fi
  echo "$candidate"
}

# Runs a command as the user that owns the cluster: `postgres` when we are root.
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

stop_server() {
  local bindir=$1
  if [ -f "$dir/data/postmaster.pid" ]; then
    as_owner "$bindir/pg_ctl" stop -D "$dir/data" -m fast -w -t 60 >/dev/null 2>&1 ||
      echo "pg_server.sh: pg_ctl stop failed; see $dir/log" >&2
  fi
}

# A fresh, empty DIR the cluster's owner may write (a folder under /tmp and a
# link to it when we are root).
prepare_dir() {
  local bindir=$1
  # A server left over from an interrupted run would keep the old port.
  stop_server "$bindir"
  rm -rf "$dir"
  rm -rf "$requested"
  if [ "$(id -u)" -eq 0 ]; then
    id postgres >/dev/null 2>&1 ||
      die "running as root, but there is no user 'postgres' to run the server as
(PostgreSQL refuses root; the Debian package 'postgresql' creates that user)"
    mkdir -p "$(dirname "$requested")"
    dir=$(mktemp -d "${TMPDIR:-/tmp}/rankd-pg.XXXXXX")
    ln -s "$dir" "$requested"
    chown postgres: "$dir"
    as_owner test -w "$dir" ||
      die "user postgres cannot write $dir (a parent directory is closed to it)"
  else
    mkdir -p "$dir"
  fi
  chmod 700 "$dir"
}

start() {
  local bindir=$1
  prepare_dir "$bindir"
  # --no-sync: a throw-away cluster need not survive an OS crash of its
  # creation (3 of initdb's 5 s here); the server itself runs with fsync on.
  if ! as_owner "$bindir/initdb" --no-sync -D "$dir/data" -U rankd_test -E UTF8 --locale=C.UTF-8 \
      --auth-local=trust --auth-host=trust >"$dir/initdb.log" 2>&1; then
    cat "$dir/initdb.log" >&2
    die "initdb failed in $dir/data"
  fi

  # Unix sockets are limited to ~107 bytes of path; the tests use TCP anyway.
  local sockets="$dir"
  if [ ${#dir} -gt 90 ]; then sockets=""; fi
  as_owner tee -a "$dir/data/postgresql.conf" >/dev/null <<EOF

# pg_server.sh (throw-away test server)
listen_addresses = '127.0.0.1'
unix_socket_directories = '$sockets'
max_connections = 300
fsync = on
synchronous_commit = on
full_page_writes = on
EOF
  launch "$bindir"
}

# Starts the cluster in DIR/data on a free port of 127.0.0.1 and writes DIR/url.
launch() {
  local bindir=$1
  # PG_SERVER_PORTS (optional, for testing the retry): candidate ports in order.
  local -a ports
  read -r -a ports <<<"${PG_SERVER_PORTS:-}"
  local attempt port
  for attempt in 1 2 3 4 5 6 7 8 9 10; do
    port=${ports[$((attempt - 1))]:-$((20000 + RANDOM % 40000))}
    if as_owner "$bindir/pg_ctl" start -D "$dir/data" -l "$dir/log" -w -t 60 \
        -o "-p $port" >/dev/null 2>&1; then
      if "$bindir/pg_isready" -q -h 127.0.0.1 -p "$port" -t 30; then
        echo "postgresql://rankd_test@127.0.0.1:$port/postgres" >"$dir/url"
        echo "PostgreSQL $("$bindir/postgres" -V | awk '{print $3}') on 127.0.0.1:$port (data $dir/data, log $dir/log)"
        return 0
      fi
      stop_server "$bindir"
      tail -20 "$dir/log" >&2 || true
      die "the server started but does not accept connections on 127.0.0.1:$port"
    fi
    # A port taken by someone else: try another one. Anything else is fatal.
    if grep -q 'could not bind\|Address already in use\|could not create any TCP/IP sockets' \
        "$dir/log" 2>/dev/null; then
      echo "pg_server.sh: port $port in use (attempt $attempt), trying another" >&2
      as_owner truncate -s 0 "$dir/log"
      continue
    fi
    tail -20 "$dir/log" >&2 || true
    die "pg_ctl start failed; see $dir/log"
  done
  die "no free port found after 10 attempts"
}

standby() {
  local bindir=$1
  case "$primary" in /*) ;; *) primary="$PWD/$primary" ;; esac
  [ -f "$primary/url" ] || die "no server in $primary (no $primary/url)"
  local pport
  pport=$(sed -n 's|.*@127\.0\.0\.1:\([0-9]*\)/.*|\1|p' "$primary/url")
  [ -n "$pport" ] || die "no port in $primary/url"
  prepare_dir "$bindir"
  if ! as_owner "$bindir/pg_basebackup" -D "$dir/data" -h 127.0.0.1 -p "$pport" \
      -U rankd_test -R -X stream -c fast --no-sync >"$dir/basebackup.log" 2>&1; then
    cat "$dir/basebackup.log" >&2
    die "pg_basebackup from 127.0.0.1:$pport failed"
  fi
  local sockets="$dir"
  if [ ${#dir} -gt 90 ]; then sockets=""; fi
  as_owner tee -a "$dir/data/postgresql.conf" >/dev/null <<EOF

# pg_server.sh standby (throw-away hot standby of 127.0.0.1:$pport)
unix_socket_directories = '$sockets'
hot_standby = on
hot_standby_feedback = on
# A throw-away copy: no fsync, so the start skips syncing the copied files.
fsync = off
EOF
  launch "$bindir"
}

case "$action" in
  standby)
    bindir=$(find_bindir)
    standby "$bindir"
    ;;
  start)
    bindir=$(find_bindir)
    start "$bindir"
    ;;
  pause)
    [ -f "$dir/url" ] || die "no server in $dir (no $dir/url)"
    stop_server "$(find_bindir)"
    ;;
  resume)
    [ -f "$dir/url" ] || die "no server in $dir (no $dir/url)"
    bindir=$(find_bindir)
    port=$(sed -n 's|.*@127\.0\.0\.1:\([0-9]*\)/.*|\1|p' "$dir/url")
    [ -n "$port" ] || die "no port in $dir/url"
    if ! as_owner "$bindir/pg_ctl" start -D "$dir/data" -l "$dir/log" -w -t 60 \
        -o "-p $port" >/dev/null 2>&1; then
      tail -20 "$dir/log" >&2 || true
      die "pg_ctl start failed on port $port; see $dir/log"
    fi
    "$bindir/pg_isready" -q -h 127.0.0.1 -p "$port" -t 30 ||
      die "the server started but does not accept connections on 127.0.0.1:$port"
    ;;
  stop)
    if [ -d "$dir" ]; then
      bindir=$(find_bindir)
      stop_server "$bindir"
      rm -rf "$dir"
    fi
    rm -rf "$requested"
    ;;
  *) usage ;;
esac
