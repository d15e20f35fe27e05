// Cost of the operational endpoints: recording one call in the metrics
// (what every RPC pays), rendering /metrics, and one health probe of a real
// SQLite database. Run by hand:
//   build/tests/server/operations_bench [--benchmark_filter=...]
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "services/common/metrics.h"
#include "storage/database.h"
#include "tests/testing/temp_dir.h"

namespace gorank {
namespace {

std::vector<std::string> MethodNames(int n) {
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i)
    out.push_back("/gorank.v1.Service/Method" + std::to_string(i));
  return out;
}

// Shared by the threads of one run: the contended case is the real one.
Metrics* shared_metrics = nullptr;

void BM_RecordCall(benchmark::State& state) {
  if (state.thread_index() == 0) shared_metrics = new Metrics();
  const std::vector<std::string> methods = MethodNames(60);
  size_t i = static_cast<size_t>(state.thread_index());
  for (auto _ : state) {
    shared_metrics->RecordCall(methods[i++ % methods.size()], "OK", 0.0007);
  }
  if (state.thread_index() == 0) {
    delete shared_metrics;
    shared_metrics = nullptr;
  }
}
BENCHMARK(BM_RecordCall)->Threads(1)->Threads(2)->UseRealTime();

void BM_RenderMetrics(benchmark::State& state) {
  Metrics m;
  const std::vector<std::string> methods =
      MethodNames(static_cast<int>(state.range(0)));
  for (const std::string& method : methods) {
    for (const char* code : {"OK", "NOT_FOUND", "INVALID_ARGUMENT"}) {
      m.RecordCall(method, code, 0.002);
    }
  }
  size_t bytes = 0;
  for (auto _ : state) {
    std::string text = m.Render();
    bytes = text.size();
    benchmark::DoNotOptimize(text);
  }
  state.counters["bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_RenderMetrics)->Arg(10)->Arg(60);

void BM_DatabaseProbe(benchmark::State& state) {
  testing::TempDir dir;
  auto db = storage::Database::Open(dir.File("probe.db"));
  if (!db.ok()) {
    state.SkipWithError(db.status().ToString().c_str());
    return;
  }
  for (auto _ : state) {
    absl::Status s = (*db)->Probe();
    if (!s.ok()) state.SkipWithError(s.ToString().c_str());
  }
}
BENCHMARK(BM_DatabaseProbe);

}  // namespace
}  // namespace gorank

BENCHMARK_MAIN();
