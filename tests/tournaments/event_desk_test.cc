// EventDesk over the in-memory repository: who may change which event,
// closed events, per-round recording, imports checked whole, the audit
// records; and the JSON codec the audit log and storage use.
#include "services/tournaments/event_desk.h"

#include <fstream>
#include <sstream>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "services/tournaments/event_json.h"
#include "tests/tournaments/fake_event_repository.h"
#include "tests/tournaments/results_builder.h"

namespace gorank::tournaments {
namespace {

using ::testing::HasSubstr;

std::string ReadTestFile(const std::string& rel) {
  std::ifstream in(std::string(GORANK_TESTDATA_DIR) + "/" + rel,
                   std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

auth::Caller Operator(const std::string& prefix) {
  return auth::Caller{auth::Role::kAgencyOperator, prefix, 7};
}
Game MakeGame(int round, int black, int white, Outcome outcome) {
  Game g;
  g.round = round;
  g.black = EntrantId{black};
  g.white = EntrantId{white};
  g.outcome = outcome;
  return g;
}

auth::Caller National() {
  return auth::Caller{auth::Role::kNationalAdmin, "", 1};
}

Event CityEvent(FormatKind kind = FormatKind::kRoundRobin, int rounds = 0) {
  Event e = testing::MakeEvent(kind, rounds);
  e.name = "Beijing city championship";
  e.start = *Date::Parse("2025-05-01");
  e.end = *Date::Parse("2025-05-03");
  e.organiser_prefix = "110";
  e.level = EventLevel::kCity;
  e.competition = "city_championship";
  e.sub_event = SubEvent::kOpenIndividual;
  return e;
}

class EventDeskTest : public ::testing::Test {
 protected:
  EventDeskTest() : clock_(1746000000), desk_(&repo_, &clock_) {}
  Event MustCreate(const Event& e) {
    auto created = desk_.Create(Operator("110"), e);
    EXPECT_TRUE(created.ok()) << created.status();
    return created.value_or(Event{});
  }
  size_t Audits() const { return repo_.audit().size(); }

  testing::FakeEventRepository repo_;
  FakeClock clock_;
  EventDesk desk_;
};

TEST_F(EventDeskTest, OperatorsChangeOnlyTheirAgencysEvents) {
  EXPECT_EQ(desk_.Create(Operator("130"), CityEvent()).status().code(),
            absl::StatusCode::kPermissionDenied);
  const Event e = MustCreate(CityEvent());
  EXPECT_EQ(Audits(), 1u);
  testing::ResultsBuilder b;
  b.Players(2).Win(1, 1, 2);
  const auth::Caller other = Operator("130");
  EXPECT_EQ(desk_.SaveResults(other, e.id, b.Build()).status().code(),
            absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(desk_.Update(other, e).status().code(),
            absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(desk_.Close(other, e.id).status().code(),
            absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(desk_.RecordRound(other, e.id, 1, {}, {}).status().code(),
            absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(desk_
                .Import(other, e.id, ResultFileFormat::kEgf,
                        ReadTestFile("egf/round_robin_forfeits.h9"), {})
                .status()
                .code(),
            absl::StatusCode::kPermissionDenied);
  // An operator may not hand its event to another agency either.
  Event moved = e;
  moved.organiser_prefix = "130";
  EXPECT_EQ(desk_.Update(Operator("110"), moved).status().code(),
            absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(Audits(), 1u);  // nothing refused was recorded
  EXPECT_TRUE(desk_.SaveResults(National(), e.id, b.Build()).ok());
  EXPECT_EQ(Audits(), 2u);
}

TEST_F(EventDeskTest, DescriptionsAreChecked) {
  struct Case {
    const char* what;
    void (*edit)(Event&);
    const char* message;
  };
  const Case cases[] = {
      {"prefix", [](Event& e) { e.organiser_prefix = "11"; }, "three-digit"},
      {"competition", [](Event& e) { e.competition = "olympics"; }, "olympics"},
      {"group", [](Event& e) { e.group = "pro_a"; }, "pro_a"},
      {"rounds", [](Event& e) { e.format = Format{FormatKind::kSwiss}; },
       "round"},
  };
  for (const Case& c : cases) {
    Event e = CityEvent();
    c.edit(e);
    auto got = desk_.Create(National(), e);
    EXPECT_EQ(got.status().code(), absl::StatusCode::kInvalidArgument)
        << c.what;
    EXPECT_THAT(std::string(got.status().message()), HasSubstr(c.message))
        << c.what;
  }
  EXPECT_EQ(Audits(), 0u);
}

TEST_F(EventDeskTest, RecordRoundReplacesOneRoundAndKeepsTheRest) {
  const Event e = MustCreate(CityEvent());
  testing::ResultsBuilder b;
  b.Players(4).Win(1, 1, 2).Win(1, 3, 4).Unknown(2, 1, 3).Unknown(2, 2, 4);
  ASSERT_TRUE(desk_.SaveResults(Operator("110"), e.id, b.Build()).ok());
  const Game g1 = MakeGame(2, 1, 3, Outcome::kWhiteWins);
  const Game g2 = MakeGame(2, 2, 4, Outcome::kDraw);
  auto s = desk_.RecordRound(Operator("110"), e.id, 2, {g1, g2}, {});
  ASSERT_TRUE(s.ok()) << s.status();
  auto results = desk_.Results(e.id);
  ASSERT_EQ(results->games.size(), 4u);
  EXPECT_EQ(results->games[0].outcome, Outcome::kBlackWins);  // round 1 kept
  EXPECT_EQ(results->games[2].outcome, Outcome::kWhiteWins);
  EXPECT_EQ(results->games[3].outcome, Outcome::kDraw);
  EXPECT_EQ(s->status, StandingsStatus::kFinal);
  // A game of another round in the request is refused whole.
  Game wrong = g1;
  wrong.round = 3;
  EXPECT_EQ(
      desk_.RecordRound(Operator("110"), e.id, 2, {wrong}, {}).status().code(),
      absl::StatusCode::kInvalidArgument);
  // The audit entry keeps the state before and after.
  const std::vector<ChangeRecord> log = repo_.audit();
  const ChangeRecord& last = log.back();
  EXPECT_EQ(last.action, "results.record_round");
  EXPECT_EQ(last.subject, "event:" + std::to_string(e.id.value));
  EXPECT_EQ(last.actor, "agency:110/token:7");
  EXPECT_EQ(ResultsFromJson(last.before)->games[2].outcome, Outcome::kUnknown);
  EXPECT_EQ(ResultsFromJson(last.after)->games[2].outcome, Outcome::kWhiteWins);
}

TEST_F(EventDeskTest, CloseNeedsFinalStandingsAndThenNothingChanges) {
  const Event e = MustCreate(CityEvent());
  testing::ResultsBuilder b;
  b.Players(2).Unknown(1, 1, 2);
  ASSERT_TRUE(desk_.SaveResults(Operator("110"), e.id, b.Build()).ok());
  auto refused = desk_.Close(Operator("110"), e.id);
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kFailedPrecondition);
  const Game decided = MakeGame(1, 1, 2, Outcome::kBlackWins);
  ASSERT_TRUE(desk_.RecordRound(Operator("110"), e.id, 1, {decided}, {}).ok());
  auto closed = desk_.Close(Operator("110"), e.id);
  ASSERT_TRUE(closed.ok()) << closed.status();
  EXPECT_TRUE(closed->event.closed);
  EXPECT_EQ(closed->standings.rows.front().name, "P1");
  EXPECT_TRUE(desk_.Get(e.id)->closed);
  EXPECT_EQ(desk_.SaveResults(National(), e.id, b.Build()).status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(desk_.Update(National(), e).status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(desk_.Close(National(), e.id).status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(repo_.audit().back().action, "event.close");
}

TEST_F(EventDeskTest, ImportStoresGuestsAndExportRepeatsTheDomainWriter) {
  const Event e = MustCreate(CityEvent());
  const std::string text = ReadTestFile("egf/round_robin_forfeits.h9");
  // No registry: every row is unknown, refused until declared guests.
  auto refused =
      desk_.Import(Operator("110"), e.id, ResultFileFormat::kEgf, text, {});
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(refused.status().message()),
              HasSubstr("6 Li Wei (unknown)"));
  EXPECT_TRUE(desk_.Results(e.id)->entrants.empty());
  ImportOptions guests;
  guests.allow_guests = true;
  auto file =
      desk_.Import(Operator("110"), e.id, ResultFileFormat::kEgf, text, guests);
  ASSERT_TRUE(file.ok()) << file.status();
  auto stored = desk_.Results(e.id);
  ASSERT_EQ(stored->entrants.size(), 6u);
  for (const Entrant& en : stored->entrants)
    EXPECT_FALSE(en.player_id.has_value());
  auto standings = desk_.GetStandings(e.id);
  ASSERT_TRUE(standings.ok());
  EXPECT_EQ(standings->rows[0].name, "Qian Ming");
  auto exported = desk_.Export(e.id, ResultFileFormat::kEgf);
  ASSERT_TRUE(exported.ok()) << exported.status();
  EXPECT_EQ(*exported, *WriteEgf(*desk_.Get(e.id), *stored, &*standings, {}));
  EXPECT_EQ(*desk_.Export(e.id, ResultFileFormat::kCsv),
            *WriteCsv(*desk_.Get(e.id), *stored));
}

TEST_F(EventDeskTest, BadFilesAndSwissRoundCountsStoreNothing) {
  const Event swiss = MustCreate(CityEvent(FormatKind::kSwiss, 7));
  const std::string good = ReadTestFile("egf/round_robin_forfeits.h9");
  auto rounds =
      desk_.Import(Operator("110"), swiss.id, ResultFileFormat::kEgf, good, {});
  EXPECT_EQ(rounds.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(rounds.status().message()), HasSubstr("5 rounds"));
  std::string asymmetric = good;
  asymmetric.replace(asymmetric.find("3+/b0    2-/w0"), 14, "3+/b0    2+/w0");
  auto bad = desk_.Import(Operator("110"), swiss.id, ResultFileFormat::kEgf,
                          asymmetric, {});
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(bad.status().message()), HasSubstr("line "));
  EXPECT_TRUE(desk_.Results(swiss.id)->entrants.empty());
  EXPECT_EQ(Audits(), 1u);  // the creation only
  // A dry run (event 0) needs no event and stores nothing.
  auto dry = desk_.Import(auth::Caller::Public(), EventId{0},
                          ResultFileFormat::kEgf, good, {});
  ASSERT_TRUE(dry.ok()) << dry.status();
  EXPECT_EQ(dry->file.results.entrants.size(), 6u);
  EXPECT_EQ(dry->unresolved, 6);
  EXPECT_EQ(Audits(), 1u);
}

TEST(EventJsonTest, RoundTripsEveryField) {
  Event e = CityEvent(FormatKind::kTeamSwiss, 5);
  e.id = EventId{12};
  e.format.boards = 4;
  e.format.swiss_ranking = SwissRanking::kPointsFirst;
  e.rules =
      Rules{RuleSet::kJapaneseKorean, 13, HandicapPolicy::kRankDifference, 2};
  e.time = TimeControl{TimeClass::kA, "52.5", "Fischer"};
  e.group = "u16";
  e.highest_group = false;
  e.shared_places_allowed = false;
  e.closed = true;
  auto back = EventFromJson(EventToJson(e));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(EventToJson(*back), EventToJson(e));
  EXPECT_EQ(back->time.adjusted_minutes, "52.5");
  EXPECT_EQ(back->format.swiss_ranking, SwissRanking::kPointsFirst);

  testing::ResultsBuilder b;
  b.Player(1, "A", 1)
      .Player(2, "B", 2)
      .TeamOf(1, "T1", {1})
      .TeamOf(2, "T2", {2});
  b.Win(1, 1, 2, 1)
      .Warnings(0, 2)
      .TeamBye(2, 1)
      .Decide(TieDecisionMethod::kLots, {2, 1});
  EventResults r = b.Build();
  r.entrants[0].player_id = registry::PlayerId{5};
  r.entrants[0].egd_pin = "10203040";
  r.teams[1].withdrawn_after_round = 1;
  r.games[0].komi_x2 = -1;
  r.games[0].colours_known = false;
  auto rb = ResultsFromJson(ResultsToJson(r));
  ASSERT_TRUE(rb.ok()) << rb.status();
  EXPECT_EQ(ResultsToJson(*rb), ResultsToJson(r));
  EXPECT_EQ(rb->tie_decisions[0].method, TieDecisionMethod::kLots);
  EXPECT_EQ(rb->byes[0].team, std::optional<TeamId>(TeamId{1}));

  EXPECT_EQ(EventFromJson("[1]").status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ResultsFromJson(R"({"entrants":[{"rank":"99x"}]})").status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(EventFromJson(R"({"start":"2025-13-40"})").status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace gorank::tournaments
