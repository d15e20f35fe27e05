#!/usr/bin/env bash
# Creates a private CA, a server certificate for rankd and client certificates
# for mutual TLS, with openssl. For a test set-up or a federation's own CA;
# a production CA key belongs offline.
#
#   deploy/make-tls-keys.sh DIR [SERVER_NAME] [CLIENT_NAME...]
#
# Writes into DIR: ca.pem ca.key (the CA), server.pem server.key (SAN:
# SERVER_NAME, localhost, 127.0.0.1), and CLIENT.pem CLIENT.key for each
# client name (default: national-admin agency-110 auditor). Keys are mode 0600.
#
# With mutual TLS rankd binds a token to its client certificate: the
# certificate's name (subject CN, also written as a DNS subject alternative
# name) must be
#   national-admin              for national-admin tokens
#   agency-PPP (e.g. agency-110) for agency-operator tokens of agency PPP
#   auditor or auditor-<any>    for auditor tokens
# else the call is PERMISSION_DENIED. Name the clients accordingly.
set -euo pipefail
dir="${1:?usage: $0 DIR [SERVER_NAME] [CLIENT_NAME...]}"
server="${2:-localhost}"
shift $(( $# >= 2 ? 2 : 1 ))
clients=("$@")
[ ${#clients[@]} -gt 0 ] || clients=(national-admin agency-110 auditor)
for c in "${clients[@]}"; do
  case "$c" in
    national-admin|agency-[0-9][0-9][0-9]|auditor|auditor-*) ;;
    *) echo "note: client name '$c' matches no token role (national-admin, agency-PPP," \
            "auditor[-...]); rankd will refuse its tokens" >&2 ;;
  esac
done
mkdir -p "$dir"
cd "$dir"
umask 077

openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 3650 \
  -subj "/CN=rankd test CA" -keyout ca.key -out ca.pem 2>/dev/null

issue() {  # name, subject CN, extensions
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
    -subj "/CN=$2" -keyout "$1.key" -out "$1.csr" 2>/dev/null
  printf '%s\n' "$3" > "$1.ext"
  openssl x509 -req -in "$1.csr" -CA ca.pem -CAkey ca.key -CAcreateserial -days 825 \
    -extfile "$1.ext" -out "$1.pem" 2>/dev/null
  rm -f "$1.csr" "$1.ext"
}

issue server "$server" "subjectAltName=DNS:$server,DNS:localhost,IP:127.0.0.1
extendedKeyUsage=serverAuth"
for c in "${clients[@]}"; do
  issue "$c" "$c" "subjectAltName=DNS:$c
extendedKeyUsage=clientAuth"
done
chmod 644 ca.pem server.pem
echo "wrote CA, server and client certificates to $dir"
