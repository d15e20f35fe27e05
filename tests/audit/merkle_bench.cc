// Benchmarks of the audit log's hot paths. Run by hand:
//   ninja -C build-<you> audit_merkle_bench &&
//   build-<you>/tests/audit/audit_merkle_bench
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "services/audit/audit_entry.h"
#include "services/audit/checkpoint.h"
#include "services/audit/compact_range.h"
#include "services/audit/log_verifier.h"
#include "services/audit/merkle.h"

namespace gorank::audit {
namespace {

std::string Entry(int64_t i) {
  return AuditEntry{1767225600 + i,
                    "agency:110/token:7",
                    "player.register",
                    "player:" + std::to_string(i),
                    "",
                    R"({"name":"张三","rank":"3d"})"}
      .Encode()
      .value();
}

std::vector<std::string> Hashes(int64_t n) {
  std::vector<std::string> out;
  out.reserve(n);
  for (int64_t i = 0; i < n; ++i) out.push_back(LeafHash(Entry(i)));
  return out;
}

void BM_LeafHash(benchmark::State& state) {
  std::string entry = Entry(1);
  for (auto _ : state) benchmark::DoNotOptimize(LeafHash(entry));
}
BENCHMARK(BM_LeafHash);

// One server append: leaf hash, frontier update, new root.
void BM_CompactRangeAppendAndRoot(benchmark::State& state) {
  CompactRange range;
  for (int64_t i = 0; i < state.range(0); ++i) range.AppendEntry(Entry(i));
  std::string entry = Entry(0);
  for (auto _ : state) {
    range.AppendEntry(entry);
    benchmark::DoNotOptimize(range.RootHash());
  }
}
BENCHMARK(BM_CompactRangeAppendAndRoot)->Arg(1 << 10)->Arg(1 << 20);

void BM_InclusionProof(benchmark::State& state) {
  std::vector<std::string> hashes = Hashes(state.range(0));
  int64_t index = state.range(0) / 3;
  for (auto _ : state) {
    benchmark::DoNotOptimize(InclusionProof(index, hashes));
  }
}
BENCHMARK(BM_InclusionProof)
    ->Arg(1 << 10)
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond);

void BM_ConsistencyProof(benchmark::State& state) {
  std::vector<std::string> hashes = Hashes(state.range(0));
  for (auto _ : state) {
    benchmark::DoNotOptimize(ConsistencyProof(state.range(0) / 3, hashes));
  }
}
BENCHMARK(BM_ConsistencyProof)->Arg(100000)->Unit(benchmark::kMillisecond);

void BM_VerifyInclusion(benchmark::State& state) {
  std::vector<std::string> hashes = Hashes(100000);
  std::vector<std::string> proof = InclusionProof(777, hashes).value();
  std::string root = RootHash(hashes);
  for (auto _ : state) {
    benchmark::DoNotOptimize(
        VerifyInclusion(hashes[777], 777, 100000, proof, root));
  }
}
BENCHMARK(BM_VerifyInclusion);

void BM_SignCheckpoint(benchmark::State& state) {
  SigningKey key = SigningKey::FromSeed(std::string(32, 'k')).value();
  std::string root = LeafHash("x");
  for (auto _ : state) {
    benchmark::DoNotOptimize(SignCheckpoint(100, root, 1767225600, key));
  }
}
BENCHMARK(BM_SignCheckpoint);

void BM_VerifyCheckpoint(benchmark::State& state) {
  SigningKey key = SigningKey::FromSeed(std::string(32, 'k')).value();
  Checkpoint checkpoint =
      SignCheckpoint(100, LeafHash("x"), 1767225600, key).value();
  VerifyingKey public_key = key.public_key();
  for (auto _ : state) {
    benchmark::DoNotOptimize(VerifyCheckpoint(checkpoint, public_key));
  }
}
BENCHMARK(BM_VerifyCheckpoint);

// Offline verification of a whole log: decode + leaf hash + roots.
void BM_VerifyLog(benchmark::State& state) {
  std::vector<std::string> entries;
  CompactRange range;
  for (int64_t i = 0; i < state.range(0); ++i) {
    entries.push_back(Entry(i));
    range.AppendEntry(entries.back());
  }
  SigningKey key = SigningKey::FromSeed(std::string(32, 'k')).value();
  Checkpoint checkpoint =
      SignCheckpoint(range.size(), range.RootHash(), 1767225600, key).value();
  for (auto _ : state) {
    LogVerdict verdict = VerifyLog(entries, checkpoint, key.public_key());
    if (!verdict.ok) state.SkipWithError(verdict.reason.c_str());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_VerifyLog)->Arg(100000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace gorank::audit
