// The contract of EventRepository as a value-parameterised suite: every
// implementation (the in-memory fake, SQLite, PostgreSQL) instantiates it
// with a factory of fresh, empty repositories, named for the implementation:
//
//   INSTANTIATE_TEST_SUITE_P(Fake, EventRepositoryContract,
//                            ::testing::Values(MakeFakeBackend));
//
// Besides the answers it checks the audit trail: one entry per successful
// mutation, none for a refused one.
#ifndef GORANK_TESTS_TOURNAMENTS_EVENT_REPOSITORY_CONTRACT_H_
#define GORANK_TESTS_TOURNAMENTS_EVENT_REPOSITORY_CONTRACT_H_

#include <functional>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "services/tournaments/event_repository.h"
#include "tests/tournaments/results_builder.h"

namespace gorank::tournaments::testing {

struct EventBackend {
  std::shared_ptr<EventRepository> repo;
  // Number of audit entries written so far.
  std::function<int64_t()> audit_count;
  // Registers a player in the backend's registry (when it has one) and
  // returns the id an entrant may name.
  std::function<int64_t()> add_player;
  // Not empty: this implementation cannot run here, and the case skips
  // with this reason (the PostgreSQL one outside ctest's pg. run).
  std::string skip;
};
using EventBackendFactory = EventBackend (*)();

class EventRepositoryContract
    : public ::testing::TestWithParam<EventBackendFactory> {
 protected:
  void SetUp() override {
    backend_ = GetParam()();
    if (!backend_.skip.empty()) GTEST_SKIP() << backend_.skip;
    repo_ = backend_.repo.get();
  }
  static Event NewEvent(const std::string& name, const std::string& start) {
    Event e = MakeEvent(FormatKind::kRoundRobin);
    e.name = name;
    e.start = *Date::Parse(start);
    e.end = e.start;
    e.organiser_prefix = "110";
    e.competition = "city_championship";
    return e;
  }
  static ChangeRecord Change(const std::string& action) {
    return ChangeRecord{1717200000, "national/token:1", action, "event:?", "",
                        "{}"};
  }
  int64_t Audits() const { return backend_.audit_count(); }

  EventBackend backend_;
  EventRepository* repo_ = nullptr;
};

TEST_P(EventRepositoryContract, CreateGetUpdateList) {
  auto a = repo_->CreateEvent(NewEvent("B event", "2025-06-01"),
                              Change("event.create"));
  auto b = repo_->CreateEvent(NewEvent("A event", "2025-05-01"),
                              Change("event.create"));
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_NE(a->id, b->id);
  EXPECT_EQ(repo_->GetEvent(a->id)->name, "B event");
  Event changed = *a;
  changed.name = "Renamed";
  changed.format.kind = FormatKind::kSwiss;
  changed.format.rounds = 7;
  changed.time.time_class = TimeClass::kB;
  changed.shared_places_allowed = false;
  ASSERT_TRUE(repo_->UpdateEvent(changed, Change("event.update")).ok());
  auto got = repo_->GetEvent(a->id);
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(got->name, "Renamed");
  EXPECT_EQ(got->format.kind, FormatKind::kSwiss);
  EXPECT_EQ(got->format.rounds, 7);
  EXPECT_EQ(got->time.time_class, TimeClass::kB);
  EXPECT_FALSE(got->shared_places_allowed);
  auto all = repo_->ListEvents(EventFilter{});
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all->size(), 2u);
  EXPECT_EQ((*all)[0].name, "A event");  // by start date
  EventFilter only_june;
  only_june.starts_on_or_after = *Date::Parse("2025-06-01");
  EXPECT_EQ(repo_->ListEvents(only_june)->size(), 1u);
  EventFilter other_agency;
  other_agency.organiser_prefix = "130";
  EXPECT_TRUE(repo_->ListEvents(other_agency)->empty());
  EXPECT_EQ(Audits(), 3);
}

// Newest first: start date, then id, both descending; the keyset continues
// after (before, in time) the last event given.
TEST_P(EventRepositoryContract, ListsNewestFirst) {
  std::vector<int64_t> ids;
  for (const char* day : {"2025-03-01", "2025-05-01", "2025-03-01"}) {
    auto e = repo_->CreateEvent(NewEvent("E", day), Change("event.create"));
    ASSERT_TRUE(e.ok()) << e.status();
    ids.push_back(e->id.value);
  }
  EventFilter f;
  f.newest_first = true;
  auto all = repo_->ListEvents(f);
  ASSERT_TRUE(all.ok()) << all.status();
  std::vector<int64_t> order;
  for (const Event& e : *all) order.push_back(e.id.value);
  EXPECT_EQ(order, (std::vector<int64_t>{ids[1], ids[2], ids[0]}));
  f.after_start = *Date::Parse("2025-03-01");
  f.after_id = ids[2];
  auto rest = repo_->ListEvents(f);
  ASSERT_TRUE(rest.ok()) << rest.status();
  ASSERT_EQ(rest->size(), 1u);
  EXPECT_EQ((*rest)[0].id.value, ids[0]);
  f.after_start = *Date::Parse("2025-05-01");
  f.after_id = ids[1];
  f.limit = 1;
  rest = repo_->ListEvents(f);
  ASSERT_TRUE(rest.ok()) << rest.status();
  ASSERT_EQ(rest->size(), 1u);
  EXPECT_EQ((*rest)[0].id.value, ids[2]);
}

// The player filter (events the registered player entered) and the name
// filter (a part of the name, ASCII letters in any case, LIKE's wildcards
// taken as characters) combine with the order and the keyset.
TEST_P(EventRepositoryContract, ListsByPlayerAndByPartOfTheName) {
  const registry::PlayerId player{backend_.add_player()};
  std::vector<int64_t> ids;
  const char* const names[] = {"Spring Cup 100%", "Autumn cup", "春季杯"};
  const char* const days[] = {"2025-03-01", "2025-04-01", "2025-05-01"};
  for (int i = 0; i < 3; ++i) {
    auto e =
        repo_->CreateEvent(NewEvent(names[i], days[i]), Change("event.create"));
    ASSERT_TRUE(e.ok()) << e.status();
    ids.push_back(e->id.value);
  }
  for (int i : {0, 2}) {
    EventResults r = ResultsBuilder().Players(2).Win(1, 1, 2).Build();
    r.entrants[0].player_id = player;
    ASSERT_TRUE(
        repo_->SaveResults(EventId{ids[i]}, r, Change("results.save")).ok());
  }
  auto list = [&](EventFilter f) {
    std::vector<int64_t> out;
    auto got = repo_->ListEvents(f);
    EXPECT_TRUE(got.ok()) << got.status();
    if (got.ok()) {
      for (const Event& e : *got) out.push_back(e.id.value);
    }
    return out;
  };
  EventFilter f;
  f.player = player;
  EXPECT_EQ(list(f), (std::vector<int64_t>{ids[0], ids[2]}));
  f.newest_first = true;
  EXPECT_EQ(list(f), (std::vector<int64_t>{ids[2], ids[0]}));
  f.limit = 1;
  EXPECT_EQ(list(f), (std::vector<int64_t>{ids[2]}));
  f.player = registry::PlayerId{player.value + 1000};
  EXPECT_TRUE(list(f).empty());
  EventFilter n;
  n.name_contains = "CUP";
  EXPECT_EQ(list(n), (std::vector<int64_t>{ids[0], ids[1]}));
  n.name_contains = "autumn";
  EXPECT_EQ(list(n), (std::vector<int64_t>{ids[1]}));
  n.name_contains = "季";
  EXPECT_EQ(list(n), (std::vector<int64_t>{ids[2]}));
  n.name_contains = "0%";
  EXPECT_EQ(list(n), (std::vector<int64_t>{ids[0]}));
  n.name_contains = "p_C";
  EXPECT_TRUE(list(n).empty()) << "_ is no wildcard";
  n.name_contains = "cup";
  n.player = player;
  EXPECT_EQ(list(n), (std::vector<int64_t>{ids[0]}));
}

TEST_P(EventRepositoryContract, ErrorsAreNotFoundAndInvalidArgument) {
  EXPECT_EQ(repo_->GetEvent(EventId{7}).status().code(),
            absl::StatusCode::kNotFound);
  EXPECT_EQ(repo_->GetResults(EventId{7}).status().code(),
            absl::StatusCode::kNotFound);
  Event ghost = NewEvent("ghost", "2025-01-01");
  ghost.id = EventId{7};
  EXPECT_EQ(repo_->UpdateEvent(ghost, Change("event.update")).code(),
            absl::StatusCode::kNotFound);
  Event nameless = NewEvent("", "2025-01-01");
  EXPECT_EQ(
      repo_->CreateEvent(nameless, Change("event.create")).status().code(),
      absl::StatusCode::kInvalidArgument);
  auto e =
      repo_->CreateEvent(NewEvent("x", "2025-01-01"), Change("event.create"));
  ASSERT_TRUE(e.ok());
  ResultsBuilder bad;
  bad.Players(2).Win(1, 1, 5);
  EXPECT_EQ(
      repo_->SaveResults(e->id, bad.Build(), Change("results.save")).code(),
      absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(repo_->GetResults(e->id)->entrants.empty());  // nothing stored
  EXPECT_EQ(Audits(), 1);                                   // only the creation
}

TEST_P(EventRepositoryContract, ResultsRoundTripAndPlayerIndex) {
  auto e =
      repo_->CreateEvent(NewEvent("x", "2025-01-01"), Change("event.create"));
  ASSERT_TRUE(e.ok());
  const registry::PlayerId player{backend_.add_player()};
  ResultsBuilder b;
  b.Players(3).Win(1, 1, 2).Warnings(1, 0).ForfeitWin(2, 3, 1).Draw(3, 2, 3);
  EventResults r = b.Build();
  r.entrants[0].player_id = player;
  r.entrants[1].withdrawn_after_round = 2;
  r.entrants[2].egd_pin = "12345678";
  r.games[0].handicap = 2;
  r.games[0].komi_x2 = 1;
  ASSERT_TRUE(repo_->SaveResults(e->id, r, Change("results.save")).ok());
  auto got = repo_->GetResults(e->id);
  ASSERT_TRUE(got.ok());
  ASSERT_EQ(got->entrants.size(), 3u);
  EXPECT_EQ(got->entrants[0].player_id,
            std::optional<registry::PlayerId>(player));
  EXPECT_EQ(got->entrants[1].player_id, std::nullopt);
  EXPECT_EQ(got->entrants[1].withdrawn_after_round, std::optional<int>(2));
  EXPECT_EQ(got->entrants[2].egd_pin, "12345678");
  EXPECT_EQ(got->entrants[2].rank->ToString(), "1d");
  ASSERT_EQ(got->games.size(), 3u);
  EXPECT_EQ(got->games[0].black_warnings, 1);
  EXPECT_EQ(got->games[0].handicap, 2);
  EXPECT_EQ(got->games[0].komi_x2, std::optional<int>(1));
  EXPECT_TRUE(got->games[1].forfeit);
  EXPECT_EQ(got->games[2].outcome, Outcome::kDraw);
  auto events = repo_->EventsOfPlayer(player);
  ASSERT_TRUE(events.ok());
  ASSERT_EQ(events->size(), 1u);
  EXPECT_EQ((*events)[0], e->id);
  EXPECT_TRUE(
      repo_->EventsOfPlayer(registry::PlayerId{player.value + 1000})->empty());
  // A second save replaces the whole: player 1001 is gone.
  r.entrants[0].player_id.reset();
  ASSERT_TRUE(repo_->SaveResults(e->id, r, Change("results.save")).ok());
  EXPECT_TRUE(repo_->EventsOfPlayer(player)->empty());
  EXPECT_EQ(Audits(), 3);
}

TEST_P(EventRepositoryContract, ClosedEventNeverChanges) {
  auto e =
      repo_->CreateEvent(NewEvent("x", "2025-01-01"), Change("event.create"));
  ASSERT_TRUE(e.ok());
  ResultsBuilder b;
  b.Players(2).Win(1, 1, 2);
  ASSERT_TRUE(
      repo_->SaveResults(e->id, b.Build(), Change("results.save")).ok());
  Event closed = *e;
  closed.closed = true;
  ASSERT_TRUE(repo_->UpdateEvent(closed, Change("event.close")).ok());
  EXPECT_TRUE(repo_->GetEvent(e->id)->closed);
  EXPECT_EQ(repo_->SaveResults(e->id, b.Build(), Change("results.save")).code(),
            absl::StatusCode::kFailedPrecondition);
  closed.closed = false;
  EXPECT_EQ(repo_->UpdateEvent(closed, Change("event.update")).code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_TRUE(repo_->GetEvent(e->id)->closed);
  EXPECT_EQ(Audits(), 3);
}

// The one change a closed event takes: the decision of a tie (the desk
// checks that the tie was pending); anything else with it is refused.
TEST_P(EventRepositoryContract, ClosedEventTakesOnlyATieDecision) {
  auto e =
      repo_->CreateEvent(NewEvent("x", "2025-01-01"), Change("event.create"));
  ASSERT_TRUE(e.ok());
  ResultsBuilder b;
  b.Players(3).Draw(1, 1, 2);
  ASSERT_TRUE(
      repo_->SaveResults(e->id, b.Build(), Change("results.save")).ok());
  Event closed = *e;
  closed.closed = true;
  ASSERT_TRUE(repo_->UpdateEvent(closed, Change("event.close")).ok());
  EventResults decided = b.Build();
  decided.tie_decisions.push_back({TieDecisionMethod::kLots, {2, 1}});
  EventResults more = decided;
  more.games[0].outcome = Outcome::kBlackWins;
  EXPECT_EQ(repo_->SaveResults(e->id, more, Change("results.edit")).code(),
            absl::StatusCode::kFailedPrecondition);
  ASSERT_TRUE(repo_->SaveResults(e->id, decided, Change("results.edit")).ok());
  EXPECT_EQ(repo_->GetResults(e->id)->tie_decisions.size(), 1u);
  EXPECT_EQ(repo_->GetResults(e->id)->games[0].outcome, Outcome::kDraw);
  EXPECT_EQ(Audits(), 4);
}

}  // namespace gorank::tournaments::testing

#endif  // GORANK_TESTS_TOURNAMENTS_EVENT_REPOSITORY_CONTRACT_H_
