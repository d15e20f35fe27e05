// rankd_load: a gRPC load client for one or more running rankd instances
// (issue #10: throughput on SQLite and on PostgreSQL with one and two
// instances; tests/bench/pg_compare.sh drives it).
//
//   rankd_load --mode issue  --servers H:P[,H:P] --token-file F
//              [--players 8] [--years 20] [--threads 4] [--promote]
//              [--seconds 10 | --count N] [--numbers-out FILE]
//   rankd_load --mode verify --servers H:P[,H:P] --numbers-file FILE
//              [--threads 4] [--seconds 10 | --count N]
//   rankd_load --mode echo   --servers H:P --numbers-file FILE [as verify]
//
// issue:  registers --players players (national admin token, agency 000,
//         initial rank 5k), then issues 5k certificates to them (no rank
//         changes; with --promote the players have no rank and call k
//         issues (10 - k / #players mod 10) kyu: every call raises its
//         holder's rank, as most real certificates do; keep a run under
//         10 passes); call k goes
//         to server k mod #servers and player k mod #players, dated 15
//         January of year Y-1-((k / 9000) mod --years) (Y this year): the
//         numbers are taken in order, a year at a time, as a federation
//         issues them and as sqlite_insert_bench inserts its rows; one
//         agency has 9999 serials a year, a fast server uses them up in
//         seconds.
//         --numbers-out writes "NUMBER<TAB>HOLDER" for every certificate
//         issued.
// verify: public VerifyCertificate (no token) of the numbers in
//         --numbers-file, round-robin over the servers; an answer other than
//         VALID counts as an error "answer:<outcome>".
// echo:   the verify calls, built the same way, to the bench-only
//         gorank.bench.Echo/VerifyCertificate of rankd_echo (a bare gRPC
//         server, bench_echo.proto): the limit verify is compared with.
//
// Each thread has its own connection to every server, made (waited for at
// most 30 s) before the clock starts. With --count the run stops after N
// calls, else after --seconds. Prints calls that succeeded,
// errors by gRPC code, successful calls a second, and p50/p99/max latency,
// then one line "RESULT mode=... ok=... errors=... ops_per_s=... p50_ms=...
// p99_ms=..." for scripts. Exit status: 0 when at least one call succeeded
// and none failed, 1 otherwise, 2 for bad flags or a server not reachable.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "CLI/CLI.hpp"
#include "absl/status/status.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "bench_echo.grpc.pb.h"  // generated in this folder
#include "gorank/v1/certificates.grpc.pb.h"
#include "gorank/v1/registry.grpc.pb.h"
#include "grpcpp/grpcpp.h"

namespace gorank::bench {
namespace {

using Clock = std::chrono::steady_clock;

// Issuances dated in one year before the load moves to the year before
// (an agency has 9999 serials a year; a margin for calls that failed).
constexpr int64_t kIssuesAYear = 9000;

struct Options {
  std::string mode;
  std::vector<std::string> servers;
  std::string token_file;
  std::string numbers_file;
  std::string numbers_out;
  int threads = 4;
  double seconds = 10;
  int64_t count = 0;  // 0: run for --seconds
  int players = 8;
  int years = 20;
  bool promote = false;  // every issuance raises its holder's rank
};

// A certificate the verify mode asks about.
struct Issued {
  std::string number;
  std::string holder;
};

// What one thread saw.
struct ThreadResult {
  std::vector<int64_t> latencies_us;  // successful calls only
  std::map<std::string, int64_t> errors;
  std::vector<Issued> issued;
};

std::shared_ptr<grpc::Channel> Connect(const std::string& server) {
  grpc::ChannelArguments args;
  // A private subchannel pool: each thread gets its own TCP connection
  // instead of sharing one HTTP/2 connection with every other thread.
  args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
  return grpc::CreateCustomChannel(server, grpc::InsecureChannelCredentials(),
                                   args);
}

std::unique_ptr<grpc::ClientContext> CallContext(const std::string& token) {
  auto ctx = std::make_unique<grpc::ClientContext>();
  ctx->set_deadline(std::chrono::system_clock::now() +
                    std::chrono::seconds(30));
  if (!token.empty()) ctx->AddMetadata("authorization", "Bearer " + token);
  return ctx;
}

std::string CodeName(const grpc::Status& s) {
  return absl::StatusCodeToString(
      static_cast<absl::StatusCode>(s.error_code()));
}

// Registers the players the issue mode certifies; their ids and names.
bool RegisterPlayers(const Options& o, const std::string& token,
                     std::vector<int64_t>* ids,
                     std::vector<std::string>* names) {
  const std::string run =
      std::to_string(std::chrono::duration_cast<std::chrono::seconds>(
                         std::chrono::system_clock::now().time_since_epoch())
                         .count());
  for (int i = 0; i < o.players; ++i) {
    auto stub =
        v1::PlayerRegistry::NewStub(Connect(o.servers[i % o.servers.size()]));
    v1::RegisterPlayerRequest req;
    req.set_name("Load " + run + " " + std::to_string(i + 1));
    req.set_agency_prefix("000");
    // --promote starts them without a rank: 10k is their first.
    if (!o.promote) req.mutable_initial_rank()->set_notation("5k");
    v1::RegisterPlayerResponse resp;
    const grpc::Status s =
        stub->RegisterPlayer(CallContext(token).get(), req, &resp);
    if (!s.ok()) {
      std::cerr << "rankd_load: RegisterPlayer on "
                << o.servers[i % o.servers.size()] << " failed: " << CodeName(s)
                << ": " << s.error_message() << "\n";
      return false;
    }
    ids->push_back(resp.player().id());
    names->push_back(req.name());
  }
  return true;
}

bool ReadNumbers(const std::string& path, std::vector<Issued>* out) {
  std::ifstream in(path);
  if (!in) {
    std::cerr << "rankd_load: cannot read --numbers-file " << path << "\n";
    return false;
  }
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> parts =
        absl::StrSplit(line, absl::MaxSplits('\t', 1));
    if (parts.size() == 2 && !parts[0].empty())
      out->push_back({parts[0], parts[1]});
  }
  if (out->empty()) {
    std::cerr << "rankd_load: " << path << " holds no NUMBER<TAB>HOLDER line\n";
    return false;
  }
  return true;
}

// Shared state of one run.
struct Run {
  const Options* o;
  std::string token;
  std::vector<int64_t> player_ids;
  std::vector<std::string> player_names;
  std::vector<Issued> numbers;  // verify mode
  std::atomic<int64_t> next{0};
  Clock::time_point stop_at;
  int first_year = 0;  // issue dates: 15 January of first_year and before
};

// Claims the next call number; false when the run is over.
bool NextCall(Run& run, int64_t* k) {
  if (run.o->count == 0 && Clock::now() >= run.stop_at) return false;
  *k = run.next.fetch_add(1);
  return run.o->count == 0 || *k < run.o->count;
}

// `channels`: the thread's own connection to each server, in --servers
// order.
void Worker(Run& run, ThreadResult* r,
            const std::vector<std::shared_ptr<grpc::Channel>>& channels) {
  const Options& o = *run.o;
  std::vector<std::unique_ptr<v1::CertificateService::Stub>> stubs;
  std::vector<std::unique_ptr<Echo::Stub>> echo_stubs;
  for (const auto& channel : channels) {
    if (o.mode == "echo") {
      echo_stubs.push_back(Echo::NewStub(channel));
    } else {
      stubs.push_back(v1::CertificateService::NewStub(channel));
    }
  }
  const size_t servers = o.servers.size();
  int64_t k = 0;
  while (NextCall(run, &k)) {
    grpc::Status s;
    std::string answer_error;
    const Clock::time_point start = Clock::now();
    if (o.mode == "issue") {
      const size_t p = k % run.player_ids.size();
      v1::IssueCertificateRequest req;
      req.set_player_id(run.player_ids[p]);
      // --promote: each pass over the players raises every one a kyu, 10k
      // (the lowest certified grade) on the first pass to 1k on the 10th (a
      // rank change at every call, as most real certificates are); else
      // always 5k, their rank already.
      req.mutable_grade()->set_notation(
          o.promote
              ? std::to_string(10 - (k / run.player_ids.size()) % 10) + "k"
              : "5k");
      req.set_basis(v1::CERTIFICATE_BASIS_TOURNAMENT);
      req.set_basis_reference("rankd_load");
      // Serials run out at 9999 an agency a year: a year at a time.
      v1::Date* date = req.mutable_issue_date();
      date->set_year(run.first_year -
                     static_cast<int>((k / kIssuesAYear) % o.years));
      date->set_month(1);
      date->set_day(15);
      v1::IssueCertificateResponse resp;
      s = stubs[k % servers]->IssueCertificate(CallContext(run.token).get(),
                                               req, &resp);
      if (s.ok() && !o.numbers_out.empty()) {
        r->issued.push_back({resp.certificate().number(), run.player_names[p]});
      }
    } else {
      const Issued& n = run.numbers[k % run.numbers.size()];
      v1::VerifyCertificateRequest req;
      req.set_number(n.number);
      req.set_holder_name(n.holder);
      v1::VerifyCertificateResponse resp;
      // The same request, context and answer check for rankd and the echo.
      if (o.mode == "echo") {
        s = echo_stubs[k % servers]->VerifyCertificate(CallContext("").get(),
                                                       req, &resp);
      } else {
        s = stubs[k % servers]->VerifyCertificate(CallContext("").get(), req,
                                                  &resp);
      }
      if (s.ok() && resp.outcome() != v1::VERIFY_OUTCOME_VALID &&
          resp.outcome() != v1::VERIFY_OUTCOME_UNDER_NOTICE) {
        answer_error = "answer:" + v1::VerifyOutcome_Name(resp.outcome());
      }
    }
    const auto us = std::chrono::duration_cast<std::chrono::microseconds>(
                        Clock::now() - start)
                        .count();
    if (!s.ok()) {
      ++r->errors[CodeName(s)];
    } else if (!answer_error.empty()) {
      ++r->errors[answer_error];
    } else {
      r->latencies_us.push_back(us);
    }
  }
}

double PercentileMs(const std::vector<int64_t>& sorted, double q) {
  if (sorted.empty()) return 0;
  const size_t i =
      std::min(sorted.size() - 1, static_cast<size_t>(q * sorted.size()));
  return sorted[i] / 1000.0;
}

int Main(const Options& o) {
  if (o.mode != "issue" && o.mode != "verify" && o.mode != "echo") {
    std::cerr << "rankd_load: --mode must be issue, verify or echo\n";
    return 2;
  }
  Run run;
  run.o = &o;
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  run.first_year = 1900 + utc.tm_year - 1;
  if (o.mode == "issue") {
    std::ifstream in(o.token_file);
    if (o.token_file.empty() || !(in >> run.token)) {
      std::cerr << "rankd_load: issue needs --token-file with the "
                   "national-admin token\n";
      return 2;
    }
  } else if (o.numbers_file.empty() ||
             !ReadNumbers(o.numbers_file, &run.numbers)) {
    if (o.numbers_file.empty())
      std::cerr << "rankd_load: " << o.mode << " needs --numbers-file\n";
    return 2;
  }
  // Every thread's connections are made before the clock starts: a
  // connection attempt that fails on a loaded machine is retried here
  // (gRPC backs off and tries again) instead of failing the run's first
  // calls fast with UNAVAILABLE, and the run measures calls, not
  // connecting.
  std::vector<std::vector<std::shared_ptr<grpc::Channel>>> channels(o.threads);
  for (auto& own : channels) {
    for (const std::string& server : o.servers) {
      own.push_back(Connect(server));
      if (!own.back()->WaitForConnected(std::chrono::system_clock::now() +
                                        std::chrono::seconds(30))) {
        std::cerr << "rankd_load: no connection to " << server
                  << " within 30 s\n";
        return 2;
      }
    }
  }
  if (o.mode == "issue" &&
      !RegisterPlayers(o, run.token, &run.player_ids, &run.player_names)) {
    return 1;
  }

  std::vector<ThreadResult> results(o.threads);
  std::vector<std::thread> threads;
  const Clock::time_point start = Clock::now();
  run.stop_at = start + std::chrono::duration_cast<Clock::duration>(
                            std::chrono::duration<double>(o.seconds));
  for (int t = 0; t < o.threads; ++t)
    threads.emplace_back(Worker, std::ref(run), &results[t],
                         std::cref(channels[t]));
  for (std::thread& t : threads) t.join();
  const double elapsed =
      std::chrono::duration<double>(Clock::now() - start).count();

  std::vector<int64_t> latencies;
  std::map<std::string, int64_t> errors;
  int64_t error_count = 0;
  for (const ThreadResult& r : results) {
    latencies.insert(latencies.end(), r.latencies_us.begin(),
                     r.latencies_us.end());
    for (const auto& [code, n] : r.errors) {
      errors[code] += n;
      error_count += n;
    }
  }
  std::sort(latencies.begin(), latencies.end());
  if (!o.numbers_out.empty()) {
    std::ofstream out(o.numbers_out);
    for (const ThreadResult& r : results) {
      for (const Issued& i : r.issued)
        out << i.number << '\t' << i.holder << '\n';
    }
    if (!out)
      std::cerr << "rankd_load: cannot write --numbers-out " << o.numbers_out
                << "\n";
  }

  const int64_t ok = static_cast<int64_t>(latencies.size());
  const double rate = elapsed > 0 ? ok / elapsed : 0;
  std::printf("mode %s, %zu server(s), %d thread(s), %.2f s\n", o.mode.c_str(),
              o.servers.size(), o.threads, elapsed);
  std::printf("ok %lld, errors %lld\n", static_cast<long long>(ok),
              static_cast<long long>(error_count));
  for (const auto& [code, n] : errors) {
    std::printf("  %s: %lld\n", code.c_str(), static_cast<long long>(n));
  }
  std::printf("%.1f ok/s; latency ms p50 %.2f, p99 %.2f, max %.2f\n", rate,
              PercentileMs(latencies, 0.50), PercentileMs(latencies, 0.99),
              latencies.empty() ? 0.0 : latencies.back() / 1000.0);
  std::printf(
      "RESULT mode=%s servers=%zu threads=%d ok=%lld errors=%lld "
      "ops_per_s=%.1f "
      "p50_ms=%.2f p99_ms=%.2f\n",
      o.mode.c_str(), o.servers.size(), o.threads, static_cast<long long>(ok),
      static_cast<long long>(error_count), rate, PercentileMs(latencies, 0.50),
      PercentileMs(latencies, 0.99));
  return ok > 0 && error_count == 0 ? 0 : 1;
}

}  // namespace
}  // namespace gorank::bench

int main(int argc, char** argv) {
  gorank::bench::Options o;
  CLI::App app{
      "rankd_load: issuance / public-verify load against running rankd "
      "instances"};
  app.add_option("--mode", o.mode, "issue | verify | echo")->required();
  std::string servers;
  app.add_option("--servers", servers, "HOST:PORT[,HOST:PORT...] (round-robin)")
      ->required();
  app.add_option("--token-file", o.token_file, "national-admin token (issue)");
  app.add_option("--numbers-file", o.numbers_file,
                 "NUMBER<TAB>HOLDER lines to verify (verify, echo)");
  app.add_option("--numbers-out", o.numbers_out,
                 "write issued NUMBER<TAB>HOLDER lines (issue)");
  app.add_option("--threads", o.threads, "client threads")
      ->check(CLI::Range(1, 256));
  app.add_option("--seconds", o.seconds, "run this long (unless --count)")
      ->check(CLI::Range(0.1, 3600.0));
  app.add_option("--count", o.count, "stop after this many calls")
      ->check(CLI::Range(int64_t{1}, int64_t{100000000}));
  app.add_option("--years", o.years,
                 "issue dates: 15 January of the N years before this one, "
                 "9000 calls a year, newest first (9999 serials an agency a "
                 "year)")
      ->check(CLI::Range(1, 25));
  app.add_option("--players", o.players, "players to register (issue)")
      ->check(CLI::Range(1, 1000));
  app.add_flag("--promote", o.promote,
               "issue: every call raises its holder one kyu (10k on the first "
               "pass over the players, 1k on the 10th; keep a run under 10 "
               "passes)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  for (absl::string_view s : absl::StrSplit(servers, ',', absl::SkipEmpty())) {
    o.servers.emplace_back(s);
  }
  if (o.servers.empty()) {
    std::cerr << "rankd_load: --servers is empty\n";
    return 2;
  }
  return gorank::bench::Main(o);
}
