#!/usr/bin/env bash
# Installs what is missing (Debian packages), builds, and then:
#   deploy/setup.sh run    builds only rankd and rankctl (no test suite), says
#                          where rankctl is (linked into ~/.local/bin when that
#                          folder is on PATH), starts rankd on the embedded
#                          SQLite database data/rankd.db
#   deploy/setup.sh test   runs the whole test suite (ctest, then 10 s of each fuzz target)
#   deploy/setup.sh build  only builds
# Environment: RANKD_LISTEN (default 127.0.0.1:50051), BUILD_DIR (default build).
# GORANK_BUILD_TESTS=OFF skips building the tests (deploy/Containerfile).
set -euo pipefail
cd "$(dirname "$0")/.."

mode="${1:-build}"
case "$mode" in run|test|build) ;; *) echo "usage: $0 run|test|build" >&2; exit 2 ;; esac

# lld: the linker CMakeLists.txt uses when present (links several times
# faster than GNU ld).
packages=(
  cmake ninja-build g++ pkg-config lld
  libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler grpc-proto
  libsqlite3-dev sqlite3 libpq-dev libssl-dev openssl
  libgtest-dev libgmock-dev libbenchmark-dev
  libspdlog-dev libfmt-dev libcli11-dev nlohmann-json3-dev libtomlplusplus-dev
  libcpp-httplib-dev libhpdf-dev libqrencode-dev libxlsxwriter-dev liblemon-dev
  libzbar-dev libpng-dev libgoogle-perftools-dev
  curl
)
# Only the test suite needs these: the browser tests (headless Chromium and
# chromedriver with a CJK font; axe-core comes from npm through
# tests/web/fetch-axe.sh), the PDF check (pdftoppm, zbarimg), the fuzz runs
# (clang) and the PostgreSQL suites (a throw-away server the tests start as a
# non-root user); fairy-stockfish is the reference for the Xiangqi perft test.
if [ "$mode" = test ]; then
  packages+=(postgresql chromium chromium-driver fonts-wqy-zenhei poppler-utils poppler-data zbar-tools clang-14 libclang-rt-14-dev)
  packages+=(fairy-stockfish)
  # npm only where there is none: a machine whose Node.js came from elsewhere
  # (nodesource's nodejs bundles npm) cannot take Debian's npm beside it.
  command -v npm > /dev/null || packages+=(npm)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "installing: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

build="${BUILD_DIR:-build}"
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DGORANK_BUILD_TESTS="${GORANK_BUILD_TESTS:-ON}" > /dev/null
# `run` builds only what it runs; `build` and `test` build everything.
targets=()
if [ "$mode" = run ]; then targets=(--target rankd rankctl); fi
cmake --build "$build" -j "$(nproc)" "${targets[@]}"

case "$mode" in
  run)
    mkdir -p data
    rankctl_path="$(cd "$build/services/cli" && pwd)/rankctl"
    bin="${HOME:-}/.local/bin"
    if [ -n "${HOME:-}" ] && [[ ":$PATH:" == *":$bin:"* ]] &&
       { [ -L "$bin/rankctl" ] || [ ! -e "$bin/rankctl" ]; } &&
       mkdir -p "$bin" && ln -sfn "$rankctl_path" "$bin/rankctl"; then
      echo "rankctl: $bin/rankctl -> $rankctl_path"
    else
      echo "rankctl: $rankctl_path (to put it on PATH: export PATH=\"$(dirname "$rankctl_path"):\$PATH\")"
    fi
    # The public web page: RANKD_HTTP_LISTEN (default 127.0.0.1:8080).
    exec "$build/services/server/rankd" --db data/rankd.db --listen "${RANKD_LISTEN:-127.0.0.1:50051}" \
      --http-listen "${RANKD_HTTP_LISTEN:-127.0.0.1:8080}"
    ;;
  test)
    tests/web/fetch-axe.sh
    (cd "$build" && ctest --output-on-failure -j "$(nproc)" --timeout 900)
    # Then every libFuzzer target for FUZZ_SECONDS (default 10; 0 skips),
    # two at a time, in its own clang-14 ASan + UBSan build with leak
    # detection (build-fuzz): a crash, leak or sanitizer report fails the run
    # and names the target and its reproducer.
    if [ "${FUZZ_SECONDS:-10}" != 0 ]; then
      GORANK_FUZZ_PARALLEL=2 tests/fuzz/run.sh "${FUZZ_SECONDS:-10}"
    fi
    ;;
esac
