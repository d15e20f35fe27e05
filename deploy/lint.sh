#!/usr/bin/env bash
# The style checks .ci/run runs before the test suite; exits non-zero on the
# first that fails.
#   buf lint   the protos under proto/ against buf.yaml (the STANDARD rules;
#              exceptions are `// buf:lint:ignore` comments with their reason).
#              buf is not a Debian package: it comes from the npm registry,
#              pinned to one version and kept in ~/.cache/rankd-lint (npm, and
#              nodejs with it, is installed from Debian when missing).
#   clang-format
#              every tracked C++ file (*.cc, *.h) against .clang-format
#              (Google, 80 columns), with Debian's clang-format (installed
#              when missing). Fix a file with `clang-format -i FILE`. The
#              one-time reformat is listed in .git-blame-ignore-revs.
set -euo pipefail
cd "$(dirname "$0")/.."

apt_install() {
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$@"
}

command -v clang-format > /dev/null || apt_install clang-format
if ! git ls-files -z '*.cc' '*.h' |
    xargs -0 clang-format --dry-run --Werror --style=file; then
  echo "clang-format: the files above do not conform to .clang-format;" \
       "run clang-format -i on them" >&2
  exit 1
fi
echo "clang-format: every C++ file conforms to .clang-format"

buf_version=1.75.0
tools="${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/rankd-lint/buf-$buf_version"
buf="$tools/node_modules/.bin/buf"
if [ ! -x "$buf" ]; then
  command -v npm > /dev/null || apt_install npm
  mkdir -p "$tools"
  npm install --prefix "$tools" --no-save --no-audit --no-fund --silent "@bufbuild/buf@$buf_version"
fi
"$buf" lint
echo "buf lint: proto/ conforms to buf.yaml"
