// ClosedEventGames / RecomputeFromEvents over an in-memory EventRepository.
#include "services/ratings/event_ratings.h"

#include <optional>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "services/ratings/event_games.h"
#include "services/ratings/ratings_config.h"
#include "tests/ratings/event_builders.h"
#include "tests/tournaments/fake_event_repository.h"

namespace gorank::ratings {
namespace {

using test_events::G;
using test_events::Player;
using tournaments::EventResults;
using tournaments::Game;
using tournaments::Outcome;

class EventRatingsTest : public ::testing::Test {
 protected:
  // Stores an event ending on `end` with `results`; closes it if asked.
  tournaments::Event Add(Date end, const EventResults& results, bool close) {
    tournaments::Event event;
    event.name = "Open " + std::to_string(++count_);
    event.start = end;
    event.end = end;
    event.format.kind = tournaments::FormatKind::kRoundRobin;
    event.time.time_class = tournaments::TimeClass::kA;
    auto stored = repo_.CreateEvent(event, ChangeRecord{});
    EXPECT_TRUE(stored.ok()) << stored.status();
    EXPECT_TRUE(repo_.SaveResults(stored->id, results, ChangeRecord{}).ok());
    if (close) {
      stored->closed = true;
      EXPECT_TRUE(repo_.UpdateEvent(*stored, ChangeRecord{}).ok());
    }
    return *stored;
  }

  // Players 11 (2d), 12 (1k), 13 (3k); a guest 4.
  static EventResults Results(std::vector<Game> games) {
    EventResults r;
    r.entrants = {Player(1, 11, "2d"), Player(2, 12, "1k"), Player(3, 13, "3k"),
                  Player(4, std::nullopt, "1d")};
    r.games = std::move(games);
    return r;
  }

  tournaments::testing::FakeEventRepository repo_;
  int count_ = 0;
};

TEST_F(EventRatingsTest, RecomputesClosedEventsOnly) {
  const Date day{2026, 5, 1};
  tournaments::Event first = Add(day,
                                 Results({G(1, 1, 2, Outcome::kBlackWins),
                                          G(1, 3, 4, Outcome::kBlackWins)}),
                                 true);
  tournaments::Event second =
      Add(day, Results({G(1, 2, 1, Outcome::kBlackWins)}), true);
  Add(Date{2026, 5, 2}, Results({G(1, 1, 3, Outcome::kWhiteWins)}), false);

  auto games = ClosedEventGames(repo_);
  ASSERT_TRUE(games.ok()) << games.status();
  ASSERT_EQ(games->size(), 2u);  // guest game and open event left out

  const RatingSettings& settings = DefaultRatingsConfig().rating;
  auto book = RecomputeFromEvents(repo_, settings);
  ASSERT_TRUE(book.ok()) << book.status();
  EXPECT_EQ(book->event_count(), 2u);
  EXPECT_EQ(book->player_count(), 2u);
  EXPECT_FALSE(book->Find(PlayerId{13}).has_value());  // only the open event

  // The same games built by hand give a bit-identical table.
  std::vector<RatedGame> expected;
  for (const auto& [event, results] :
       {std::pair{first, Results({G(1, 1, 2, Outcome::kBlackWins)})},
        std::pair{second, Results({G(1, 2, 1, Outcome::kBlackWins)})}}) {
    tournaments::Event closed = event;
    closed.closed = true;
    auto mapped = EventGames(closed, results, closed.id.value);
    ASSERT_TRUE(mapped.ok()) << mapped.status();
    expected.insert(expected.end(), mapped->begin(), mapped->end());
  }
  auto reference = Recompute(settings, expected);
  ASSERT_TRUE(reference.ok()) << reference.status();
  EXPECT_EQ(book->SerializeTable(), reference->SerializeTable());

  // Same-day events are applied in creation (id) order.
  std::vector<RatingChange> history = book->History(PlayerId{11});
  ASSERT_EQ(history.size(), 2u);
  EXPECT_EQ(history[0].event.event_id, std::to_string(first.id.value));
  EXPECT_EQ(history[1].event.event_id, std::to_string(second.id.value));
  EXPECT_GT(history[0].gor_after, history[0].gor_before);  // won
  EXPECT_LT(history[1].gor_after, history[1].gor_before);  // lost
  EXPECT_DOUBLE_EQ(history[1].gor_before, history[0].gor_after);
}

TEST_F(EventRatingsTest, EmptyRepositoryGivesEmptyBook) {
  auto book = RecomputeFromEvents(repo_, DefaultRatingsConfig().rating);
  ASSERT_TRUE(book.ok()) << book.status();
  EXPECT_EQ(book->player_count(), 0u);
  EXPECT_TRUE(book->History(PlayerId{11}).empty());
}

}  // namespace
}  // namespace gorank::ratings
