#!/usr/bin/env bash
# The style checks .ci/run runs before the test suite; exits non-zero on the
# first that fails.
#   buf lint   the protos under proto/ against buf.yaml (the STANDARD rules;
#              exceptions are `// buf:lint:ignore` comments with their reason).
#              buf is not a Debian package: it comes from the npm registry,
#              pinned to one version and kept in ~/.cache/rankd-lint (npm, and
#              nodejs with it, is installed from Debian when missing).
set -euo pipefail
cd "$(dirname "$0")/.."

buf_version=1.75.0
tools="${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/rankd-lint/buf-$buf_version"
buf="$tools/node_modules/.bin/buf"
if [ ! -x "$buf" ]; then
  if ! command -v npm > /dev/null; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends npm
  fi
  mkdir -p "$tools"
  npm install --prefix "$tools" --no-save --no-audit --no-fund --silent "@bufbuild/buf@$buf_version"
fi
"$buf" lint
echo "buf lint: proto/ conforms to buf.yaml"
