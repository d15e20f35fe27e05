// Benchmark (issue #17): importing historic certificates into an empty
// registry through a real gRPC channel to an in-process rankd, as
// `rankctl cert import` streams them (1,000 rows a message).
//
//   cert_import_bench [ROWS]              (default 50000; SQLite temp file)
//   GORANK_TEST_PG_URL_FILE=F cert_import_bench [ROWS]
//                                         (a fresh schema of the PostgreSQL
//                                          server whose URL is in F, e.g.
//                                          from tests/pg/pg_server.sh)
//
// The ROWS holders are registered first with one SQL transaction (the
// bench measures the certificate import, not the player import). Each row
// names its holder by resident ID; certificates are spread over the 34
// region agencies and the years 2000..2024 (kyu to 3d), with every 25th a
// 4d..6d of the national body (notice long over), so nearly every row
// raises its holder's rank. Prints the seconds of: the dry run, the import
// (stored, one transaction), and the re-import of the same rows (all
// matched). Goal (README "Measured speed"): 50,000 rows well under 20 s on
// SQLite on the 2-core machine.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "gorank/v1/certificates.grpc.pb.h"
#include "grpcpp/grpcpp.h"
#include "services/common/clock.h"
#include "services/registry/resident_id.h"
#include "services/server/rankd_server.h"
#include "spdlog/spdlog.h"
#include "storage/database.h"
#include "tests/testing/temp_dir.h"
#include "tests/testing/test_database.h"

namespace gorank {
namespace {

constexpr const char* kAgencies[] = {
    "110", "120", "130", "140", "150", "210", "220", "230", "310",
    "320", "330", "340", "350", "360", "370", "410", "420", "430",
    "440", "450", "460", "500", "510", "520", "530", "540", "610",
    "620", "630", "640", "650", "710", "810", "820"};
constexpr int kAgencyCount = sizeof kAgencies / sizeof kAgencies[0];

std::string ResidentId(int i) {
  char first17[18];
  std::snprintf(first17, sizeof first17, "110101%04d0101%03d", 1950 + i % 50,
                i / 50 % 1000);
  // 50 years x 1000 sequences cover 50,000 players; beyond, vary the address.
  std::string s(first17);
  if (i >= 50000) s[5] = static_cast<char>('1' + (i / 50000) % 9);
  return s + registry::ResidentIdCheckChar(s);
}

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since)
      .count();
}

}  // namespace

int Main(int rows) {
  spdlog::set_level(spdlog::level::warn);
  testing::TempDir dir;
  FakeClock clock;
  clock.SetDate(Date{2025, 12, 10});
  server::ServerConfig config;
  config.db_path = testing::TestDatabaseUrl(dir);
  config.admin_token_file = dir.File("admin.token");
  config.audit_key_file = dir.File("audit_ed25519.pem");
  config.listen = "127.0.0.1:0";
  auto started = server::RankdServer::Start(config, &clock);
  if (!started.ok()) {
    std::fprintf(stderr, "rankd did not start: %s\n",
                 started.status().ToString().c_str());
    return 1;
  }
  std::unique_ptr<server::RankdServer> server = std::move(*started);
  const std::string engine =
      testing::TestOnPostgres() ? "PostgreSQL" : "SQLite";

  // Holders: one transaction of plain INSERTs.
  auto t0 = std::chrono::steady_clock::now();
  absl::Status seeded =
      server->database()->Write([&](storage::Connection& c) -> absl::Status {
        static constexpr char kInsert[] =
            "INSERT INTO players(id, name, latin_name, gender, birth_date, "
            "agency_prefix, "
            "resident_id, rank_ordinal, created_unix, updated_unix) "
            "VALUES(?1, ?2, '', 1, ?3, ?4, ?5, NULL, ?6, ?6)";
        for (int i = 0; i < rows; ++i) {
          auto st = c.Prepare(kInsert);
          if (!st.ok()) return st.status();
          const std::string rid = ResidentId(i);
          const std::string birth = rid.substr(6, 4) + "-" + rid.substr(10, 2) +
                                    "-" + rid.substr(12, 2);
          (*st)
              ->Bind(1, int64_t{i + 1})
              .Bind(2, "棋手" + std::to_string(i + 1))
              .Bind(3, birth)
              .Bind(4, std::string(kAgencies[i % kAgencyCount]))
              .Bind(5, rid)
              .Bind(6, clock.NowSeconds());
          absl::Status s = (*st)->Run();
          if (!s.ok()) return s;
        }
        return absl::OkStatus();
      });
  if (!seeded.ok()) {
    std::fprintf(stderr, "seeding players failed: %s\n",
                 seeded.ToString().c_str());
    return 1;
  }
  const double seed_s = Seconds(t0);

  // The file's rows.
  static const char* kGrades[] = {"10k", "8k", "5k", "3k",
                                  "1k",  "1d", "2d", "3d"};
  static const char* kHigh[] = {"4d", "5d", "6d"};
  std::vector<v1::CertificateImportRow> file;
  std::vector<int> serials(kAgencyCount * 25, 0);
  std::vector<int> national(25, 0);
  for (int i = 0; i < rows; ++i) {
    v1::CertificateImportRow r;
    r.set_line(i + 2);
    r.set_holder(ResidentId(i));
    const int year = 2000 + (i / kAgencyCount) % 25;
    char number[16];
    if (i % 25 == 24) {
      std::snprintf(number, sizeof number, "000%02d%04d", year % 100,
                    ++national[year - 2000]);
      r.set_issuing_agency("000");
      r.set_grade(kHigh[i % 3]);
    } else {
      const int a = i % kAgencyCount;
      std::snprintf(number, sizeof number, "%s%02d%04d", kAgencies[a],
                    year % 100, ++serials[a * 25 + (year - 2000)]);
      r.set_issuing_agency(kAgencies[a]);
      r.set_grade(kGrades[i % 8]);
    }
    r.set_number(number);
    char date[16];
    std::snprintf(date, sizeof date, "%04d-%02d-%02d", year, 1 + i % 12,
                  1 + i % 28);
    r.set_issue_date(date);
    file.push_back(std::move(r));
  }

  auto channel =
      grpc::CreateChannel("127.0.0.1:" + std::to_string(server->port()),
                          grpc::InsecureChannelCredentials());
  auto stub = v1::CertificateService::NewStub(channel);
  auto run = [&](bool dry_run, v1::ImportSummary* out) -> double {
    grpc::ClientContext ctx;
    ctx.AddMetadata("authorization", "Bearer " + server->bootstrap_secret());
    ctx.set_deadline(std::chrono::system_clock::now() +
                     std::chrono::minutes(10));
    v1::ImportCertificatesResponse resp;
    const auto start = std::chrono::steady_clock::now();
    auto writer = stub->ImportCertificates(&ctx, &resp);
    for (int begin = 0; begin < rows; begin += 1000) {
      v1::ImportCertificatesRequest m;
      if (begin == 0) {
        m.set_dry_run(dry_run);
        m.set_file_name("history.csv");
      }
      for (int i = begin; i < std::min(rows, begin + 1000); ++i)
        *m.add_rows() = file[i];
      if (!writer->Write(m)) break;
    }
    writer->WritesDone();
    const grpc::Status s = writer->Finish();
    const double took = Seconds(start);
    if (!s.ok()) {
      std::fprintf(stderr, "import failed: %s\n", s.error_message().c_str());
      std::exit(1);
    }
    *out = resp.summary();
    return took;
  };
  v1::ImportSummary dry, stored, again;
  const double dry_s = run(true, &dry);
  const double store_s = run(false, &stored);
  const double again_s = run(false, &again);
  if (dry.refused() != 0 || stored.added() != rows || !stored.stored() ||
      again.matched() != rows) {
    std::fprintf(
        stderr,
        "unexpected summary: dry refused %d (%s), added %d, matched %d\n",
        dry.refused(),
        dry.refusals_size() ? dry.refusals(0).reason().c_str() : "",
        stored.added(), again.matched());
    return 1;
  }
  std::printf("cert import, %d rows, %s\n", rows, engine.c_str());
  std::printf("  holders seeded (one SQL transaction)   %7.2f s\n", seed_s);
  std::printf("  dry run (checked, nothing stored)      %7.2f s\n", dry_s);
  std::printf(
      "  import (stored, one transaction)       %7.2f s  (%.0f rows/s)\n",
      store_s, rows / store_s);
  std::printf("  re-import (every row matched)          %7.2f s\n", again_s);
  server->Shutdown();
  return 0;
}

}  // namespace gorank

int main(int argc, char** argv) {
  const int rows = argc > 1 ? std::atoi(argv[1]) : 50000;
  if (rows < 1 || rows > 200000) {
    std::fprintf(stderr, "usage: cert_import_bench [ROWS 1..200000]\n");
    return 2;
  }
  return gorank::Main(rows);
}
