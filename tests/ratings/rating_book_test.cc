#include "services/ratings/rating_book.h"

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/ratings/game_builder.h"
#include "tests/ratings/synthetic_games.h"

namespace gorank::ratings {
namespace {

using testing::D;
using testing::GameBuilder;
using ::testing::HasSubstr;
using testing::SyntheticGames;

std::vector<RatedGame> SmallHistory() {
  return {
      GameBuilder("spring", D(2023, 4, 2), 1)
          .Black(1, "1d")
          .White(2, "2d")
          .WhiteWins(),
      GameBuilder("spring", D(2023, 4, 2), 2)
          .Black(3, "3k")
          .White(1, "1d")
          .Jigo(),
      GameBuilder("spring", D(2023, 4, 2), 3)
          .Black(2, "2d")
          .White(3, "3k")
          .Forfeit()
          .BlackWins(),
      GameBuilder("autumn", D(2023, 10, 8), 1)
          .Black(1, "1d")
          .White(3, "3k")
          .BlackWins(),
      GameBuilder("autumn", D(2023, 10, 8), 2).Black(4, "5k").Bye(),
  };
}

TEST(RatingBook, UnratedGamesChangeNothingAndAreNotCounted) {
  absl::StatusOr<RatingBook> book =
      Recompute({}, {GameBuilder("x", D(2022, 1, 1), 1)
                         .Black(1, "1d")
                         .White(2, "1d")
                         .Forfeit()
                         .BlackWins(),
                     GameBuilder("x", D(2022, 1, 1), 2)
                         .Black(1, "1d")
                         .White(2, "1d")
                         .Fast()
                         .BlackWins(),
                     GameBuilder("x", D(2022, 1, 1), 3).Black(1, "1d").Bye(),
                     GameBuilder("x", D(2022, 1, 1), 4)
                         .Black(1, "1d")
                         .White(2, "1d")});  // no result
  ASSERT_TRUE(book.ok()) << book.status();
  EXPECT_EQ(book->player_count(), 0u);
  EXPECT_EQ(book->event_count(), 1u);
  EXPECT_FALSE(book->Find(PlayerId{1}).has_value());
}

TEST(RatingBook, HistoryPerPlayer) {
  absl::StatusOr<RatingBook> book = Recompute({}, SmallHistory());
  ASSERT_TRUE(book.ok()) << book.status();
  const std::vector<RatingChange> h = book->History(PlayerId{1});
  ASSERT_EQ(h.size(), 2u);
  EXPECT_EQ(h[0].event.event_id, "spring");
  EXPECT_DOUBLE_EQ(h[0].gor_before, 2100);
  EXPECT_EQ(h[0].games, 2);
  EXPECT_EQ(h[1].event.event_id, "autumn");
  EXPECT_DOUBLE_EQ(h[1].gor_before, h[0].gor_after);
  EXPECT_EQ(h[1].games, 1);
  EXPECT_FALSE(h[0].pro_before.has_value());
  const PlayerRating p = *book->Find(PlayerId{1});
  EXPECT_DOUBLE_EQ(p.gor, h[1].gor_after);
  EXPECT_EQ(p.rated_games, 3);
  EXPECT_EQ(p.rated_events, 2);
  EXPECT_EQ(p.Grade(), registry::Rank::FromString("1d"));
  // Player 4 only had a bye: not in the book.
  EXPECT_TRUE(book->History(PlayerId{4}).empty());
  EXPECT_EQ(book->player_count(), 3u);
}

TEST(RatingBook, CanonicalTableFormat) {
  absl::StatusOr<RatingBook> book =
      Recompute({}, {GameBuilder("e", D(2021, 1, 1), 1)
                         .Black(7, "1d")
                         .White(3, "1d")
                         .BlackWins()});
  ASSERT_TRUE(book.ok());
  EXPECT_EQ(book->SerializeTable(),
            "gorank-rating-table v1\n"
            "system egf2021 floor=-900 weights=1,0.75,0.5,0.25 weight_bonus=1\n"
            "pro elo k=16 seed_1p=2240 seed_per_dan=40\n"
            "events 1 last=2021-01-01#0#e\n"
            "players 2\n"
            "3\t2091.725309792108\t1\t1\t-\t0\n"
            "7\t2109.306246101609\t1\t1\t-\t0\n");
  EXPECT_EQ(book->SerializeHistory(),
            "gorank-rating-history v1\n"
            "3\te\t2021-01-01\t0\t2100\t2091.725309792108\t1\t-\t-\t0\n"
            "7\te\t2021-01-01\t0\t2100\t2109.306246101609\t1\t-\t-\t0\n");
}

TEST(RatingBook, RecomputeIsDeterministicWhateverTheInputOrder) {
  std::vector<RatedGame> games = SyntheticGames(300, 4000, 42);
  absl::StatusOr<RatingBook> a = Recompute({}, games);
  ASSERT_TRUE(a.ok()) << a.status();
  std::mt19937_64 rng(7);
  std::shuffle(games.begin(), games.end(), rng);
  absl::StatusOr<RatingBook> b = Recompute({}, games);
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(a->SerializeTable(), b->SerializeTable());
  EXPECT_EQ(a->SerializeHistory(), b->SerializeHistory());
  EXPECT_EQ(a->Table(), b->Table());
  EXPECT_GT(a->player_count(), 250u);
}

TEST(RatingBook, IncrementalEqualsFullRecompute) {
  const std::vector<RatedGame> games = SyntheticGames(300, 4000, 43);
  absl::StatusOr<RatingBook> full = Recompute({}, games);
  ASSERT_TRUE(full.ok()) << full.status();
  absl::StatusOr<std::vector<RatedEvent>> events = GroupIntoEvents(games);
  ASSERT_TRUE(events.ok());
  RatingBook incremental(RatingSettings{});
  for (const RatedEvent& event : *events) {
    // As the lead would: the games of one event, when it closes.
    ASSERT_TRUE(incremental.ApplyGames(event.games).ok());
  }
  EXPECT_EQ(incremental.SerializeTable(), full->SerializeTable());
  EXPECT_EQ(incremental.SerializeHistory(), full->SerializeHistory());
  for (int64_t id = 1; id <= 300; ++id) {
    ASSERT_EQ(incremental.History(PlayerId{id}), full->History(PlayerId{id}))
        << id;
  }
}

// What rankd stores of a book (RatingRepository's snapshot) restores it:
// the same table and history, and the events after it apply as they would
// to the original (issue #19 item 5: no recompute at start).
TEST(RatingBook, RestoredBookEqualsTheOriginalAndGoesOnTheSame) {
  const std::vector<RatedGame> games = SyntheticGames(300, 4000, 44);
  absl::StatusOr<std::vector<RatedEvent>> events = GroupIntoEvents(games);
  ASSERT_TRUE(events.ok());
  RatingBook original(RatingSettings{});
  ASSERT_TRUE(original.SetStart(PlayerId{999}, 2100.0, 2500.0).ok());
  const size_t half = events->size() / 2;
  for (size_t i = 0; i < half; ++i) {
    ASSERT_TRUE(original.ApplyEvent((*events)[i]).ok());
  }
  std::vector<std::pair<PlayerId, RatingChange>> history;
  for (const PlayerRating& r : original.Table()) {
    for (RatingChange& c : original.History(r.player)) {
      history.emplace_back(r.player, std::move(c));
    }
  }
  absl::StatusOr<RatingBook> restored = RatingBook::Restore(
      RatingSettings{}, original.events(), original.Table(), history);
  ASSERT_TRUE(restored.ok()) << restored.status();
  EXPECT_EQ(restored->SerializeTable(), original.SerializeTable());
  EXPECT_EQ(restored->SerializeHistory(), original.SerializeHistory());
  EXPECT_TRUE(restored->HasEvent((*events)[0].key.event_id));
  for (size_t i = half; i < events->size(); ++i) {
    ASSERT_TRUE(original.ApplyEvent((*events)[i]).ok());
    ASSERT_TRUE(restored->ApplyEvent((*events)[i]).ok());
  }
  EXPECT_EQ(restored->SerializeTable(), original.SerializeTable());
  EXPECT_EQ(restored->SerializeHistory(), original.SerializeHistory());
  EXPECT_EQ(restored->Find(PlayerId{999}), original.Find(PlayerId{999}));

  // A change naming an event that is not stored, or a player twice.
  history.emplace_back(PlayerId{1}, RatingChange{});
  EXPECT_EQ(
      RatingBook::Restore(RatingSettings{}, {}, {}, history).status().code(),
      absl::StatusCode::kInvalidArgument);
  std::vector<PlayerRating> twice = {PlayerRating{PlayerId{1}},
                                     PlayerRating{PlayerId{1}}};
  EXPECT_EQ(
      RatingBook::Restore(RatingSettings{}, {}, twice, {}).status().code(),
      absl::StatusCode::kInvalidArgument);
}

TEST(RatingBook, SameDayEventsAreOrderedByOrderThenId) {
  const auto game = [](const std::string& id, int64_t order, int black,
                       int white) {
    return GameBuilder(id, D(2024, 6, 1), 1)
        .Order(order)
        .Black(black, "3k")
        .White(white, "3k")
        .BlackWins();
  };
  absl::StatusOr<RatingBook> book = Recompute(
      {}, {game("b", 0, 2, 1), game("a", 0, 1, 2), game("c", 1, 2, 1)});
  ASSERT_TRUE(book.ok());
  const std::vector<RatingChange> h = book->History(PlayerId{1});
  ASSERT_EQ(h.size(), 3u);
  EXPECT_EQ(h[0].event.event_id, "a");
  EXPECT_EQ(h[1].event.event_id, "b");
  EXPECT_EQ(h[2].event.event_id, "c");
}

TEST(RatingBook, BackDatedOrRepeatedEventIsRefusedAndChangesNothing) {
  RatingBook book(RatingSettings{});
  ASSERT_TRUE(book.ApplyGames(SmallHistory()).ok());
  const std::string before = book.SerializeTable();
  absl::Status s = book.ApplyGames({GameBuilder("summer", D(2023, 7, 1), 1)
                                        .Black(1, "1d")
                                        .White(2, "2d")
                                        .BlackWins()});
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(s.message(), HasSubstr("full recompute"));
  s = book.ApplyGames({GameBuilder("spring", D(2024, 1, 1), 1)
                           .Black(1, "1d")
                           .White(2, "2d")
                           .BlackWins()});
  EXPECT_EQ(s.code(), absl::StatusCode::kAlreadyExists);
  EXPECT_EQ(book.SerializeTable(), before);
}

TEST(RatingBook, NewPlayerWithoutDeclaredRankIsRefused) {
  RatingBook book(RatingSettings{});
  absl::Status s = book.ApplyGames(
      {GameBuilder("e", D(2023, 1, 1), 1).Black(1, "1d").White(9).BlackWins()});
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("player 9"));
  EXPECT_EQ(book.event_count(), 0u);
  EXPECT_EQ(book.player_count(), 0u);
  // A player already rated needs no declared rank.
  ASSERT_TRUE(book.ApplyGames({GameBuilder("e", D(2023, 1, 1), 1)
                                   .Black(1, "1d")
                                   .White(9, "2k")
                                   .BlackWins()})
                  .ok());
  ASSERT_TRUE(book.ApplyGames({GameBuilder("f", D(2023, 2, 1), 1)
                                   .Black(1)
                                   .White(9)
                                   .BlackWins()})
                  .ok());
  EXPECT_EQ(book.Find(PlayerId{9})->rated_games, 2);
}

TEST(RatingBook, SeedRatingOnlyForNewPlayers) {
  RatingBook book(RatingSettings{});
  EXPECT_TRUE(book.SeedRating(PlayerId{5}, 1234.5).ok());
  EXPECT_EQ(book.SeedRating(PlayerId{5}, 1000).code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(book.SeedRating(PlayerId{6}, -901).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(book.SeedRating(PlayerId{0}, 100).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_DOUBLE_EQ(book.Find(PlayerId{5})->gor, 1234.5);
}

TEST(RatingBook, BadGamesAreInvalidArgument) {
  struct Case {
    const char* name;
    RatedGame game;
    const char* message;
  };
  RatedGame inconsistent = GameBuilder("e", D(2023, 1, 1), 2)
                               .Black(3, "1d")
                               .White(4, "1d")
                               .Class(TimeClass::kB)
                               .BlackWins();
  const Case cases[] = {
      {"self",
       GameBuilder("e", D(2023, 1, 1), 1)
           .Black(1, "1d")
           .White(1, "1d")
           .BlackWins(),
       "themself"},
      {"handicap",
       GameBuilder("e", D(2023, 1, 1), 1)
           .Black(1, "1d")
           .White(2, "1d")
           .Handicap(10)
           .BlackWins(),
       "handicap 10"},
      {"date",
       GameBuilder("e", D(2023, 2, 30), 1)
           .Black(1, "1d")
           .White(2, "1d")
           .BlackWins(),
       "calendar date"},
      {"no event",
       GameBuilder("", D(2023, 1, 1), 1)
           .Black(1, "1d")
           .White(2, "1d")
           .BlackWins(),
       "no event_id"},
      {"no white",
       GameBuilder("e", D(2023, 1, 1), 1).Black(1, "1d").BlackWins(),
       "two players"},
      {"class", inconsistent, "time class"},
  };
  for (const Case& c : cases) {
    std::vector<RatedGame> games = {GameBuilder("e", D(2023, 1, 1), 1)
                                        .Black(5, "1d")
                                        .White(6, "1d")
                                        .BlackWins()};
    if (std::string(c.name) == "class") {
      games.push_back(c.game);
    } else {
      games = {c.game};
    }
    absl::StatusOr<RatingBook> book = Recompute({}, games);
    EXPECT_EQ(book.status().code(), absl::StatusCode::kInvalidArgument)
        << c.name;
    EXPECT_THAT(book.status().message(), HasSubstr(c.message)) << c.name;
  }
  absl::StatusOr<std::vector<RatedEvent>> dup =
      GroupIntoEvents({GameBuilder("e", D(2023, 1, 1), 1)
                           .Black(1, "1d")
                           .White(2, "1d")
                           .BlackWins(),
                       GameBuilder("e", D(2023, 1, 1), 1)
                           .Black(3, "1d")
                           .White(4, "1d")
                           .BlackWins()});
  EXPECT_EQ(dup.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(dup.status().message(), HasSubstr("game_id is used twice"));
}

TEST(ProList, SeedsAndEvenGamesBetweenProfessionalsOnly) {
  RatingSettings s;
  s.pro.seed_overrides[PlayerId{3}] = 2600;
  absl::StatusOr<RatingBook> book =
      Recompute(s, {GameBuilder("p", D(2020, 1, 1), 1)
                        .Black(1, "1p")
                        .White(2, "9p")
                        .BlackWins(),
                    GameBuilder("p", D(2020, 1, 1), 2)
                        .Black(3, "9p")
                        .White(4, "7d")
                        .BlackWins(),
                    GameBuilder("p", D(2020, 1, 1), 3)
                        .Black(1, "1p")
                        .White(3, "9p")
                        .Handicap(2)
                        .BlackWins()});
  ASSERT_TRUE(book.ok()) << book.status();
  // 2240 beats 2560: E = 1 / (1 + 10^(320/400)) = 0.136806; +16 * 0.863194.
  EXPECT_NEAR(*book->Find(PlayerId{1})->pro_elo, 2240 + 16 * (1 - 0.1368063),
              1e-4);
  EXPECT_NEAR(*book->Find(PlayerId{2})->pro_elo, 2560 - 16 * (1 - 0.1368063),
              1e-4);
  EXPECT_EQ(book->Find(PlayerId{1})->pro_games, 1);
  // Player 3 played a pro only in a handicap game and an amateur otherwise.
  EXPECT_FALSE(book->Find(PlayerId{3})->pro_elo.has_value());
  EXPECT_FALSE(book->Find(PlayerId{4})->pro_elo.has_value());
  // Every rated game counts for GoR, pro seeds 2700 + 30 (p - 1).
  EXPECT_EQ(book->Find(PlayerId{1})->rated_games, 2);
  EXPECT_EQ(book->History(PlayerId{2})[0].gor_before, 2940);
}

TEST(ProList, OverrideSeedAndEventBatching) {
  RatingSettings s;
  s.pro.k = 20;
  s.pro.seed_overrides[PlayerId{3}] = 2600;
  absl::StatusOr<RatingBook> book =
      Recompute(s, {GameBuilder("p", D(2020, 1, 1), 1)
                        .Black(3, "9p")
                        .White(5, "5p")
                        .WhiteWins(),
                    GameBuilder("p", D(2020, 1, 1), 2)
                        .Black(6, "5p")
                        .White(3, "9p")
                        .BlackWins()});
  ASSERT_TRUE(book.ok());
  // 2600 vs 2400 twice, frozen: E = 0.759747 each, two losses.
  const std::vector<RatingChange> h = book->History(PlayerId{3});
  ASSERT_EQ(h.size(), 1u);
  EXPECT_DOUBLE_EQ(*h[0].pro_before, 2600);
  EXPECT_NEAR(*h[0].pro_after, 2600 - 2 * 20 * 0.7597469, 1e-4);
  EXPECT_EQ(h[0].pro_games, 2);
}

}  // namespace
}  // namespace gorank::ratings
