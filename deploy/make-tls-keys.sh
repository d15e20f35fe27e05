#!/usr/bin/env bash
# Creates a private CA, a server certificate for rankd and client certificates
# for mutual TLS, with openssl. For a test set-up or a federation's own CA;
# a production CA key belongs offline.
#
#   deploy/make-tls-keys.sh DIR [SERVER_NAME] [CLIENT_NAME...]
#
# Writes into DIR: ca.pem ca.key (the CA), server.pem server.key (SAN:
# SERVER_NAME, localhost, 127.0.0.1), and CLIENT.pem CLIENT.key for each
# client name (default: one client "agency-110"). Keys are mode 0600.
set -euo pipefail
dir="${1:?usage: $0 DIR [SERVER_NAME] [CLIENT_NAME...]}"
server="${2:-localhost}"
shift $(( $# >= 2 ? 2 : 1 ))
clients=("$@")
[ ${#clients[@]} -gt 0 ] || clients=(agency-110)
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
  issue "$c" "$c" "extendedKeyUsage=clientAuth"
done
chmod 644 ca.pem server.pem
echo "wrote CA, server and client certificates to $dir"
