// EventDesk::PairRound over the in-memory repository, with the real pairing
// engine: a round stored as games awaiting results (boards, byes) with its
// audit entry naming the seed and the decisions, dry runs that store
// nothing, a re-pair of a round without results, and every refusal leaving
// the results and the audit log as they were. Also the event's pairing
// settings: the seed drawn at creation and read-only afterwards, and the
// JSON codec reading events stored before pairing existed.
#include <algorithm>
#include <set>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "services/tournaments/event_desk.h"
#include "services/tournaments/event_json.h"
#include "tests/tournaments/fake_event_repository.h"
#include "tests/tournaments/results_builder.h"

namespace gorank::tournaments {
namespace {

using ::testing::HasSubstr;

auth::Caller Operator(const std::string& prefix) {
  return auth::Caller{auth::Role::kAgencyOperator, prefix, 7};
}

Event SwissEvent(int rounds = 5) {
  Event e = testing::MakeEvent(FormatKind::kSwiss, rounds);
  e.name = "Beijing city Swiss";
  e.start = *Date::Parse("2025-05-01");
  e.end = *Date::Parse("2025-05-03");
  e.organiser_prefix = "110";
  e.level = EventLevel::kCity;
  e.competition = "city_championship";
  e.sub_event = SubEvent::kOpenIndividual;
  return e;
}

// Entrants 1..n, strongest first (5d, 4d, ... then kyu).
EventResults Entrants(int n) {
  EventResults r;
  for (int i = 1; i <= n; ++i) {
    Entrant e;
    e.id = EntrantId{i};
    e.family_name = "P" + std::to_string(i);
    e.rank = registry::Rank::FromString(i <= 5 ? std::to_string(6 - i) + "d"
                                               : std::to_string(i - 5) + "k");
    r.entrants.push_back(e);
  }
  return r;
}

std::vector<Game> GamesOf(const EventResults& r, int round) {
  std::vector<Game> out;
  for (const Game& g : r.games) {
    if (g.round == round) out.push_back(g);
  }
  return out;
}

class PairingDeskTest : public ::testing::Test {
 protected:
  PairingDeskTest() : clock_(1746000000), desk_(&repo_, &clock_) {}

  // A Swiss of `rounds` with `players` entrants; returns its id.
  EventId Start(int players, int rounds = 5) {
    auto created = desk_.Create(Operator("110"), SwissEvent(rounds));
    EXPECT_TRUE(created.ok()) << created.status();
    const EventId id = created.value_or(Event{}).id;
    EXPECT_TRUE(desk_.SaveResults(Operator("110"), id, Entrants(players)).ok());
    return id;
  }

  absl::StatusOr<PairedRound> Pair(EventId id, int round,
                                   PairingAdjustments adj = {},
                                   bool dry_run = false) {
    return desk_.PairRound(Operator("110"), id, round, adj, dry_run);
  }

  // Black wins every board of `round`.
  void RecordBlackWins(EventId id, int round) {
    ResultsEdit edit;
    for (Game g : GamesOf(*desk_.Results(id), round)) {
      g.outcome = Outcome::kBlackWins;
      edit.set_games.push_back(g);
    }
    ASSERT_TRUE(desk_.Edit(Operator("110"), id, edit).ok());
  }

  // The refusal leaves results and audit log unchanged.
  void ExpectRefused(EventId id, int round, absl::StatusCode code,
                     const std::string& part, PairingAdjustments adj = {},
                     const auth::Caller& caller = Operator("110")) {
    const auto results = [&] {
      auto r = desk_.Results(id);
      return r.ok() ? ResultsToJson(*r) : std::string(r.status().message());
    };
    const std::string before = results();
    const size_t audits = repo_.audit().size();
    auto paired = desk_.PairRound(caller, id, round, adj, false);
    EXPECT_EQ(paired.status().code(), code) << paired.status();
    EXPECT_THAT(paired.status().message(), HasSubstr(part));
    EXPECT_EQ(results(), before);
    EXPECT_EQ(repo_.audit().size(), audits);
  }

  testing::FakeEventRepository repo_;
  FakeClock clock_;
  EventDesk desk_;
};

TEST_F(PairingDeskTest, CreateDrawsTheSeedAndUpdateKeepsIt) {
  auto a = desk_.Create(Operator("110"), SwissEvent());
  auto b = desk_.Create(Operator("110"), SwissEvent());
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_NE(a->pairing.seed, 0u);
  EXPECT_NE(a->pairing.seed, b->pairing.seed);
  Event chosen = SwissEvent();
  chosen.pairing.seed = 42;
  EXPECT_EQ(desk_.Create(Operator("110"), chosen)->pairing.seed, 42u);
  EXPECT_EQ(desk_.Get(a->id)->pairing.seed, a->pairing.seed);

  // An update sending 0 (or the stored seed) keeps it; another is refused.
  Event renamed = *a;
  renamed.name = "Renamed";
  renamed.pairing.seed = 0;
  renamed.pairing.same_club_rounds = 2;
  ASSERT_TRUE(desk_.Update(Operator("110"), renamed).ok());
  EXPECT_EQ(desk_.Get(a->id)->pairing.seed, a->pairing.seed);
  EXPECT_EQ(desk_.Get(a->id)->pairing.same_club_rounds, 2);
  renamed.pairing.seed = a->pairing.seed + 1;
  auto refused = desk_.Update(Operator("110"), renamed);
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(refused.status().message(), HasSubstr("read-only"));
  EXPECT_EQ(desk_.Get(a->id)->pairing.seed, a->pairing.seed);
}

TEST_F(PairingDeskTest, EventsStoredWithoutPairingReadAsDefaults) {
  // An event description as stored before PairingSettings existed.
  auto old = EventFromJson(
      R"({"id":3,"name":"Old","format":{"kind":2,"rounds":5},"closed":false})");
  ASSERT_TRUE(old.ok()) << old.status();
  EXPECT_EQ(old->pairing.system, PairingSystem::kSwiss);
  EXPECT_EQ(old->pairing.seed, 0u);
  EXPECT_EQ(old->pairing.max_handicap, 9);
  EXPECT_FALSE(old->pairing.mcmahon_bar.has_value());

  Event e = SwissEvent();
  e.pairing.system = PairingSystem::kMcMahon;
  e.pairing.mcmahon_bar = registry::Rank::FromString("3d");
  e.pairing.mcmahon_floor = registry::Rank::FromString("10k");
  e.pairing.same_club_rounds = 3;
  e.pairing.max_handicap = 4;
  e.pairing.first_round_by_lot = true;
  e.pairing.seed = 18446744073709551557u;  // above INT64_MAX
  auto back = EventFromJson(EventToJson(e));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->pairing.system, PairingSystem::kMcMahon);
  EXPECT_EQ(back->pairing.mcmahon_bar->ToString(), "3d");
  EXPECT_EQ(back->pairing.mcmahon_floor->ToString(), "10k");
  EXPECT_EQ(back->pairing.same_club_rounds, 3);
  EXPECT_EQ(back->pairing.max_handicap, 4);
  EXPECT_TRUE(back->pairing.first_round_by_lot);
  EXPECT_EQ(back->pairing.seed, 18446744073709551557u);
}

TEST_F(PairingDeskTest, StoresTheRoundAsGamesAwaitingResultsWithItsAudit) {
  const EventId id = Start(9);
  const size_t audits = repo_.audit().size();
  // A dry run shows the pairing and stores nothing.
  auto dry = Pair(id, 1, {}, /*dry_run=*/true);
  ASSERT_TRUE(dry.ok()) << dry.status();
  EXPECT_FALSE(dry->stored);
  EXPECT_EQ(dry->pairing.boards.size(), 4u);
  EXPECT_TRUE(desk_.Results(id)->games.empty());
  EXPECT_EQ(repo_.audit().size(), audits);

  auto paired = Pair(id, 1);
  ASSERT_TRUE(paired.ok()) << paired.status();
  EXPECT_TRUE(paired->stored);
  EXPECT_EQ(paired->pairing.round, 1);
  EXPECT_EQ(paired->pairing.seed, desk_.Get(id)->pairing.seed);
  // The same event, seed and results give the same pairing.
  ASSERT_EQ(paired->pairing.boards.size(), dry->pairing.boards.size());
  for (size_t i = 0; i < dry->pairing.boards.size(); ++i) {
    EXPECT_EQ(paired->pairing.boards[i].white, dry->pairing.boards[i].white);
    EXPECT_EQ(paired->pairing.boards[i].black, dry->pairing.boards[i].black);
  }

  const EventResults stored = *desk_.Results(id);
  ASSERT_EQ(stored.games.size(), 4u);
  std::set<int> seen;
  for (size_t i = 0; i < stored.games.size(); ++i) {
    const Game& g = stored.games[i];
    const PairedBoard& b = paired->pairing.boards[i];
    EXPECT_EQ(g.round, 1);
    EXPECT_EQ(g.board, b.board);
    EXPECT_EQ(g.black, b.black);
    EXPECT_EQ(g.white, b.white);
    EXPECT_EQ(g.outcome, Outcome::kUnknown);
    EXPECT_TRUE(g.colours_known);
    seen.insert(g.black.value);
    seen.insert(g.white.value);
  }
  ASSERT_EQ(stored.byes.size(), 1u);
  EXPECT_EQ(stored.byes[0].round, 1);
  EXPECT_EQ(stored.byes[0].points, 2);
  seen.insert(stored.byes[0].entrant.value);
  EXPECT_EQ(seen.size(), 9u);  // everyone paired once or given the bye
  // The standings wait for the round's results.
  EXPECT_EQ(desk_.GetStandings(id)->status, StandingsStatus::kPendingResults);

  // One audit entry naming the seed and the decisions; its after is still
  // readable as results.
  ASSERT_EQ(repo_.audit().size(), audits + 1);
  const ChangeRecord c = repo_.audit().back();
  EXPECT_EQ(c.action, "results.pair_round");
  EXPECT_EQ(c.subject, "event:" + std::to_string(id.value));
  const auto j = nlohmann::json::parse(c.after);
  EXPECT_EQ(j["pairing"]["round"], 1);
  EXPECT_EQ(j["pairing"]["seed"].get<uint64_t>(), paired->pairing.seed);
  EXPECT_EQ(j["pairing"]["decisions"].size(), paired->pairing.decisions.size());
  EXPECT_EQ(ResultsFromJson(c.after)->games.size(), 4u);
}

TEST_F(PairingDeskTest, ARoundWithoutResultsIsRepairedInPlace) {
  const EventId id = Start(10);
  ASSERT_TRUE(Pair(id, 1).ok());
  ASSERT_EQ(desk_.Results(id)->games.size(), 5u);
  // Entrant 3 does not come: re-paired without them, a 0-point bye.
  PairingAdjustments adj;
  adj.absent = {EntrantId{3}};
  auto again = Pair(id, 1, adj);
  ASSERT_TRUE(again.ok()) << again.status();
  const EventResults r = *desk_.Results(id);
  EXPECT_EQ(r.games.size(), 4u);  // replaced, not added
  for (const Game& g : r.games) {
    EXPECT_NE(g.black.value, 3);
    EXPECT_NE(g.white.value, 3);
  }
  bool absent_bye = false, full_bye = false;
  for (const Bye& b : r.byes) {
    EXPECT_EQ(b.round, 1);
    if (b.entrant.value == 3) absent_bye = b.points == 0;
    if (b.entrant.value != 3) full_bye = b.points == 2;
  }
  EXPECT_TRUE(absent_bye);
  EXPECT_TRUE(full_bye);  // 9 present: one of them has the bye
  EXPECT_EQ(r.byes.size(), 2u);

  // Round 2 after round 1's results: nobody meets the same opponent.
  ASSERT_NO_FATAL_FAILURE(RecordBlackWins(id, 1));
  auto second = Pair(id, 2);
  ASSERT_TRUE(second.ok()) << second.status();
  std::set<std::pair<int, int>> met;
  for (const Game& g : GamesOf(*desk_.Results(id), 1)) {
    met.insert(std::minmax(g.black.value, g.white.value));
  }
  for (const PairedBoard& b : second->pairing.boards) {
    EXPECT_FALSE(met.count(std::minmax(b.black.value, b.white.value)))
        << b.black.value << "-" << b.white.value;
  }
}

TEST_F(PairingDeskTest, RefusalsLeaveEverythingAsItWas) {
  const EventId id = Start(8, 3);
  ExpectRefused(EventId{id.value + 100}, 1, absl::StatusCode::kNotFound, "");
  ExpectRefused(id, 1, absl::StatusCode::kPermissionDenied, "agency 110", {},
                Operator("130"));
  ExpectRefused(id, 0, absl::StatusCode::kInvalidArgument,
                "round must be 1..3");
  ExpectRefused(id, 4, absl::StatusCode::kInvalidArgument,
                "round must be 1..3");
  PairingAdjustments unknown;
  unknown.byes = {EntrantId{99}};
  ExpectRefused(id, 1, absl::StatusCode::kInvalidArgument, "", unknown);

  // Round 2 cannot be paired while round 1 has games without results.
  ASSERT_TRUE(Pair(id, 1).ok());
  ExpectRefused(id, 2, absl::StatusCode::kFailedPrecondition,
                "earlier games have no result");
  // Once a board of round 1 has a result, round 1 cannot be re-paired.
  ResultsEdit one;
  Game g = desk_.Results(id)->games[0];
  g.outcome = Outcome::kWhiteWins;
  one.set_games.push_back(g);
  ASSERT_TRUE(desk_.Edit(Operator("110"), id, one).ok());
  ExpectRefused(id, 1, absl::StatusCode::kFailedPrecondition,
                "already has results");

  // Not a Swiss.
  Event rr = SwissEvent();
  rr.format = testing::MakeEvent(FormatKind::kRoundRobin).format;
  auto created = desk_.Create(Operator("110"), rr);
  ASSERT_TRUE(created.ok());
  ASSERT_TRUE(
      desk_.SaveResults(Operator("110"), created->id, Entrants(4)).ok());
  ExpectRefused(created->id, 1, absl::StatusCode::kFailedPrecondition,
                "round_robin");

  // A closed event.
  const EventId done = Start(2, 1);
  ASSERT_TRUE(Pair(done, 1).ok());
  ASSERT_NO_FATAL_FAILURE(RecordBlackWins(done, 1));
  ASSERT_TRUE(desk_.Close(Operator("110"), done).ok());
  ExpectRefused(done, 1, absl::StatusCode::kFailedPrecondition, "closed");
}

}  // namespace
}  // namespace gorank::tournaments
