// One page of the public rating list (/ratings, 50 rows; issue #21: "a
// 50,000-player rating list renders a page in <= 20 ms") through real HTTP
// on 127.0.0.1 against an in-process rankd on a temp SQLite file (limits
// off), whose registry and rating table hold 50,000 rated players: the
// players inserted by SQL in one transaction, the ratings (with 1 to 3
// rated events each) stored as one recompute through the SQL repository.
// One kept-alive connection; each figure is the time of one whole page
// (ListRatings, ListRatingSnapshots, ListAgencies and the rendering).
//   build/tests/web/ratings_page_bench [--benchmark_min_time=2]
// With GORANK_BENCH_READER_CACHE_MB=N: one reader connection whose SQLite
// page cache is N MB instead of the default 2 MB (what a larger cache would
// change for the filtered pages, which read far into the table).
#include <httplib.h>

#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "gorank/v1/ratings.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "services/common/clock.h"
#include "services/ratings/rating_repository.h"
#include "services/server/rankd_server.h"
#include "spdlog/spdlog.h"
#include "storage/database.h"
#include "storage/sql_rating_repository.h"
#include "tests/testing/temp_dir.h"

namespace gorank {
namespace {

constexpr int kPlayers = 50000;
constexpr int kEvents = 24;  // every 15 days over the last year
const char* const kAgencies[] = {"110", "120", "130", "310", "320",
                                 "330", "440", "510", "610", "650"};

constexpr char kMaxPlayerId[] = "SELECT coalesce(max(id), 0) FROM players";
constexpr char kInsertPlayer[] =
    "INSERT INTO players(id, name, latin_name, gender, agency_prefix, "
    "rank_ordinal, created_unix, updated_unix) "
    "VALUES(?1, ?2, ?3, 1, ?4, ?5, 1735660800, 1735660800)";

struct Served {
  testing::TempDir dir;
  std::unique_ptr<server::RankdServer> server;
  std::string deep_token;  // the page_token of place 25,001
};

void Die(const absl::Status& s, const char* what) {
  if (s.ok()) return;
  std::cerr << what << ": " << s << "\n";
  std::abort();
}

// Players base+1 .. base+kPlayers (after any rankd made itself): player
// base+i of agency kAgencies[i % 10], a Go rank from 20k to 7d (none for
// every 50th). Returns base.
int64_t SeedPlayers(storage::Database& db) {
  int64_t base = 0;
  Die(db.Write([&base](storage::Connection& c) -> absl::Status {
    {
      auto max = c.Prepare(kMaxPlayerId);
      if (!max.ok()) return max.status();
      absl::StatusOr<bool> row = (*max)->Step();
      if (!row.ok()) return row.status();
      base = (*max)->Int(0);
    }
    for (int i = 1; i <= kPlayers; ++i) {
      // Prepared again for every row (cached: one statement), fresh.
      auto st = c.Prepare(kInsertPlayer);
      if (!st.ok()) return st.status();
      (*st)
          ->Bind(1, base + i)
          .Bind(2, "棋手" + std::to_string(i))
          .Bind(3, "Player " + std::to_string(i))
          .Bind(4, std::string(kAgencies[i % 10]));
      if (i % 50 == 0) {
        (*st)->BindNull(5);
      } else {
        (*st)->Bind(5, int64_t{-19 + (i * 31) % 27});
      }
      if (absl::Status s = (*st)->Run(); !s.ok()) return s;
    }
    return absl::OkStatus();
  }),
      "seeding the players");
  return base;
}

// A GoR spread over 100..2800 with ties; every 40th player a pro rating.
void SeedRatings(storage::Database& db, int64_t base) {
  ratings::RatingSnapshot s;
  const Date today = SystemClock::Get()->Today();
  for (int e = 0; e < kEvents; ++e) {
    s.events.push_back(ratings::EventKey{today.AddDays(-15 * (kEvents - e)), 1,
                                         "e" + std::to_string(e)});
  }
  for (int i = 1; i <= kPlayers; ++i) {
    ratings::PlayerRating r;
    r.player = ratings::PlayerId{base + i};
    r.gor = 100.0 + ((i * 7919) % 27000) / 10.0;
    const int events = 1 + i % 3;
    r.rated_games = 5 * events;
    r.rated_events = events;
    if (i % 40 == 0) {
      r.pro_elo = 2000.0 + (i % 997);
      r.pro_games = 3;
    }
    s.players.push_back(r);
    for (int k = 0; k < events; ++k) {
      ratings::RatingChange c;
      c.event = s.events[static_cast<size_t>((i + k * 7) % kEvents)];
      c.gor_before = r.gor - 5;
      c.gor_after = r.gor;
      c.games = 5;
      s.history.push_back({r.player, c});
    }
  }
  s.table_sha256 = "bench";
  storage::SqlRatingRepository repo(&db);
  Die(repo.ReplaceAll(s, ChangeRecord{1735660800, "bench", "ratings.recompute",
                                      "ratings", "", "{}"}),
      "seeding the ratings");
}

Served& Server() {
  static Served* served = [] {
    spdlog::set_level(spdlog::level::warn);
    auto* s = new Served;
    server::ServerConfig config;
    config.db_path = s->dir.File("rankd.db");
    config.listen = "127.0.0.1:0";
    config.http_listen = "127.0.0.1:0";
    config.http_rate = 0;
    config.public_rate = 0;
    const char* cache_mb = std::getenv("GORANK_BENCH_READER_CACHE_MB");
    if (cache_mb != nullptr) config.reader_connections = 1;
    auto started = server::RankdServer::Start(config);
    Die(started.status(), "starting rankd");
    s->server = std::move(*started);
    const int64_t base = SeedPlayers(*s->server->database());
    SeedRatings(*s->server->database(), base);
    if (cache_mb != nullptr) {
      const std::string pragma =
          "PRAGMA cache_size=-" + std::to_string(std::atoi(cache_mb) * 1024);
      Die(s->server->database()->Read(
              [&](storage::Connection& c) { return c.Exec(pragma); }),
          "setting the reader's cache");
    }
    // The token of place 25,001, walked to through gRPC.
    auto stub = v1::RatingService::NewStub(s->server->InProcessChannel());
    v1::ListRatingsRequest req;
    req.set_page_size(500);
    for (int page = 0; page < 50; ++page) {
      grpc::ClientContext ctx;
      v1::ListRatingsResponse resp;
      const grpc::Status st = stub->ListRatings(&ctx, req, &resp);
      if (!st.ok()) {
        std::cerr << "ListRatings: " << st.error_message() << "\n";
        std::abort();
      }
      req.set_page_token(resp.next_page_token());
    }
    s->deep_token = req.page_token();
    return s;
  }();
  return *served;
}

void Fetch(benchmark::State& state, const std::string& path) {
  Served& s = Server();
  httplib::Client client("127.0.0.1", s.server->http_port());
  client.set_keep_alive(true);
  client.set_read_timeout(60);
  size_t rows = 0;
  for (auto _ : state) {
    auto r = client.Get(path.c_str());
    if (!r || r->status != 200) {
      state.SkipWithError(("GET " + path + " failed").c_str());
      break;
    }
    rows = 0;
    for (size_t at = r->body.find("class=\"rating-row\"");
         at != std::string::npos;
         at = r->body.find("class=\"rating-row\"", at + 1)) {
      ++rows;
    }
    benchmark::DoNotOptimize(r->body.data());
  }
  state.counters["rows"] = static_cast<double>(rows);
}

// The first page of the whole GoR list.
void BM_RatingsFirstPage(benchmark::State& state) { Fetch(state, "/ratings"); }
BENCHMARK(BM_RatingsFirstPage)->Unit(benchmark::kMillisecond)->UseRealTime();

// Places 25,001-25,050 (keyset: no offset to skip).
void BM_RatingsDeepPage(benchmark::State& state) {
  Fetch(state, "/ratings?page_token=" + Server().deep_token);
}
BENCHMARK(BM_RatingsDeepPage)->Unit(benchmark::kMillisecond)->UseRealTime();

// One agency, a rank range and activity: a tenth of the players, fewer
// active.
void BM_RatingsFilteredPage(benchmark::State& state) {
  Fetch(state, "/ratings?agency=110&min_rank=5k&max_rank=5d&active=6");
}
BENCHMARK(BM_RatingsFilteredPage)->Unit(benchmark::kMillisecond)->UseRealTime();

// A filter few rows pass (7d players of one agency, active in 3 months):
// the scan reads far into the table.
void BM_RatingsRareFilterPage(benchmark::State& state) {
  Fetch(state, "/ratings?agency=650&min_rank=7d&active=3");
}
BENCHMARK(BM_RatingsRareFilterPage)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// The worst case: a rank filter (no index holds the rank) that no player
// passes (no professional ranks are seeded): the whole table is read.
void BM_RatingsEmptyRankFilterPage(benchmark::State& state) {
  Fetch(state, "/ratings?min_rank=1p");
}
BENCHMARK(BM_RatingsEmptyRankFilterPage)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// An agency no player is in: the agency's list is empty, nothing else read.
void BM_RatingsEmptyAgencyPage(benchmark::State& state) {
  Fetch(state, "/ratings?agency=710");
}
BENCHMARK(BM_RatingsEmptyAgencyPage)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_RatingsProPage(benchmark::State& state) {
  Fetch(state, "/ratings?list=pro");
}
BENCHMARK(BM_RatingsProPage)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace gorank

BENCHMARK_MAIN();
