#!/usr/bin/env bash
# Prints the Debian packages that hold the shared libraries the given
# binaries load (one name a line, sorted), so that a runtime image installs
# exactly those (deploy/Containerfile). Exit status 1 when a library is
# missing or belongs to no package.
#   deploy/runtime-packages.sh build/services/server/rankd build/services/cli/rankctl
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: $0 BINARY..." >&2; exit 2; }

if ldd "$@" | grep -q 'not found'; then
  ldd "$@" | grep 'not found' >&2
  exit 1
fi
status=0
owners=()
for lib in $(ldd "$@" | awk '$2 == "=>" && $3 ~ /^\// {print $3}' | sort -u); do
  # Debian 12 merged /usr: the loader may name /lib/... for a file that
  # dpkg registered as /usr/lib/... (or the other way round).
  owner=""
  for path in "$lib" "$(readlink -f "$lib")" "/usr$lib" "${lib#/usr}"; do
    owner="$(dpkg -S "$path" 2>/dev/null | head -n1 | cut -d: -f1 || true)"
    [ -n "$owner" ] && break
  done
  if [ -z "$owner" ]; then
    echo "no Debian package holds $lib" >&2
    status=1
  else
    owners+=("$owner")
  fi
done
printf '%s\n' "${owners[@]}" | sort -u
exit "$status"
