#!/usr/bin/env bash
# A live backup of rankd with retention, for deploy/rankd-backup.timer (or
# cron). Calls `rankctl backup` (the AuditService.Backup RPC: a consistent
# VACUUM INTO snapshot streamed while rankd serves), checks the copy with
# SQLite's quick_check when sqlite3 is installed, keeps a copy of the audit
# signing key beside the backups, and deletes backups older than the
# retention. Exit status: 0 done; 1 the backup or its check failed (the
# partial file is removed and nothing old is deleted).
#
# Environment (all optional):
#   RANKD_SERVER           rankd address            (127.0.0.1:50051)
#   RANKD_TOKEN_FILE       a national-admin token (/etc/rankd/backup.token): an
#                          auditor's backup has no resident IDs and cannot be restored
#   RANKD_BACKUP_DIR       where backups go         (/var/lib/rankd/backups)
#   RANKD_BACKUP_KEEP_DAYS delete backups older than this many days (14)
#   RANKD_AUDIT_KEY        audit key to keep a copy of (/var/lib/rankd/audit_ed25519.pem)
#   RANKCTL                rankctl binary           (rankctl on PATH)
#   RANKCTL_ARGS           extra rankctl flags, e.g. "--ca-file /etc/rankd/tls/ca.pem"
set -euo pipefail
umask 077

server="${RANKD_SERVER:-127.0.0.1:50051}"
token_file="${RANKD_TOKEN_FILE:-/etc/rankd/backup.token}"
dir="${RANKD_BACKUP_DIR:-/var/lib/rankd/backups}"
keep_days="${RANKD_BACKUP_KEEP_DAYS:-14}"
audit_key="${RANKD_AUDIT_KEY:-/var/lib/rankd/audit_ed25519.pem}"
rankctl="${RANKCTL:-rankctl}"

case "$keep_days" in
  ''|*[!0-9]*) echo "RANKD_BACKUP_KEEP_DAYS must be a whole number of days, not '$keep_days'" >&2; exit 1 ;;
esac
[ "$keep_days" -ge 1 ] || { echo "RANKD_BACKUP_KEEP_DAYS must be at least 1" >&2; exit 1; }
mkdir -p "$dir"

out="$dir/rankd-$(date -u +%Y%m%dT%H%M%SZ).db"
# shellcheck disable=SC2086  # RANKCTL_ARGS is a list of flags
if ! said="$("$rankctl" --server "$server" --token-file "$token_file" ${RANKCTL_ARGS:-} \
     backup --out "$out")"; then
  rm -f "$out" "$out.part"
  echo "backup failed; kept the old backups" >&2
  exit 1
fi
case "$said" in
  *"auditor's copy"*)
    rm -f "$out"
    echo "$token_file is an auditor token: its backups have no resident ID numbers and cannot be restored; use a national-admin token" >&2
    exit 1 ;;
esac
echo "$said"
if command -v sqlite3 > /dev/null; then
  check="$(sqlite3 -readonly "$out" 'PRAGMA quick_check' 2>&1 || true)"
  if [ "$check" != "ok" ]; then
    echo "backup $out failed its check: $check" >&2
    rm -f "$out"
    exit 1
  fi
fi
# The database alone cannot be verified against old checkpoints after a
# restore on a new host without the signing key: keep its newest copy here.
if [ -r "$audit_key" ] && ! cmp -s "$audit_key" "$dir/audit_ed25519.pem"; then
  cp -p "$audit_key" "$dir/audit_ed25519.pem"
fi

# Retention: only files this script names, only after a good backup.
find "$dir" -maxdepth 1 -type f -name 'rankd-*.db' -mtime "+$((keep_days - 1))" \
  ! -newer "$out" ! -path "$out" -print -delete | sed 's/^/deleted old backup /'
echo "backup written to $out ($(stat -c %s "$out") bytes)"
