// EventGames: the adapter from closed tournament events to rated games.
#include "services/ratings/event_games.h"

#include <optional>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/ratings/event_builders.h"

namespace gorank::ratings {
namespace {

using test_events::G;
using test_events::Player;
using ::testing::HasSubstr;
using tournaments::EntrantId;
using tournaments::EventResults;
using tournaments::Game;
using tournaments::Outcome;

tournaments::Event ClosedEvent() {
  tournaments::Event event;
  event.id = tournaments::EventId{42};
  event.name = "Spring Open";
  event.start = Date{2026, 3, 7};
  event.end = Date{2026, 3, 8};
  event.format.kind = tournaments::FormatKind::kSwiss;
  event.format.rounds = 3;
  event.time.time_class = tournaments::TimeClass::kB;
  event.rules.komi_x2 = 13;
  event.closed = true;
  return event;
}

// Entrants 1..3 registered (players 101..103), entrant 4 a guest.
EventResults FourEntrants() {
  EventResults r;
  r.entrants = {Player(1, 101, "3d"), Player(2, 102, "1k"),
                Player(3, 103, "5k"), Player(4, std::nullopt, "2d")};
  return r;
}

TEST(EventGamesTest, MapsIdsDateClassRanksAndKomi) {
  EventResults r = FourEntrants();
  r.games = {G(2, 3, 1, Outcome::kWhiteWins), G(1, 1, 2, Outcome::kBlackWins),
             G(1, 3, 4, Outcome::kDraw), G(2, 2, 4, Outcome::kDraw)};
  r.games[0].komi_x2 = 0;
  r.games[0].handicap = 3;
  auto games = EventGames(ClosedEvent(), r, 5);
  ASSERT_TRUE(games.ok()) << games.status();
  ASSERT_EQ(games->size(), 2u);  // the two games against the guest dropped
  const RatedGame& first = (*games)[0];
  EXPECT_EQ(first.event_id, "42");
  EXPECT_EQ(first.event_date, (Date{2026, 3, 8}));
  EXPECT_EQ(first.event_order, 5);
  EXPECT_EQ(first.time_class, TimeClass::kB);
  EXPECT_EQ(first.game_id, 1001);
  EXPECT_EQ(first.black, PlayerId{101});
  EXPECT_EQ(first.white, PlayerId{102});
  EXPECT_EQ(first.black_rank, registry::Rank::FromString("3d"));
  EXPECT_EQ(first.white_rank, registry::Rank::FromString("1k"));
  EXPECT_EQ(first.result, GameResult::kBlackWin);
  EXPECT_DOUBLE_EQ(first.komi, 6.5);
  EXPECT_EQ(first.handicap, 0);
  EXPECT_TRUE(first.IsRated());
  const RatedGame& second = (*games)[1];
  EXPECT_EQ(second.game_id, 2001);  // first game listed for round 2
  EXPECT_EQ(second.black, PlayerId{103});
  EXPECT_EQ(second.result, GameResult::kWhiteWin);
  EXPECT_DOUBLE_EQ(second.komi, 0.0);
  EXPECT_EQ(second.handicap, 3);
}

TEST(EventGamesTest, GameIdsCountGamesInsideEachRound) {
  EventResults r = FourEntrants();
  r.games = {G(1, 1, 2, Outcome::kBlackWins), G(1, 3, 4, Outcome::kDraw),
             G(1, 2, 3, Outcome::kDraw), G(3, 1, 3, Outcome::kWhiteWins)};
  auto games = EventGames(ClosedEvent(), r);
  ASSERT_TRUE(games.ok()) << games.status();
  std::vector<int64_t> ids;
  for (const RatedGame& g : *games) ids.push_back(g.game_id);
  EXPECT_THAT(ids, ::testing::ElementsAre(1001, 1003, 3001));
  auto grouped = GroupIntoEvents(*games);
  ASSERT_TRUE(grouped.ok()) << grouped.status();
  ASSERT_EQ(grouped->size(), 1u);
  EXPECT_EQ((*grouped)[0].key.event_id, "42");
}

struct OutcomeCase {
  Outcome outcome;
  bool forfeit;
  GameResult result;
  bool rated;
};

TEST(EventGamesTest, OutcomesAndForfeits) {
  const OutcomeCase cases[] = {
      {Outcome::kBlackWins, false, GameResult::kBlackWin, true},
      {Outcome::kWhiteWins, false, GameResult::kWhiteWin, true},
      {Outcome::kDraw, false, GameResult::kJigo, true},
      {Outcome::kUnknown, false, GameResult::kNoResult, false},
      {Outcome::kBothLose, true, GameResult::kNoResult, false},
      {Outcome::kBlackWins, true, GameResult::kBlackWin, false},
  };
  for (const OutcomeCase& c : cases) {
    EventResults r = FourEntrants();
    r.games = {G(1, 1, 2, c.outcome)};
    r.games[0].forfeit = c.forfeit;
    auto games = EventGames(ClosedEvent(), r);
    ASSERT_TRUE(games.ok()) << games.status();
    ASSERT_EQ(games->size(), 1u);
    EXPECT_EQ((*games)[0].result, c.result);
    EXPECT_EQ((*games)[0].forfeit, c.forfeit);
    EXPECT_EQ((*games)[0].IsRated(), c.rated);
  }
}

TEST(EventGamesTest, ByesAreNotReturned) {
  EventResults r = FourEntrants();
  r.games = {G(1, 1, 2, Outcome::kBlackWins)};
  r.byes = {tournaments::Bye{1, EntrantId{3}, std::nullopt, 2}};
  auto games = EventGames(ClosedEvent(), r);
  ASSERT_TRUE(games.ok()) << games.status();
  EXPECT_EQ(games->size(), 1u);
}

TEST(EventGamesTest, TimeClassMapping) {
  EXPECT_EQ(RatingTimeClass(tournaments::TimeClass::kA), TimeClass::kA);
  EXPECT_EQ(RatingTimeClass(tournaments::TimeClass::kB), TimeClass::kB);
  EXPECT_EQ(RatingTimeClass(tournaments::TimeClass::kC), TimeClass::kC);
  EXPECT_EQ(RatingTimeClass(tournaments::TimeClass::kD), TimeClass::kD);
  EXPECT_EQ(RatingTimeClass(tournaments::TimeClass::kX), std::nullopt);
  EXPECT_EQ(RatingTimeClass(tournaments::TimeClass::kUnspecified),
            std::nullopt);
}

TEST(EventGamesTest, ClassXEventYieldsNoGames) {
  tournaments::Event event = ClosedEvent();
  event.time.time_class = tournaments::TimeClass::kX;
  EventResults r = FourEntrants();
  r.games = {G(1, 1, 2, Outcome::kBlackWins)};
  auto games = EventGames(event, r);
  ASSERT_TRUE(games.ok()) << games.status();
  EXPECT_TRUE(games->empty());
}

TEST(EventGamesTest, StartDateWhenNoEndDate) {
  tournaments::Event event = ClosedEvent();
  event.end = Date{};
  EventResults r = FourEntrants();
  r.games = {G(1, 1, 2, Outcome::kBlackWins)};
  auto games = EventGames(event, r);
  ASSERT_TRUE(games.ok()) << games.status();
  EXPECT_EQ((*games)[0].event_date, (Date{2026, 3, 7}));
}

TEST(EventGamesTest, OpenEventRefused) {
  tournaments::Event event = ClosedEvent();
  event.closed = false;
  auto games = EventGames(event, FourEntrants());
  EXPECT_EQ(games.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(games.status().message(), HasSubstr("event 42 is not closed"));
}

TEST(EventGamesTest, BadInputRefused) {
  struct Case {
    std::string name;
    Game game;
    std::string message;
  };
  Game unknown = G(1, 1, 9, Outcome::kBlackWins);
  Game round0 = G(0, 1, 2, Outcome::kBlackWins);
  Game handicap = G(1, 1, 2, Outcome::kBlackWins);
  handicap.handicap = 12;
  const Case cases[] = {
      {"unknown entrant", unknown, "entrant 9 is not among"},
      {"round 0", round0, "rounds start at 1"},
      {"handicap 12", handicap, "handicap"},
  };
  for (const Case& c : cases) {
    EventResults r = FourEntrants();
    r.games = {c.game};
    auto games = EventGames(ClosedEvent(), r);
    EXPECT_EQ(games.status().code(), absl::StatusCode::kInvalidArgument)
        << c.name;
    EXPECT_THAT(games.status().message(), HasSubstr(c.message)) << c.name;
  }
  tournaments::Event no_dates = ClosedEvent();
  no_dates.start = Date{};
  no_dates.end = Date{};
  EXPECT_EQ(EventGames(no_dates, FourEntrants()).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(EventGamesTest, SamePlayerOnBothSidesRefused) {
  EventResults r = FourEntrants();
  r.entrants[1].player_id =
      registry::PlayerId{101};  // entrant 2 is also player 101
  r.games = {G(1, 1, 2, Outcome::kBlackWins)};
  EXPECT_EQ(EventGames(ClosedEvent(), r).status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace gorank::ratings
