// public_index_fill: fills an SQLite registry for the public-index memory
// and verify benchmark (tests/bench/public_index_rss.sh drives it).
//
//   public_index_fill DIR [CERTIFICATES] [PLAYERS]
//                                   (defaults 1000000 and 250000)
//
// Starts an in-process rankd on DIR/rankd.db (audit key and admin token
// beside it, public index off), then stores with plain SQL in one
// transaction each: PLAYERS players ("棋手<i>", Latin "Player <i>", spread
// over the 34 region agencies) and CERTIFICATES certificates spread over
// those agencies and the years 2000..2025, serials from 1 up, holder i mod
// PLAYERS, every 97th revoked and every 89th under notice. Writes
// DIR/numbers.tsv ("NUMBER<TAB>HOLDER" of 20,000 certificates in force) for
// rankd_load --mode verify, then stops rankd (which signs its checkpoint, so
// the next rankd on DIR starts clean).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "services/common/clock.h"
#include "services/common/status_macros.h"
#include "services/server/rankd_server.h"
#include "spdlog/spdlog.h"
#include "storage/database.h"

namespace gorank {
namespace {

constexpr const char* kAgencies[] = {
    "110", "120", "130", "140", "150", "210", "220", "230", "310",
    "320", "330", "340", "350", "360", "370", "410", "420", "430",
    "440", "450", "460", "500", "510", "520", "530", "540", "610",
    "620", "630", "640", "650", "710", "810", "820"};
constexpr int kAgencyCount = sizeof kAgencies / sizeof kAgencies[0];
constexpr int kYears = 26;  // 2000..2025

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since)
      .count();
}

int Main(const std::string& dir, int certificates, int players) {
  if (certificates > kAgencyCount * kYears * 9999) {
    std::fprintf(stderr, "at most %d certificates\n",
                 kAgencyCount * kYears * 9999);
    return 2;
  }
  spdlog::set_level(spdlog::level::warn);
  SystemClock clock;
  server::ServerConfig config;
  config.db_path = dir + "/rankd.db";
  config.admin_token_file = dir + "/admin.token";
  config.audit_key_file = dir + "/audit_ed25519.pem";
  config.listen = "127.0.0.1:0";
  config.public_index = "off";
  auto started = server::RankdServer::Start(config, &clock);
  if (!started.ok()) {
    std::fprintf(stderr, "rankd did not start: %s\n",
                 started.status().ToString().c_str());
    return 1;
  }
  std::unique_ptr<server::RankdServer> server = std::move(*started);
  const int64_t now = clock.NowSeconds();

  auto t0 = std::chrono::steady_clock::now();
  absl::Status s =
      server->database()->Write([&](storage::Connection& c) -> absl::Status {
        static constexpr char kInsert[] =
            "INSERT INTO players(id, name, latin_name, gender, birth_date, "
            "agency_prefix, rank_ordinal, created_unix, updated_unix) "
            "VALUES(?1, ?2, ?3, 1, '1990-05-01', ?4, ?5, ?6, ?6)";
        for (int i = 1; i <= players; ++i) {
          auto st = c.Prepare(kInsert);
          if (!st.ok()) return st.status();
          (*st)
              ->Bind(1, int64_t{i})
              .Bind(2, "棋手" + std::to_string(i))
              .Bind(3, "Player " + std::to_string(i))
              .Bind(4, std::string(kAgencies[i % kAgencyCount]))
              .Bind(5, int64_t{i % 9 - 4})  // 5k..4d
              .Bind(6, now);
          GORANK_RETURN_IF_ERROR((*st)->Run());
        }
        return absl::OkStatus();
      });
  if (!s.ok()) {
    std::fprintf(stderr, "players: %s\n", s.ToString().c_str());
    return 1;
  }
  const double players_s = Seconds(t0);

  std::ofstream numbers(dir + "/numbers.tsv");
  t0 = std::chrono::steady_clock::now();
  s = server->database()->Write([&](storage::Connection& c) -> absl::Status {
    static constexpr char kInsert[] =
        "INSERT INTO certificates(number, prefix, year, serial, player_id, "
        "grade_ordinal, issue_date, basis, basis_reference, issued_by, "
        "issued_unix, notice_until_unix, rank_applied, revoked_unix) "
        "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, 1, 'bench', 'bench', ?8, ?9, ?10, "
        "?11)";
    int written = 0;
    for (int i = 0; i < certificates; ++i) {
      const int agency = i % kAgencyCount;
      const int year = 2000 + (i / kAgencyCount) % kYears;
      const int serial = i / (kAgencyCount * kYears) + 1;
      char number[16], date[16];
      std::snprintf(number, sizeof number, "%s%02d%04d", kAgencies[agency],
                    year % 100, serial);
      std::snprintf(date, sizeof date, "%04d-%02d-%02d", year, 1 + i % 12,
                    1 + i % 28);
      const int64_t holder = i % players + 1;
      const bool revoked = i % 97 == 0;
      const bool notice = !revoked && i % 89 == 0;
      auto st = c.Prepare(kInsert);
      if (!st.ok()) return st.status();
      (*st)
          ->Bind(1, std::string(number))
          .Bind(2, std::string(kAgencies[agency]))
          .Bind(3, int64_t{year})
          .Bind(4, int64_t{serial})
          .Bind(5, holder)
          .Bind(6, int64_t{i % 12 - 9})  // 10k..3d
          .Bind(7, std::string(date))
          .Bind(8, now)
          .Bind(9, notice ? now + 7 * 86400 : int64_t{0})
          .Bind(10, int64_t{notice ? 0 : 1})
          .Bind(11, revoked ? now : int64_t{0});
      GORANK_RETURN_IF_ERROR((*st)->Run());
      if (!revoked && !notice && written < 20000 && i % 37 == 0) {
        numbers << number << "\t棋手" << holder << "\n";
        ++written;
      }
    }
    return absl::OkStatus();
  });
  if (!s.ok()) {
    std::fprintf(stderr, "certificates: %s\n", s.ToString().c_str());
    return 1;
  }
  std::printf("filled %s: %d players in %.1f s, %d certificates in %.1f s\n",
              config.db_path.c_str(), players, players_s, certificates,
              Seconds(t0));
  server->Shutdown();
  return 0;
}

}  // namespace
}  // namespace gorank

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr,
                 "usage: public_index_fill DIR [CERTIFICATES] [PLAYERS]\n");
    return 2;
  }
  const int certificates = argc > 2 ? std::atoi(argv[2]) : 1000000;
  const int players = argc > 3 ? std::atoi(argv[3]) : 250000;
  if (certificates < 1 || players < 1) return 2;
  return gorank::Main(argv[1], certificates, players);
}
