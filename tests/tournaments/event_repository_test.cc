// Contract of EventRepository, run against the in-memory fake. Storage can
// instantiate the same suite for its SQLite implementation.
#include "services/tournaments/event_repository.h"

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "tests/tournaments/fake_event_repository.h"
#include "tests/tournaments/results_builder.h"

namespace gorank::tournaments {
namespace {

Event NewEvent(const std::string& name, const std::string& start) {
  Event e = testing::MakeEvent(FormatKind::kRoundRobin);
  e.name = name;
  e.start = *Date::Parse(start);
  e.end = e.start;
  e.organiser_prefix = "110";
  e.competition = "city_championship";
  return e;
}

TEST(EventRepositoryContract, CreateGetUpdateList) {
  testing::FakeEventRepository repo;
  auto a = repo.CreateEvent(NewEvent("B event", "2025-06-01"));
  auto b = repo.CreateEvent(NewEvent("A event", "2025-05-01"));
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_NE(a->id, b->id);
  EXPECT_EQ(repo.GetEvent(a->id)->name, "B event");
  Event changed = *a;
  changed.name = "Renamed";
  ASSERT_TRUE(repo.UpdateEvent(changed).ok());
  EXPECT_EQ(repo.GetEvent(a->id)->name, "Renamed");
  auto all = repo.ListEvents(EventFilter{});
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all->size(), 2u);
  EXPECT_EQ((*all)[0].name, "A event");  // by start date
  EventFilter only_june;
  only_june.starts_on_or_after = *Date::Parse("2025-06-01");
  EXPECT_EQ(repo.ListEvents(only_june)->size(), 1u);
}

TEST(EventRepositoryContract, ErrorsAreNotFoundAndInvalidArgument) {
  testing::FakeEventRepository repo;
  EXPECT_EQ(repo.GetEvent(EventId{7}).status().code(),
            absl::StatusCode::kNotFound);
  EXPECT_EQ(repo.GetResults(EventId{7}).status().code(),
            absl::StatusCode::kNotFound);
  Event nameless = NewEvent("", "2025-01-01");
  EXPECT_EQ(repo.CreateEvent(nameless).status().code(),
            absl::StatusCode::kInvalidArgument);
  auto e = repo.CreateEvent(NewEvent("x", "2025-01-01"));
  testing::ResultsBuilder bad;
  bad.Players(2).Win(1, 1, 5);
  EXPECT_EQ(repo.SaveResults(e->id, bad.Build()).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(repo.GetResults(e->id)->entrants.empty());  // nothing stored
}

TEST(EventRepositoryContract, ResultsRoundTripAndPlayerIndex) {
  testing::FakeEventRepository repo;
  auto e = repo.CreateEvent(NewEvent("x", "2025-01-01"));
  testing::ResultsBuilder b;
  b.Players(2).Win(1, 1, 2);
  EventResults r = b.Build();
  r.entrants[0].player_id = 1001;
  ASSERT_TRUE(repo.SaveResults(e->id, r).ok());
  EXPECT_EQ(repo.GetResults(e->id)->games.size(), 1u);
  auto events = repo.EventsOfPlayer(1001);
  ASSERT_TRUE(events.ok());
  ASSERT_EQ(events->size(), 1u);
  EXPECT_EQ((*events)[0], e->id);
  EXPECT_TRUE(repo.EventsOfPlayer(9)->empty());
}

}  // namespace
}  // namespace gorank::tournaments
