#!/usr/bin/env bash
# Builds the libFuzzer targets in a separate ASan+UBSan clang build
# (build-fuzz/) and runs each for SECONDS (default 60) from its committed seed
# corpus. Fails on any crash, leak, timeout or sanitizer report.
# Usage: tests/fuzz/run.sh [SECONDS] [TARGET...]   (TARGET e.g. "rank")
# Needs clang and libclang-rt-14-dev (libFuzzer, ASan, UBSan runtimes).
set -euo pipefail

seconds="${1:-60}"
shift || true
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${GORANK_FUZZ_BUILD:-${root}/build-fuzz}"
targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
  targets=(sgf go_check gomoku_record egf csv rank certificate_number
           server_config audit_entry log_file)
fi

san="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
CC=clang CXX=clang++ cmake -S "${root}" -B "${build}" -G Ninja \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGORANK_FUZZ=ON \
  -DCMAKE_CXX_FLAGS="${san}" >/dev/null
ninja -C "${build}" -j"${GORANK_FUZZ_JOBS:-2}" "${targets[@]/%/_fuzzer}"

export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
failed=()
for t in "${targets[@]}"; do
  work="${build}/fuzz-work/${t}"
  mkdir -p "${work}/corpus"
  echo "== ${t}_fuzzer: ${seconds}s"
  # New inputs go to the scratch corpus; the committed seeds are read only.
  if ! (cd "${work}" && "${build}/tests/fuzz/${t}_fuzzer" \
          -max_total_time="${seconds}" -timeout=10 -rss_limit_mb=2048 \
          -max_len=65536 -print_final_stats=1 \
          "${work}/corpus" "${root}/tests/fuzz/corpus/${t}" \
          >"${work}/log.txt" 2>&1); then
    failed+=("${t}")
    echo "!! ${t}_fuzzer FAILED; log: ${work}/log.txt; reproducer in ${work}/"
    grep -E "ERROR|runtime error|SUMMARY" "${work}/log.txt" | head -5 || true
  else
    grep -E "stat::number_of_executed_units|stat::new_units_added" "${work}/log.txt" || true
  fi
done

if [[ ${#failed[@]} -gt 0 ]]; then
  echo "FAILED: ${failed[*]}"
  exit 1
fi
echo "all ${#targets[@]} fuzzers ran ${seconds}s clean"
