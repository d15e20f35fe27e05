#!/usr/bin/env bash
# Builds the libFuzzer targets in a separate ASan+UBSan clang build
# (build-fuzz/) and runs each for SECONDS (default 60) from its committed seed
# corpus, PARALLEL targets at a time. Fails on any crash, leak, timeout or
# sanitizer report, naming the target, its log and its reproducer.
# Usage: tests/fuzz/run.sh [SECONDS] [TARGET...]   (TARGET e.g. "rank")
# Environment: GORANK_FUZZ_PARALLEL (targets at a time, default nproc),
#   GORANK_FUZZ_BUILD (build dir, default <repo>/build-fuzz),
#   GORANK_FUZZ_JOBS (compile jobs, default nproc).
# Needs clang-14 (or clang) and libclang-rt-14-dev (libFuzzer, ASan, UBSan).
# deploy/setup.sh test runs it with 30 s and 2 at a time; for a long run:
#   GORANK_FUZZ_PARALLEL=2 tests/fuzz/run.sh 3600 sgf egf csv
set -euo pipefail

seconds="${1:-60}"
shift || true
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="$(realpath -m "${GORANK_FUZZ_BUILD:-${root}/build-fuzz}")"
parallel="${GORANK_FUZZ_PARALLEL:-$(nproc)}"
targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
  targets=(sgf go_check gomoku_record egf csv rank certificate_number
           server_config audit_entry log_file xiangqi_record)
fi

cc=clang-14
cxx=clang++-14
if ! command -v "${cxx}" >/dev/null; then cc=clang; cxx=clang++; fi
san="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
# -O1 and line tables (what libFuzzer's docs use): ASan at -O2 -g cost 60%
# more compile time, and the reports still name file and line.
CC="${cc}" CXX="${cxx}" cmake -S "${root}" -B "${build}" -G Ninja \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGORANK_FUZZ=ON -DGORANK_BUILD_TESTS=ON \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only -DNDEBUG" \
  -DCMAKE_CXX_FLAGS="${san}" >/dev/null
ninja -C "${build}" -j"${GORANK_FUZZ_JOBS:-$(nproc)}" "${targets[@]/%/_fuzzer}"

export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"

# One target: new inputs go to a scratch corpus (the committed seeds are read
# only), reproducers to <work>/artifacts/, the verdict to <work>/result.
run_one() {
  local t="$1" work="${build}/fuzz-work/$1"
  rm -rf "${work}/artifacts" "${work}/result"
  mkdir -p "${work}/corpus" "${work}/artifacts"
  if (cd "${work}" && timeout --kill-after=30 "$((seconds + 300))" \
        "${build}/tests/fuzz/${t}_fuzzer" \
        -max_total_time="${seconds}" -timeout=10 -rss_limit_mb=2048 \
        -max_len=65536 -detect_leaks=1 -print_final_stats=1 \
        -artifact_prefix="${work}/artifacts/" \
        "${work}/corpus" "${root}/tests/fuzz/corpus/${t}" \
        >"${work}/log.txt" 2>&1); then
    echo ok >"${work}/result"
  else
    echo failed >"${work}/result"
  fi
}

start=$(date +%s)
running=0
for t in "${targets[@]}"; do
  if ((running >= parallel)); then
    wait -n || true
    running=$((running - 1))
  fi
  echo "== ${t}_fuzzer: ${seconds}s"
  run_one "${t}" &
  running=$((running + 1))
done
wait

failed=()
for t in "${targets[@]}"; do
  work="${build}/fuzz-work/${t}"
  if [[ "$(cat "${work}/result" 2>/dev/null)" == ok ]]; then
    echo "ok ${t}_fuzzer:" \
      "$(grep -hoE "stat::number_of_executed_units: [0-9]+" "${work}/log.txt" | tail -1)"
    continue
  fi
  failed+=("${t}")
  echo "!! ${t}_fuzzer FAILED; log: ${work}/log.txt"
  grep -E "ERROR|runtime error|SUMMARY|Test unit written" "${work}/log.txt" | head -8 || true
  for f in "${work}"/artifacts/*; do
    [[ -e "${f}" ]] && echo "   reproducer: ${f}  (rerun: ${build}/tests/fuzz/${t}_fuzzer ${f})"
  done
done

echo "fuzzing took $(($(date +%s) - start)) s for ${#targets[@]} targets, ${parallel} at a time"
if [[ ${#failed[@]} -gt 0 ]]; then
  echo "FAILED: ${failed[*]}"
  exit 1
fi
echo "all ${#targets[@]} fuzzers ran ${seconds}s clean (ASan + UBSan, leak detection on)"
