// ImportRatings (rankctl rating import) through real gRPC: a whole
// RankdServer on 127.0.0.1:0 with a temp database (InProcessServer; its clock
// is at 2024-06-01). Imported starts show in GetRating with their origin; the
// next closed event rates from the start (the number is the domain's
// Recompute seeded with the same start, not the rank seed); a full
// recompute keeps it. Every refusal names its line and column and leaves
// the database unchanged; re-import matches; dry run stores nothing; only
// the national admin may import.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gorank/v1/ratings.grpc.pb.h"
#include "gorank/v1/registry.grpc.pb.h"
#include "gorank/v1/tournaments.grpc.pb.h"
#include "gtest/gtest.h"
#include "services/ratings/rating_book.h"
#include "services/ratings/rating_import.h"
#include "services/ratings/ratings_config.h"
#include "services/registry/resident_id.h"
#include "storage/database.h"
#include "tests/ratings/club_event.h"
#include "tests/testing/in_process_server.h"

namespace gorank::ratings {
namespace {

using gorank::testing::InProcessServer;
using ::testing::HasSubstr;

const std::string kSha(64, 'c');

struct Row {
  int line = 0;
  std::string player, gor, pro, as_of;
};

class RatingImportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    events_ = v1::TournamentService::NewStub(server_.channel());
    ratings_ = v1::RatingService::NewStub(server_.channel());
  }

  int64_t Register(const std::string& name, const std::string& resident = "",
                   const std::string& agency = "110") {
    auto registry = v1::PlayerRegistry::NewStub(server_.channel());
    v1::RegisterPlayerRequest reg;
    reg.set_name(name);
    reg.set_agency_prefix(agency);
    reg.set_resident_id(resident);
    v1::RegisterPlayerResponse player;
    grpc::Status s = registry->RegisterPlayer(
        InProcessServer::Context(server_.admin).get(), reg, &player);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return player.player().id();
  }

  // Records an external id as a player import does (player_external_ids).
  void LinkExternalId(int64_t player, const std::string& agency,
                      const std::string& external_id) {
    const std::string sql =
        "INSERT INTO player_external_ids(agency_prefix, external_id, "
        "player_id) VALUES('" +
        agency + "', '" + external_id + "', " + std::to_string(player) + ")";
    absl::Status s = server_.server()->database()->Write(
        [&](storage::Connection& c) { return c.Exec(sql); });
    ASSERT_TRUE(s.ok()) << s;
  }

  grpc::Status Import(const std::string& token, const std::vector<Row>& rows,
                      v1::ImportSummary* out, bool dry_run = false,
                      bool skip_bad = false) {
    auto ctx = InProcessServer::Context(token);
    v1::ImportRatingsResponse resp;
    auto writer = ratings_->ImportRatings(ctx.get(), &resp);
    v1::ImportRatingsRequest m;
    m.set_dry_run(dry_run);
    m.set_skip_bad(skip_bad);
    m.set_file_name("/home/office/starts.csv");
    m.set_file_sha256(kSha);
    for (const Row& r : rows) {
      v1::RatingImportRow* row = m.add_rows();
      row->set_line(r.line);
      row->set_player(r.player);
      row->set_gor(r.gor);
      row->set_pro_rating(r.pro);
      row->set_as_of(r.as_of);
    }
    writer->Write(m);
    writer->WritesDone();
    grpc::Status s = writer->Finish();
    *out = resp.summary();
    return s;
  }

  // A class-A round robin on 2025-05-01 between p1 (2d) and p2 (1k), p1
  // wins (the game RatingServiceTest plays), closed.
  int64_t PlayAndClose(int64_t p1, int64_t p2) {
    v1::CreateEventRequest create;
    *create.mutable_event() =
        test_events::ClubRoundRobin("Club Open", Date{2025, 5, 1});
    v1::CreateEventResponse created;
    grpc::Status s = events_->CreateEvent(
        InProcessServer::Context(server_.admin).get(), create, &created);
    EXPECT_TRUE(s.ok()) << s.error_message();
    v1::SaveResultsRequest save;
    save.set_event_id(created.event().id());
    const char* ranks[] = {"2d", "1k"};
    for (int i = 1; i <= 2; ++i) {
      v1::Entrant* en = save.mutable_results()->add_entrants();
      en->set_id(i);
      en->set_family_name("Player");
      en->set_given_name(std::to_string(i));
      en->mutable_rank()->set_notation(ranks[i - 1]);
      en->set_player_id(i == 1 ? p1 : p2);
    }
    v1::Game* g = save.mutable_results()->add_games();
    g->set_round(1);
    g->set_black_entrant_id(1);
    g->set_white_entrant_id(2);
    g->set_colours_known(true);
    g->set_outcome(v1::GAME_OUTCOME_BLACK_WINS);
    v1::SaveResultsResponse saved;
    s = events_->SaveResults(InProcessServer::Context(server_.admin).get(),
                             save, &saved);
    EXPECT_TRUE(s.ok()) << s.error_message();
    v1::CloseEventRequest close;
    close.set_event_id(created.event().id());
    v1::CloseEventResponse closed;
    s = events_->CloseEvent(InProcessServer::Context(server_.admin).get(),
                            close, &closed);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return created.event().id();
  }

  // The domain's book for PlayAndClose's game, seeded with `starts`.
  RatingBook Expected(int64_t event_id, int64_t p1, int64_t p2,
                      const std::map<PlayerId, StartValue>& starts) {
    RatedGame game;
    game.event_id = std::to_string(event_id);
    game.event_date = Date{2025, 5, 1};
    game.event_order = event_id;
    game.game_id = 1001;
    game.black = PlayerId{p1};
    game.white = PlayerId{p2};
    game.black_rank = registry::Rank::FromString("2d");
    game.white_rank = registry::Rank::FromString("1k");
    game.result = GameResult::kBlackWin;
    auto book = Recompute(DefaultRatingsConfig().rating, {game}, starts);
    EXPECT_TRUE(book.ok()) << book.status();
    return *book;
  }

  grpc::Status Get(int64_t player, v1::PlayerRating* out) {
    v1::GetRatingRequest req;
    req.set_player_id(player);
    v1::GetRatingResponse resp;
    grpc::Status s =
        ratings_->GetRating(InProcessServer::Context("").get(), req, &resp);
    *out = resp.rating();
    return s;
  }

  // Everything an import may write: the audit log (every write appends to
  // it) plus the rating tables.
  std::string State() {
    absl::StatusOr<testing::DatabaseSnapshot> snap = server_.Snapshot();
    EXPECT_TRUE(snap.ok()) << snap.status();
    std::string out = std::to_string(snap->Rows("audit_log"));
    absl::Status s =
        server_.server()->database()->Read([&](storage::Connection& c) {
          static constexpr char kRows[] =
              "SELECT player_id, gor, coalesce(pro_elo, '-'), as_of, origin "
              "FROM rating_starts ORDER BY player_id";
          auto st = c.Prepare(kRows);
          if (!st.ok()) return st.status();
          while (true) {
            absl::StatusOr<bool> row = (*st)->Step();
            if (!row.ok()) return row.status();
            if (!*row) break;
            for (int i = 0; i < 5; ++i) out += "|" + (*st)->Text(i);
          }
          static constexpr char kRatings[] =
              "SELECT player_id, gor FROM ratings ORDER BY player_id";
          auto rt = c.Prepare(kRatings);
          if (!rt.ok()) return rt.status();
          while (true) {
            absl::StatusOr<bool> row = (*rt)->Step();
            if (!row.ok()) return row.status();
            if (!*row) break;
            out += ";" + (*rt)->Text(0) + "=" + (*rt)->Text(1);
          }
          return absl::OkStatus();
        });
    EXPECT_TRUE(s.ok()) << s;
    return out;
  }

  InProcessServer server_;
  std::unique_ptr<v1::TournamentService::Stub> events_;
  std::unique_ptr<v1::RatingService::Stub> ratings_;
};

TEST_F(RatingImportTest, TheNextEventRatesFromTheImportedStart) {
  const int64_t p1 = Register("Imported One");
  const int64_t p2 = Register("Seeded Two");
  v1::ImportSummary summary;
  grpc::Status s =
      Import(server_.admin, {{2, std::to_string(p1), "2350", "", "2024-05-01"}},
             &summary);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_TRUE(summary.stored());
  EXPECT_EQ(summary.added(), 1);
  ASSERT_EQ(summary.outcomes_size(), 1);
  EXPECT_EQ(summary.outcomes(0).player_id(), p1);

  v1::PlayerRating r;
  s = Get(p1, &r);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(r.gor(), 2350);
  EXPECT_EQ(r.rated_games(), 0);
  EXPECT_EQ(r.grade().ladder(), v1::RANK_LADDER_AMATEUR_DAN);
  EXPECT_EQ(r.grade().level(), 4);  // 2350: 4d
  EXPECT_EQ(r.origin(),
            "import starts.csv sha256:" + kSha + " line 2 as of 2024-05-01");

  const int64_t event = PlayAndClose(p1, p2);
  const RatingBook from_start =
      Expected(event, p1, p2, {{PlayerId{p1}, StartValue{2350, {}}}});
  const RatingBook from_seed = Expected(event, p1, p2, {});
  s = Get(p1, &r);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(r.gor(), from_start.Find(PlayerId{p1})->gor);
  EXPECT_NE(r.gor(), from_seed.Find(PlayerId{p1})->gor);
  EXPECT_EQ(r.rated_games(), 1);
  EXPECT_THAT(r.origin(), HasSubstr("line 2"));
  v1::PlayerRating r2;
  ASSERT_TRUE(Get(p2, &r2).ok());
  EXPECT_EQ(r2.gor(), from_start.Find(PlayerId{p2})->gor);
  EXPECT_EQ(r2.origin(), "");

  v1::GetRatingHistoryRequest hreq;
  hreq.set_player_id(p1);
  v1::GetRatingHistoryResponse history;
  s = ratings_->GetRatingHistory(InProcessServer::Context("").get(), hreq,
                                 &history);
  ASSERT_TRUE(s.ok()) << s.error_message();
  ASSERT_EQ(history.changes_size(), 1);
  EXPECT_EQ(history.changes(0).gor_before(), 2350);

  // A full recompute seeds from the stored start: the same table.
  v1::RecomputeRatingsRequest rreq;
  v1::RecomputeRatingsResponse recomputed;
  s = ratings_->RecomputeRatings(InProcessServer::Context(server_.admin).get(),
                                 rreq, &recomputed);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_FALSE(recomputed.changed());
  EXPECT_EQ(recomputed.players(), 2);
  ASSERT_TRUE(Get(p1, &r).ok());
  EXPECT_EQ(r.gor(), from_start.Find(PlayerId{p1})->gor);

  // Now that p1 has a rated event, another start is refused; the same row
  // still matches.
  const std::string before = State();
  s = Import(server_.admin, {{2, std::to_string(p1), "2200", "", ""}},
             &summary);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_FALSE(summary.stored());
  ASSERT_EQ(summary.refusals_size(), 1);
  EXPECT_EQ(summary.refusals(0).column(), "player");
  EXPECT_THAT(summary.refusals(0).reason(),
              HasSubstr("already has a rating from 1 event"));
  s = Import(server_.admin,
             {{2, std::to_string(p1), "2350.0", "", "2024-05-01"}}, &summary);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_TRUE(summary.stored());
  EXPECT_EQ(summary.matched(), 1);
  EXPECT_EQ(summary.added(), 0);
  EXPECT_EQ(State(), before);
}

TEST_F(RatingImportTest, EveryRefusalNamesItsLineAndColumnAndStoresNothing) {
  const int64_t a = Register("Player A");
  const int64_t b = Register("Player B");
  const int64_t c = Register("Player C", "", "130");
  const int64_t d = Register("Player D");
  const int64_t e = Register("Player E", "", "130");
  LinkExternalId(a, "110", "EGD-7");
  LinkExternalId(c, "130", "EGD-7");
  LinkExternalId(e, "130", std::to_string(b));  // b's id is e's external id
  const std::string before = State();
  const std::vector<Row> rows = {
      {2, "", "2100", "", ""},
      {3, "987654", "2100", "", ""},
      {4, std::to_string(a), "abc", "", ""},
      {5, std::to_string(a), "5000", "", ""},
      {6, std::to_string(a), "2,100", "", ""},
      {7, std::to_string(d), "2100", "x", ""},
      {8, std::to_string(d), "2100", "", "2024-06-02"},
      {9, std::to_string(d), "2100", "", "2024/01/01"},
      {10, "EGD-7", "2100", "", ""},
      {11, std::to_string(b), "2100", "", ""},
      {12, "id:" + std::to_string(d), "2100", "", ""},
      {13, "130:EGD-7", "2000", "", ""},
      {14, "id:" + std::to_string(d), "1900", "", ""},
      {15, "110:EGD-7", "2200.5", "2400", "2024-06-01"},
  };
  v1::ImportSummary summary;
  grpc::Status s = Import(server_.admin, rows, &summary);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_FALSE(summary.stored());
  EXPECT_EQ(summary.rows(), 14);
  EXPECT_EQ(summary.refused(), 12);
  std::map<int, std::pair<std::string, std::string>> by_line;
  for (const v1::ImportRefusal& r : summary.refusals()) {
    EXPECT_TRUE(
        by_line.emplace(r.line(), std::pair(r.column(), r.reason())).second)
        << "line " << r.line() << " refused twice";
  }
  auto expect = [&](int line, const std::string& column,
                    const std::string& words) {
    ASSERT_TRUE(by_line.contains(line)) << "line " << line;
    EXPECT_EQ(by_line[line].first, column) << "line " << line;
    EXPECT_THAT(by_line[line].second, HasSubstr(words)) << "line " << line;
  };
  expect(2, "player", "player is empty");
  expect(3, "player",
         "no registered player has this player id or external "
         "id '987654'");
  expect(4, "gor", "'abc' is not a decimal number");
  expect(5, "gor", "outside the EGF scale -900 .. 3200");
  expect(6, "gor", "no thousands separator");
  expect(7, "pro_rating", "'x' is not a decimal number");
  expect(8, "as_of", "after today (2024-06-01)");
  expect(9, "as_of", "write YYYY-MM-DD");
  expect(10, "player", "'EGD-7' names more than one player");
  expect(10, "player", "'110:EGD-7' for player " + std::to_string(a));
  expect(11, "player",
         "'id:" + std::to_string(b) + "' for player " + std::to_string(b));
  expect(11, "player",
         "'130:" + std::to_string(b) + "' for player " + std::to_string(e));
  expect(12, "player", "is on lines 12, 14 of this file");
  expect(14, "player", "is on lines 12, 14 of this file");
  EXPECT_FALSE(by_line.contains(13));
  EXPECT_FALSE(by_line.contains(15));
  EXPECT_EQ(State(), before);
  v1::PlayerRating r;
  EXPECT_EQ(Get(c, &r).error_code(), grpc::StatusCode::NOT_FOUND);

  // --skip-bad: the two good rows are stored, the refusals still reported.
  s = Import(server_.admin, rows, &summary, /*dry_run=*/false,
             /*skip_bad=*/true);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_TRUE(summary.stored());
  EXPECT_EQ(summary.added(), 2);
  EXPECT_EQ(summary.refused(), 12);
  ASSERT_TRUE(Get(c, &r).ok());
  EXPECT_EQ(r.gor(), 2000);
  EXPECT_THAT(r.origin(), HasSubstr("line 13 as of 2024-06-01"));
  ASSERT_TRUE(Get(a, &r).ok());
  EXPECT_EQ(r.gor(), 2200.5);
  EXPECT_EQ(r.pro_rating(), 2400);
}

TEST_F(RatingImportTest, ResidentIdDryRunReImportAndReplacement) {
  const std::string first17 = "11010519900307123";
  const std::string resident = first17 + registry::ResidentIdCheckChar(first17);
  const int64_t p = Register("Resident", resident);
  const std::string empty = State();

  v1::ImportSummary summary;
  grpc::Status s = Import(server_.admin, {{2, resident, "1850", "", ""}},
                          &summary, /*dry_run=*/true);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_FALSE(summary.stored());
  EXPECT_EQ(summary.added(), 1);
  EXPECT_EQ(summary.outcomes(0).player_id(), p);
  EXPECT_EQ(State(), empty);

  s = Import(server_.admin, {{2, resident, "1850", "", ""}}, &summary);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_TRUE(summary.stored());
  const std::string once = State();
  EXPECT_NE(once, empty);

  // The same row again (as_of absent matches whatever date was stored).
  s = Import(server_.admin, {{2, resident, "1850", "", ""}}, &summary);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_TRUE(summary.stored());
  EXPECT_EQ(summary.matched(), 1);
  EXPECT_EQ(summary.added(), 0);
  EXPECT_TRUE(summary.outcomes(0).matched());
  EXPECT_EQ(State(), once);

  // Another start for a player who has played nothing yet replaces it.
  s = Import(server_.admin, {{5, std::to_string(p), "1900", "", "2024-01-01"}},
             &summary);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_TRUE(summary.stored());
  EXPECT_EQ(summary.added(), 1);
  EXPECT_THAT(summary.outcomes(0).note(),
              HasSubstr("replaces the start gor 1850 as of 2024-06-01 "
                        "(import starts.csv"));
  v1::PlayerRating r;
  ASSERT_TRUE(Get(p, &r).ok());
  EXPECT_EQ(r.gor(), 1900);
  EXPECT_THAT(r.origin(), HasSubstr("line 5 as of 2024-01-01"));

  // A resident ID nobody has is refused without echoing it.
  const std::string other17 = "11010519900307456";
  const std::string unknown = other17 + registry::ResidentIdCheckChar(other17);
  s = Import(server_.admin, {{2, unknown, "1850", "", ""}}, &summary);
  ASSERT_TRUE(s.ok()) << s.error_message();
  ASSERT_EQ(summary.refusals_size(), 1);
  EXPECT_THAT(summary.refusals(0).reason(),
              HasSubstr("no registered player has this resident ID"));
  EXPECT_THAT(summary.refusals(0).reason(), ::testing::Not(HasSubstr(unknown)));
}

TEST_F(RatingImportTest, OnlyTheNationalAdminImports) {
  const int64_t p = Register("Scoped");
  const std::string before = State();
  v1::ImportSummary summary;
  const std::vector<Row> rows = {{2, std::to_string(p), "2000", "", ""}};
  EXPECT_EQ(Import(server_.op110, rows, &summary).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(Import(server_.auditor, rows, &summary).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(Import("", rows, &summary).error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(State(), before);
}

TEST_F(RatingImportTest, WholeStreamProblemsAreStatuses) {
  const int64_t p = Register("Streamed");
  v1::ImportSummary summary;
  grpc::Status s = Import(server_.admin, {}, &summary);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_THAT(s.error_message(), HasSubstr("no rows"));

  // Options in a later message.
  {
    auto ctx = InProcessServer::Context(server_.admin);
    v1::ImportRatingsResponse resp;
    auto writer = ratings_->ImportRatings(ctx.get(), &resp);
    v1::ImportRatingsRequest m;
    m.set_file_name("a.csv");
    v1::RatingImportRow* row = m.add_rows();
    row->set_line(2);
    row->set_player(std::to_string(p));
    row->set_gor("2000");
    writer->Write(m);
    m.clear_rows();
    m.set_dry_run(true);
    writer->Write(m);
    writer->WritesDone();
    s = writer->Finish();
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_THAT(s.error_message(), HasSubstr("only the first message"));
  }
  // More rows than a stream carries.
  {
    auto ctx = InProcessServer::Context(server_.admin);
    v1::ImportRatingsResponse resp;
    auto writer = ratings_->ImportRatings(ctx.get(), &resp);
    v1::ImportRatingsRequest m;
    for (int i = 0; i < 1000; ++i) {
      v1::RatingImportRow* row = m.add_rows();
      row->set_line(i + 2);
      row->set_player("1");
      row->set_gor("2000");
    }
    for (int i = 0; i <= kMaxImportRows / 1000; ++i) {
      if (!writer->Write(m)) break;
    }
    writer->WritesDone();
    s = writer->Finish();
    EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
    EXPECT_THAT(s.error_message(), HasSubstr("at most 200000 rows"));
  }
  v1::PlayerRating r;
  EXPECT_EQ(Get(p, &r).error_code(), grpc::StatusCode::NOT_FOUND);
}

}  // namespace
}  // namespace gorank::ratings
