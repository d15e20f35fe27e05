// ImportPlayers through a real gRPC channel (in-process rankd on SQLite, and
// once more on PostgreSQL as pg.PlayerImportTest.*): adding, matching on a
// second run, every refusal kind with its line and column, dry runs and
// atomicity, skip_bad, operator scoping, the IMPORT rank-history entry and
// the audit entries, and external ids on RegisterPlayer.
#include <string>
#include <utility>
#include <vector>

#include "gorank/v1/registry.grpc.pb.h"
#include "gtest/gtest.h"
#include "services/registry/resident_id.h"
#include "tests/testing/in_process_server.h"

// Rows are written with designated initializers naming only the columns
// they fill; the others are empty on purpose.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace gorank::integration {
namespace {

using testing::InProcessServer;

using grpc::StatusCode;

const std::string kSha(64, 'a');

// A valid resident ID of someone born on `birth` (YYYYMMDD), number `seq`.
std::string ResidentId(const std::string& birth, int seq) {
  std::string first17 = "110105" + birth + std::to_string(100 + seq % 900);
  return first17 + registry::ResidentIdCheckChar(first17);
}

struct Row {
  std::string name, agency = "110", resident_id, birth_date, gender, rank,
                    rank_date, external_id, latin_name;
};

v1::PlayerImportRow ToProto(const Row& r, int line) {
  v1::PlayerImportRow p;
  p.set_line(line);
  p.set_name(r.name);
  p.set_latin_name(r.latin_name);
  p.set_gender(r.gender);
  p.set_birth_date(r.birth_date);
  p.set_resident_id(r.resident_id);
  p.set_agency(r.agency);
  p.set_rank(r.rank);
  p.set_rank_date(r.rank_date);
  p.set_external_id(r.external_id);
  return p;
}

struct Answer {
  grpc::Status status;
  v1::ImportSummary summary;
};

class PlayerImportTest : public ::testing::Test {
 protected:
  PlayerImportTest()
      : players_(v1::PlayerRegistry::NewStub(server_.channel())),
        agencies_(v1::AgencyService::NewStub(server_.channel())) {}

  // Sends `messages` as they are on one stream.
  Answer Send(const std::string& bearer,
              const std::vector<v1::ImportPlayersRequest>& messages) {
    auto ctx = InProcessServer::Context(bearer);
    v1::ImportPlayersResponse resp;
    auto writer = players_->ImportPlayers(ctx.get(), &resp);
    for (const auto& m : messages) {
      if (!writer->Write(m)) break;
    }
    writer->WritesDone();
    Answer a;
    a.status = writer->Finish();
    a.summary = resp.summary();
    return a;
  }

  // The rows (lines 2, 3, ...) in messages of 1,000, options in the first.
  Answer Import(const std::string& bearer, const std::vector<Row>& rows,
                bool dry_run = false, bool skip_bad = false) {
    std::vector<v1::ImportPlayersRequest> messages(1);
    messages[0].set_dry_run(dry_run);
    messages[0].set_skip_bad(skip_bad);
    messages[0].set_file_name("players.csv");
    messages[0].set_file_sha256(kSha);
    for (size_t i = 0; i < rows.size(); ++i) {
      if (messages.back().rows_size() == 1000) messages.emplace_back();
      *messages.back().add_rows() = ToProto(rows[i], static_cast<int>(i) + 2);
    }
    return Send(bearer, messages);
  }

  v1::Player Get(const std::string& bearer, int64_t id) {
    v1::GetPlayerRequest r;
    r.set_player_id(id);
    v1::GetPlayerResponse resp;
    EXPECT_TRUE(
        players_->GetPlayer(InProcessServer::Context(bearer).get(), r, &resp)
            .ok());
    return resp.player();
  }

  std::vector<v1::RankHistoryEntry> History(int64_t id) {
    v1::GetRankHistoryRequest r;
    r.set_player_id(id);
    v1::GetRankHistoryResponse resp;
    EXPECT_TRUE(players_
                    ->GetRankHistory(
                        InProcessServer::Context(server_.admin).get(), r, &resp)
                    .ok());
    return {resp.entries().begin(), resp.entries().end()};
  }

  testing::DatabaseSnapshot Snap() {
    auto s = server_.Snapshot();
    EXPECT_TRUE(s.ok()) << s.status();
    return s.ok() ? *s : testing::DatabaseSnapshot{};
  }

  std::vector<ChangeRecord> Audit() {
    auto log = testing::ReadAuditLog(server_.server()->database());
    EXPECT_TRUE(log.ok()) << log.status();
    return log.ok() ? *log : std::vector<ChangeRecord>{};
  }

  InProcessServer server_;
  std::unique_ptr<v1::PlayerRegistry::Stub> players_;
  std::unique_ptr<v1::AgencyService::Stub> agencies_;
};

// The refusals of `s` for `line` as "column: reason" lines.
std::string RefusalsOf(const v1::ImportSummary& s, int line) {
  std::string out;
  for (const auto& r : s.refusals()) {
    if (r.line() == line) out += r.column() + ": " + r.reason() + "\n";
  }
  return out;
}

TEST_F(PlayerImportTest, AddsPlayersWithAnImportHistoryEntryAndOneAuditEntry) {
  const size_t audit_before = Audit().size();
  const std::string rid = ResidentId("20080110", 1);
  Answer a = Import(server_.admin, {{.name = "张三",
                                     .resident_id = rid,
                                     .gender = "男",
                                     .rank = "业余2段",
                                     .rank_date = "2019-07-01",
                                     .external_id = "BJ-0001",
                                     .latin_name = "Zhang San"},
                                    {.name = "李四",
                                     .agency = "130",
                                     .birth_date = "2010/3/5",
                                     .gender = "F",
                                     .rank = "5k"},
                                    {.name = "王五"}});
  ASSERT_TRUE(a.status.ok()) << a.status.error_message();
  EXPECT_EQ(a.summary.rows(), 3);
  EXPECT_EQ(a.summary.added(), 3);
  EXPECT_EQ(a.summary.matched(), 0);
  EXPECT_EQ(a.summary.refused(), 0);
  EXPECT_TRUE(a.summary.stored());
  ASSERT_EQ(a.summary.outcomes_size(), 3);
  const int64_t zhang = a.summary.outcomes(0).player_id();
  const int64_t li = a.summary.outcomes(1).player_id();
  EXPECT_GT(zhang, 0);
  EXPECT_EQ(a.summary.outcomes(0).line(), 2);
  EXPECT_FALSE(a.summary.outcomes(0).matched());

  const v1::Player p = Get(server_.admin, zhang);
  EXPECT_EQ(p.name(), "张三");
  EXPECT_EQ(p.latin_name(), "Zhang San");
  EXPECT_EQ(p.gender(), v1::GENDER_MALE);
  EXPECT_EQ(p.birth_date().year(), 2008);  // from the resident ID
  EXPECT_EQ(p.resident_id(), rid);
  EXPECT_EQ(p.rank().notation(), "2d");
  EXPECT_EQ(p.external_id(), "BJ-0001");
  // The external id, like the resident ID, only for the player's agency.
  EXPECT_EQ(Get(server_.op110, zhang).external_id(), "BJ-0001");
  EXPECT_EQ(Get(server_.op130, zhang).external_id(), "");
  EXPECT_EQ(Get(server_.op130, li).gender(), v1::GENDER_FEMALE);
  EXPECT_EQ(Get(server_.op130, li).birth_date().month(), 3);

  const auto h = History(zhang);
  ASSERT_EQ(h.size(), 1u);
  EXPECT_EQ(h[0].reason(), v1::RANK_CHANGE_REASON_IMPORT);
  EXPECT_EQ(h[0].basis(), "import players.csv sha256:" + kSha + " line 2");
  EXPECT_EQ(h[0].effective_date().year(), 2019);
  EXPECT_EQ(h[0].to_rank().notation(), "2d");
  EXPECT_FALSE(h[0].has_from_rank());
  const auto h2 = History(li);
  ASSERT_EQ(h2.size(), 1u);
  EXPECT_EQ(h2[0].effective_date().year(), 2024);  // default: the import day
  EXPECT_EQ(h2[0].effective_date().month(), 6);
  EXPECT_TRUE(
      History(a.summary.outcomes(2).player_id()).empty());  // no rank, no entry

  const std::vector<ChangeRecord> audit = Audit();
  ASSERT_EQ(audit.size(), audit_before + 1);
  EXPECT_EQ(audit.back().action, "player.import");
  EXPECT_EQ(audit.back().actor,
            "national/token:" + std::to_string(server_.admin_token_id));
  EXPECT_NE(audit.back().after.find("players.csv"), std::string::npos);
  EXPECT_NE(audit.back().after.find("BJ-0001"), std::string::npos);
  EXPECT_EQ(audit.back().after.find(rid),
            std::string::npos);  // never the resident ID
}

TEST_F(PlayerImportTest, ASecondRunMatchesEveryRowAndChangesNothing) {
  const std::vector<Row> rows = {
      {.name = "张三", .resident_id = ResidentId("20080110", 1), .rank = "2d"},
      {.name = "李四", .rank = "1k", .external_id = "BJ-2"},
      {.name = "王五", .birth_date = "2001-01-01"}};
  Answer first = Import(server_.admin, rows);
  ASSERT_TRUE(first.status.ok()) << first.status.error_message();
  ASSERT_EQ(first.summary.added(), 3);
  const auto before = Snap();
  Answer again = Import(server_.admin, rows);
  ASSERT_TRUE(again.status.ok()) << again.status.error_message();
  EXPECT_EQ(again.summary.added(),
            1);  // 王五 has neither ID: added again, flagged
  EXPECT_EQ(again.summary.matched(), 2);
  EXPECT_NE(
      again.summary.outcomes(2).note().find("possible duplicate: player 3"),
      std::string::npos)
      << again.summary.outcomes(2).note();

  // Without the row that has no ID, a re-run changes nothing at all.
  const auto before2 = Snap();
  Answer third = Import(server_.admin, {rows[0], rows[1]});
  ASSERT_TRUE(third.status.ok());
  EXPECT_EQ(third.summary.added(), 0);
  EXPECT_EQ(third.summary.matched(), 2);
  EXPECT_TRUE(third.summary.stored());
  EXPECT_EQ(third.summary.outcomes(0).player_id(),
            first.summary.outcomes(0).player_id());
  EXPECT_TRUE(third.summary.outcomes(0).matched());
  EXPECT_EQ(third.summary.outcomes(1).player_id(),
            first.summary.outcomes(1).player_id());
  EXPECT_EQ(Snap(), before2);
  (void)before;
}

TEST_F(PlayerImportTest,
       EveryRefusalKindNamesItsLineAndColumnAndNothingIsStored) {
  v1::SuspendAgencyRequest suspend;
  suspend.set_prefix("120");
  suspend.set_reason("audit pending");
  v1::SuspendAgencyResponse sr;
  ASSERT_TRUE(agencies_
                  ->SuspendAgency(InProcessServer::Context(server_.admin).get(),
                                  suspend, &sr)
                  .ok());
  const std::string rid = ResidentId("20080110", 7);
  std::string bad_check = ResidentId("20080110", 8);
  bad_check.back() = bad_check.back() == '1' ? '2' : '1';
  struct Case {
    Row row;
    std::string column, says;
  };
  const std::vector<Case> cases = {
      {{.name = "好人", .resident_id = rid, .external_id = "X1"},
       "",
       ""},  // line 2: fine
      {{.name = ""}, "name", "name is empty"},
      {{.name = "甲", .agency = ""}, "agency", "agency is empty"},
      {{.name = "乙", .agency = "11"}, "agency", "not a three-digit prefix"},
      {{.name = "丙", .agency = "999"}, "agency", "agency 999 does not exist"},
      {{.name = "丁", .agency = "120"},
       "agency",
       "agency 120 is suspended (audit pending)"},
      {{.name = "戊", .gender = "x"},
       "gender",
       "gender 'x' is not one of male, female"},
      {{.name = "己", .birth_date = "2008-13-01"},
       "birth_date",
       "write YYYY-MM-DD"},
      {{.name = "庚", .birth_date = "2030-01-01"},
       "birth_date",
       "between 1900-01-01 and today"},
      {{.name = "辛", .resident_id = bad_check},
       "resident_id",
       "18-character resident ID"},
      {{.name = "壬",
        .resident_id = ResidentId("20080110", 9),
        .birth_date = "2008-01-11"},
       "birth_date",
       "differs from the birth date in the resident ID (2008-01-10)"},
      {{.name = "癸", .rank = "12 dan"},
       "rank",
       "rank '12 dan' is not a Go rank"},
      {{.name = "子", .rank = "3d", .rank_date = "yesterday"},
       "rank_date",
       "write YYYY-MM-DD"},
      {{.name = "丑", .rank_date = "2020-01-01"},
       "rank_date",
       "rank_date without a rank"},
      {{.name = "寅", .rank = "3d", .rank_date = "2025-01-01"},
       "rank_date",
       "between 1900-01-01 and today"},
      {{.name = "卯", .external_id = std::string(65, 'e')},
       "external_id",
       "external_id is 65 bytes; the limit is 64 bytes"},
      {{.name = "辰", .resident_id = rid},
       "resident_id",
       "the same resident ID is on line 2"},
      {{.name = "巳", .external_id = "X1"},
       "external_id",
       "the same external_id of agency 110 is on line 2"},
      {{.name = std::string(121, 'n')},
       "name",
       "name is longer than 120 bytes"},
  };
  std::vector<Row> rows;
  for (const Case& c : cases) rows.push_back(c.row);
  const auto before = Snap();
  Answer a = Import(server_.admin, rows);
  ASSERT_TRUE(a.status.ok()) << a.status.error_message();
  EXPECT_FALSE(a.summary.stored());
  EXPECT_EQ(a.summary.refused(), static_cast<int>(cases.size()) - 1);
  EXPECT_EQ(a.summary.added(), 1);
  for (size_t i = 0; i < cases.size(); ++i) {
    const int line = static_cast<int>(i) + 2;
    const std::string got = RefusalsOf(a.summary, line);
    if (cases[i].column.empty()) {
      EXPECT_EQ(got, "") << "line " << line;
      continue;
    }
    EXPECT_NE(got.find(cases[i].column + ": "), std::string::npos)
        << "line " << line << ": " << got;
    EXPECT_NE(got.find(cases[i].says), std::string::npos)
        << "line " << line << ": " << got;
  }
  EXPECT_EQ(Snap(), before) << "a refused row stored something";
  // The refusals come by line.
  for (int i = 1; i < a.summary.refusals_size(); ++i) {
    EXPECT_LE(a.summary.refusals(i - 1).line(), a.summary.refusals(i).line());
  }
}

TEST_F(PlayerImportTest, AMatchedRowThatDiffersIsRefusedNamingBothValues) {
  const std::string rid = ResidentId("20080110", 3);
  ASSERT_TRUE(Import(server_.admin,
                     {{.name = "张三", .resident_id = rid, .rank = "1d"}})
                  .summary.stored());
  const auto before = Snap();
  Answer a = Import(server_.admin, {{.name = "张山", .resident_id = rid}});
  ASSERT_TRUE(a.status.ok());
  const std::string got = RefusalsOf(a.summary, 2);
  EXPECT_NE(
      got.find(
          "name: this row is player 1 (same resident ID), whose name in the "
          "registry is 张三; the file has 张山"),
      std::string::npos)
      << got;
  EXPECT_FALSE(a.summary.stored());
  EXPECT_EQ(Snap(), before);

  // Another agency: refused, the transfer named.
  Answer b = Import(server_.admin,
                    {{.name = "张三", .agency = "130", .resident_id = rid}});
  EXPECT_NE(RefusalsOf(b.summary, 2).find("who belongs to agency 110, not 130"),
            std::string::npos)
      << RefusalsOf(b.summary, 2);
}

TEST_F(PlayerImportTest,
       AMatchedPlayerGetsAMissingExternalIdAndARankDifferenceIsANote) {
  const std::string rid = ResidentId("20080110", 4);
  ASSERT_TRUE(Import(server_.admin,
                     {{.name = "张三", .resident_id = rid, .rank = "1d"}})
                  .summary.stored());
  const size_t audit_before = Audit().size();
  Answer a = Import(server_.admin, {{.name = "张三",
                                     .resident_id = rid,
                                     .rank = "2d",
                                     .external_id = "E-9"}});
  ASSERT_TRUE(a.status.ok());
  EXPECT_EQ(a.summary.matched(), 1);
  EXPECT_EQ(a.summary.added(), 0);
  const std::string note = a.summary.outcomes(0).note();
  EXPECT_NE(note.find("external_id E-9 recorded for player 1"),
            std::string::npos)
      << note;
  EXPECT_NE(note.find("the registry holds 1d for player 1, the file 2d"),
            std::string::npos)
      << note;
  EXPECT_EQ(Get(server_.admin, 1).external_id(), "E-9");
  EXPECT_EQ(Get(server_.admin, 1).rank().notation(), "1d");
  EXPECT_EQ(Audit().size(), audit_before + 1);
  EXPECT_EQ(Audit().back().action, "player.import_external_ids");
  // And now the external id alone finds the player.
  Answer b = Import(server_.admin, {{.name = "张三", .external_id = "E-9"}});
  EXPECT_EQ(b.summary.matched(), 1);
  EXPECT_EQ(b.summary.outcomes(0).player_id(), 1);
}

TEST_F(PlayerImportTest, SameNameAndBirthDateWithoutIdsIsFlaggedNotRefused) {
  Answer a =
      Import(server_.admin, {{.name = "赵六", .birth_date = "2001-02-03"},
                             {.name = "赵六", .birth_date = "2001-02-03"},
                             {.name = "赵六", .birth_date = "2001-02-04"}});
  ASSERT_TRUE(a.status.ok());
  EXPECT_EQ(a.summary.added(), 3);
  EXPECT_TRUE(a.summary.stored());
  EXPECT_EQ(a.summary.outcomes(0).note(), "");
  EXPECT_NE(a.summary.outcomes(1).note().find("possible duplicate: line 2"),
            std::string::npos)
      << a.summary.outcomes(1).note();
  EXPECT_EQ(a.summary.outcomes(2).note(), "");
}

TEST_F(PlayerImportTest, OperatorsImportIntoTheirOwnAgencyOnly) {
  Answer a =
      Import(server_.op110, {{.name = "甲", .agency = "110", .rank = "3d"},
                             {.name = "乙", .agency = "130"},
                             {.name = "丙", .agency = "110", .rank = "4d"}});
  ASSERT_TRUE(a.status.ok());
  EXPECT_NE(RefusalsOf(a.summary, 3)
                .find("agency: an operator of agency 110 imports players of "
                      "its own agency only; this "
                      "row is of agency 130"),
            std::string::npos)
      << RefusalsOf(a.summary, 3);
  EXPECT_NE(RefusalsOf(a.summary, 4)
                .find("rank: an agency may record ranks up to 3d; 4d"),
            std::string::npos)
      << RefusalsOf(a.summary, 4);
  EXPECT_FALSE(a.summary.stored());
  // With skip_bad the good row is stored, by the operator.
  Answer b = Import(server_.op110,
                    {{.name = "甲", .agency = "110", .rank = "3d"},
                     {.name = "乙", .agency = "130"}},
                    false, true);
  EXPECT_TRUE(b.summary.stored());
  EXPECT_EQ(b.summary.added(), 1);
  EXPECT_EQ(b.summary.refused(), 1);
  EXPECT_EQ(Audit().back().actor.rfind("agency:110/token:", 0), 0u)
      << Audit().back().actor;

  const auto before = Snap();
  Answer auditor = Import(server_.auditor, {{.name = "甲"}});
  EXPECT_EQ(auditor.status.error_code(), StatusCode::PERMISSION_DENIED);
  Answer nobody = Import("", {{.name = "甲"}});
  EXPECT_EQ(nobody.status.error_code(), StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(Snap(), before);
}

TEST_F(PlayerImportTest, DryRunChecksEverythingAndStoresNothing) {
  const auto before = Snap();
  Answer a = Import(server_.admin,
                    {{.name = "甲", .rank = "2d"}, {.name = "乙"}}, true);
  ASSERT_TRUE(a.status.ok());
  EXPECT_EQ(a.summary.added(), 2);
  EXPECT_FALSE(a.summary.stored());
  EXPECT_EQ(a.summary.outcomes(0).player_id(), 0);
  EXPECT_EQ(Snap(), before);
}

TEST_F(PlayerImportTest, OneRefusedRowStopsTheFileAndSkipBadStoresTheRest) {
  const std::vector<Row> rows = {
      {.name = "甲"}, {.name = "乙", .gender = "?"}, {.name = "丙"}};
  const auto before = Snap();
  Answer a = Import(server_.admin, rows);
  EXPECT_FALSE(a.summary.stored());
  EXPECT_EQ(a.summary.refused(), 1);
  EXPECT_EQ(a.summary.outcomes(0).player_id(), 0);
  EXPECT_EQ(Snap(), before);
  Answer b = Import(server_.admin, rows, false, true);
  EXPECT_TRUE(b.summary.stored());
  EXPECT_EQ(b.summary.added(), 2);
  EXPECT_EQ(b.summary.refused(), 1);
  EXPECT_EQ(b.summary.refusals(0).line(), 3);
  EXPECT_EQ(b.summary.refusals(0).column(), "gender");
  EXPECT_EQ(Snap().Rows("players"), before.Rows("players") + 2);
  // skip_bad with every row refused stores nothing and says so.
  Answer c = Import(server_.admin, {{.name = ""}}, false, true);
  EXPECT_FALSE(c.summary.stored());
}

TEST_F(PlayerImportTest, WholeCallProblemsAreStatuses) {
  Answer none = Import(server_.admin, {});
  EXPECT_EQ(none.status.error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(none.status.error_message().find("no rows"), std::string::npos);

  std::vector<v1::ImportPlayersRequest> late(2);
  late[0].set_file_name("p.csv");
  late[0].set_file_sha256(kSha);
  *late[0].add_rows() = ToProto({.name = "甲"}, 2);
  late[1].set_dry_run(true);
  EXPECT_EQ(Send(server_.admin, late).status.error_code(),
            StatusCode::INVALID_ARGUMENT);

  std::vector<v1::ImportPlayersRequest> no_sha(1);
  no_sha[0].set_file_name("p.csv");
  *no_sha[0].add_rows() = ToProto({.name = "甲"}, 2);
  Answer s = Send(server_.admin, no_sha);
  EXPECT_EQ(s.status.error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.status.error_message().find("file_sha256"), std::string::npos);

  // 200,001 rows: RESOURCE_EXHAUSTED before anything is checked.
  std::vector<v1::ImportPlayersRequest> many(201);
  many[0].set_file_name("p.csv");
  many[0].set_file_sha256(kSha);
  int line = 2;
  for (auto& m : many) {
    for (int i = 0; i < 1000 && line <= 200002; ++i)
      m.add_rows()->set_line(line++);
  }
  EXPECT_EQ(Send(server_.admin, many).status.error_code(),
            StatusCode::RESOURCE_EXHAUSTED);
}

TEST_F(PlayerImportTest, RegisterPlayerTakesAnExternalIdUniqueInTheAgency) {
  v1::RegisterPlayerRequest r;
  r.set_name("周七");
  r.set_agency_prefix("110");
  r.set_external_id("BJ-77");
  v1::RegisterPlayerResponse resp;
  ASSERT_TRUE(players_
                  ->RegisterPlayer(
                      InProcessServer::Context(server_.op110).get(), r, &resp)
                  .ok());
  EXPECT_EQ(resp.player().external_id(), "BJ-77");
  EXPECT_EQ(Get(server_.op130, resp.player().id()).external_id(), "");
  const auto before = Snap();
  r.set_name("周八");
  grpc::Status dup = players_->RegisterPlayer(
      InProcessServer::Context(server_.op110).get(), r, &resp);
  EXPECT_EQ(dup.error_code(), StatusCode::ALREADY_EXISTS);
  EXPECT_NE(dup.error_message().find("external_id BJ-77 of agency 110"),
            std::string::npos)
      << dup.error_message();
  EXPECT_EQ(Snap(), before);
  // The same external id in another agency is another player's.
  r.set_agency_prefix("130");
  EXPECT_TRUE(players_
                  ->RegisterPlayer(
                      InProcessServer::Context(server_.op130).get(), r, &resp)
                  .ok());
  // The import finds the registered player by it.
  Answer a = Import(server_.admin, {{.name = "周七", .external_id = "BJ-77"}});
  EXPECT_EQ(a.summary.matched(), 1);
}

}  // namespace
}  // namespace gorank::integration
