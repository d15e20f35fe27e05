#!/usr/bin/env bash
# Installs axe-core (the accessibility engine the portal browser test injects
# into every page) from the npm registry into the test tool cache, once:
#   ${XDG_CACHE_HOME:-$HOME/.cache}/rankd-test/axe-core-<version>
# Pinned here; tests/web/CMakeLists.txt reads the version from this line.
set -euo pipefail
axe_version=4.10.2
dir="${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/rankd-test/axe-core-$axe_version"
if [ -s "$dir/node_modules/axe-core/axe.min.js" ]; then exit 0; fi
if ! command -v npm > /dev/null; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends npm
fi
mkdir -p "$dir"
npm install --prefix "$dir" --no-save --no-audit --no-fund --silent "axe-core@$axe_version"
echo "axe-core $axe_version in $dir"
