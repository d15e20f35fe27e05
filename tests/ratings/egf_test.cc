#include "services/ratings/egf.h"

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "services/ratings/rating_book.h"
#include "tests/ratings/game_builder.h"

namespace gorank::ratings {
namespace {

using registry::Rank;
using testing::D;
using testing::GameBuilder;

constexpr double k3Decimals = 0.0005;

std::vector<std::string> DataLines(const std::string& name) {
  std::ifstream in(std::string(GORANK_TESTDATA_DIR) + "/ratings/" + name);
  EXPECT_TRUE(in.good()) << "cannot open " << name;
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line[0] != '#') lines.push_back(line);
  }
  return lines;
}

std::vector<double> SplitNumbers(const std::string& s, char sep) {
  std::vector<double> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, sep);)
    out.push_back(std::stod(item));
  return out;
}

// egf2021_games.csv: r1,r2,score_of_p1,expected_p1,new_r1,new_r2 -- single
// games, checked with the formulas and through a one-game event of the book.
TEST(EgfPublishedVectors, SingleGamesReproduceTo3Decimals) {
  const std::vector<std::string> lines = DataLines("egf2021_games.csv");
  ASSERT_EQ(lines.size(), 5u);
  const EgfSettings s;
  int n = 0;
  for (const std::string& line : lines) {
    SCOPED_TRACE(line);
    const std::vector<double> v = SplitNumbers(line, ',');
    ASSERT_EQ(v.size(), 6u);
    EXPECT_NEAR(EgfExpectedScore(v[0], v[1]), v[3], 0.0000005);
    EXPECT_NEAR(v[0] + EgfGameChange(s, v[0], v[1], v[2], 0, 0, 1.0), v[4],
                k3Decimals);
    EXPECT_NEAR(v[1] + EgfGameChange(s, v[1], v[0], 1 - v[2], 0, 0, 1.0), v[5],
                k3Decimals);

    RatingBook book(RatingSettings{});
    ASSERT_TRUE(book.SeedRating(PlayerId{1}, v[0]).ok());
    ASSERT_TRUE(book.SeedRating(PlayerId{2}, v[1]).ok());
    const GameResult r = v[2] == 1   ? GameResult::kBlackWin
                         : v[2] == 0 ? GameResult::kWhiteWin
                                     : GameResult::kJigo;
    ASSERT_TRUE(book.ApplyGames({GameBuilder("e" + std::to_string(++n),
                                             D(2021, 1, 1), 1)
                                     .Black(1)
                                     .White(2)
                                     .Result(r)})
                    .ok());
    EXPECT_NEAR(book.Find(PlayerId{1})->gor, v[4], k3Decimals);
    EXPECT_NEAR(book.Find(PlayerId{2})->gor, v[5], k3Decimals);
  }
}

// egf2021_events.csv: start;opponent:score ...;final -- ratings frozen for
// the event, each game with its own bonus, summed at the end.
TEST(EgfPublishedVectors, EventsReproduceTo3Decimals) {
  const std::vector<std::string> lines = DataLines("egf2021_events.csv");
  ASSERT_EQ(lines.size(), 2u);
  for (const std::string& line : lines) {
    SCOPED_TRACE(line);
    std::stringstream in(line);
    std::string start, games, final_rating;
    std::getline(in, start, ';');
    std::getline(in, games, ';');
    std::getline(in, final_rating, ';');
    std::map<PlayerId, double> imported = {{PlayerId{1}, std::stod(start)}};
    std::vector<RatedGame> event;
    std::stringstream gs(games);
    int64_t opponent = 100;
    for (std::string g; std::getline(gs, g, ' ');) {
      const std::vector<double> os = SplitNumbers(g, ':');
      imported[PlayerId{++opponent}] = os[0];
      event.push_back(GameBuilder("ev", D(2021, 3, 1), opponent)
                          .Black(1)
                          .White(opponent)
                          .Result(os[1] == 1   ? GameResult::kBlackWin
                                  : os[1] == 0 ? GameResult::kWhiteWin
                                               : GameResult::kJigo));
    }
    absl::StatusOr<RatingBook> book = Recompute({}, event, imported);
    ASSERT_TRUE(book.ok()) << book.status();
    EXPECT_NEAR(book->Find(PlayerId{1})->gor, std::stod(final_rating),
                k3Decimals);
    EXPECT_EQ(book->Find(PlayerId{1})->rated_games,
              static_cast<int64_t>(event.size()));
    EXPECT_EQ(book->Find(PlayerId{1})->rated_events, 1);
  }
}

TEST(EgfFormulas, ConAndBonusMatchTheNotesTable) {
  struct Row {
    double r, con, bonus;
  };
  const Row rows[] = {{-900, 130.4821, 8.0000}, {0, 88.7104, 5.7500},
                      {1000, 49.7871, 3.2500},  {2000, 19.9830, 0.7546},
                      {2100, 17.5809, 0.5158},  {2400, 11.0953, 0.0504},
                      {2700, 5.7995, 0.0013},   {2940, 2.5612, 0.0001}};
  for (const Row& row : rows) {
    EXPECT_NEAR(EgfCon(row.r), row.con, 0.00005) << row.r;
    EXPECT_NEAR(EgfBonus(row.r), row.bonus, 0.00005) << row.r;
  }
}

TEST(EgfFormulas, HandicapShiftsTheReceiverInsideBetaOnly) {
  EXPECT_DOUBLE_EQ(EgfHandicapShift(0), 0);
  EXPECT_DOUBLE_EQ(EgfHandicapShift(1), 50);
  EXPECT_DOUBLE_EQ(EgfHandicapShift(2), 150);
  EXPECT_DOUBLE_EQ(EgfHandicapShift(9), 850);
  // 1500 receiving 3 stones (as 1750) from 1800.
  EXPECT_NEAR(EgfExpectedScore(1500, 1800, 250, 0), 0.442868, 0.0000005);
  EXPECT_NEAR(EgfExpectedScore(2000, 2000, 50, 0), 0.568208, 0.0000005);
  RatingBook book(RatingSettings{});
  ASSERT_TRUE(book.ApplyGames({GameBuilder("h", D(2022, 5, 1), 1)
                                   .Black(1, "6k")
                                   .White(2, "3k")
                                   .Handicap(3)
                                   .WhiteWins()})
                  .ok());
  // con and bonus use the unshifted 1500.
  EXPECT_NEAR(book.Find(PlayerId{1})->gor, 1487.104, k3Decimals);
  EXPECT_NEAR(book.Find(PlayerId{2})->gor, 1812.377, k3Decimals);
}

TEST(EgfFormulas, BookMatchesTheReferenceFormulaToTheBit) {
  // The book caches con, bonus and beta per player and event; the result
  // must still equal EgfGameChange exactly, for every handicap and result.
  for (int h = 0; h <= 9; ++h) {
    for (GameResult r :
         {GameResult::kBlackWin, GameResult::kWhiteWin, GameResult::kJigo}) {
      absl::StatusOr<RatingBook> book =
          Recompute({}, {GameBuilder("h", D(2022, 5, 1), 1)
                             .Black(1, "12k")
                             .White(2, "2k")
                             .Handicap(h)
                             .Result(r)});
      ASSERT_TRUE(book.ok());
      const double sb = r == GameResult::kBlackWin ? 1.0
                        : r == GameResult::kJigo   ? 0.5
                                                   : 0.0;
      const double shift = EgfHandicapShift(h);
      EXPECT_EQ(book->Find(PlayerId{1})->gor,
                900 + EgfGameChange({}, 900, 1900, sb, shift, 0, 1.0))
          << h;
      EXPECT_EQ(book->Find(PlayerId{2})->gor,
                1900 + EgfGameChange({}, 1900, 900, 1 - sb, 0, shift, 1.0))
          << h;
    }
  }
}

TEST(EgfFormulas, HugeHandicapForAStrongPlayerStaysFinite) {
  // 2700 + 850 > 3300: beta is guarded, the receiver is a certain winner.
  EXPECT_NEAR(EgfExpectedScore(2700, 2000, 850, 0), 1.0, 1e-9);
  const double change = EgfGameChange({}, 2700, 2000, 0.0, 850, 0, 1.0);
  ASSERT_TRUE(std::isfinite(change));
  EXPECT_NEAR(2700 + change, 2694.202, k3Decimals);
}

TEST(EgfFormulas, FloorIsMinus900) {
  RatingBook book(RatingSettings{});
  ASSERT_TRUE(book.ApplyGames({GameBuilder("f", D(2022, 1, 1), 1)
                                   .Black(1, "30k")
                                   .White(2, "30k")
                                   .WhiteWins()})
                  .ok());
  // -900 + 130.48 * (0 - 0.5) + 8 = -957.24 -> floor.
  EXPECT_DOUBLE_EQ(book.Find(PlayerId{1})->gor, -900.0);
  EXPECT_NEAR(book.Find(PlayerId{2})->gor, -900 + 130.4821 * 0.5 + 8, 0.0001);
}

TEST(EgfFormulas, ClassWeightScalesTheChange) {
  struct Case {
    TimeClass c;
    bool weight_bonus;
    GameResult r;
    double black;
  };
  const Case cases[] = {
      {TimeClass::kA, true, GameResult::kBlackWin, 2109.306},
      {TimeClass::kB, true, GameResult::kBlackWin, 2106.980},
      {TimeClass::kB, false, GameResult::kBlackWin, 2107.109},
      {TimeClass::kD, true, GameResult::kWhiteWin, 2097.931},
  };
  for (const Case& c : cases) {
    RatingSettings s;
    s.egf.weight_applies_to_bonus = c.weight_bonus;
    absl::StatusOr<RatingBook> book =
        Recompute(s, {GameBuilder("w", D(2022, 1, 1), 1)
                          .Black(1, "1d")
                          .White(2, "1d")
                          .Class(c.c)
                          .Result(c.r)});
    ASSERT_TRUE(book.ok());
    EXPECT_NEAR(book->Find(PlayerId{1})->gor, c.black, k3Decimals)
        << TimeClassName(c.c) << " weight_bonus=" << c.weight_bonus;
  }
}

TEST(EgfFormulas, RatingsAreFrozenForTheWholeEvent) {
  // 5k (1600) beats another 5k and a 3k (1800) in one event ...
  absl::StatusOr<RatingBook> one =
      Recompute({}, {GameBuilder("e", D(2022, 1, 1), 1)
                         .Black(1, "5k")
                         .White(2, "5k")
                         .BlackWins(),
                     GameBuilder("e", D(2022, 1, 1), 2)
                         .Black(1, "5k")
                         .White(3, "3k")
                         .BlackWins()});
  ASSERT_TRUE(one.ok());
  EXPECT_NEAR(one->Find(PlayerId{1})->gor, 1640.519, k3Decimals);
  // ... which differs from the same games in two events.
  absl::StatusOr<RatingBook> two =
      Recompute({}, {GameBuilder("e1", D(2022, 1, 1), 1)
                         .Black(1, "5k")
                         .White(2, "5k")
                         .BlackWins(),
                     GameBuilder("e2", D(2022, 1, 2), 1)
                         .Black(1, "5k")
                         .White(3, "3k")
                         .BlackWins()});
  ASSERT_TRUE(two.ok());
  EXPECT_NEAR(two->Find(PlayerId{1})->gor, 1639.679, k3Decimals);
}

TEST(EgfSeeding, SeedsFromDeclaredRank) {
  struct Case {
    const char* rank;
    double seed;
  };
  const Case cases[] = {
      {"30k", -900}, {"20k", 100}, {"10k", 1100}, {"1k", 2000}, {"1d", 2100},
      {"6d", 2600},  {"7d", 2700}, {"1p", 2700},  {"2p", 2730}, {"9p", 2940}};
  for (const Case& c : cases) {
    EXPECT_DOUBLE_EQ(EgfSeed(Rank::FromString(c.rank)), c.seed) << c.rank;
  }
}

TEST(EgfGrades, RatingMapsToGrade) {
  struct Case {
    double r;
    const char* grade;
  };
  const Case cases[] = {{-900, "30k"},   {0, "21k"},      {100, "20k"},
                        {1949.99, "2k"}, {1950, "1k"},    {2049.99, "1k"},
                        {2050, "1d"},    {2149.99, "1d"}, {2150, "2d"},
                        {2449.99, "4d"}, {2450, "5d"},    {2650, "7d"},
                        {2940, "7d"}};
  for (const Case& c : cases) {
    EXPECT_EQ(EgfGrade(c.r).ToString(), c.grade) << c.r;
  }
}

TEST(EgfGrades, ThresholdIsTheLowerEdgeOfTheBand) {
  struct Case {
    const char* rank;
    double threshold;
  };
  const Case cases[] = {{"30k", -950}, {"2k", 1850}, {"1k", 1950}, {"1d", 2050},
                        {"2d", 2150},  {"5d", 2450}, {"7d", 2650}};
  for (const Case& c : cases) {
    const Rank rank = Rank::FromString(c.rank);
    EXPECT_DOUBLE_EQ(EgfGradeThreshold(rank), c.threshold) << c.rank;
    if (c.threshold > -900) {
      EXPECT_EQ(EgfGrade(c.threshold), rank) << c.rank;
    }
  }
}

}  // namespace
}  // namespace gorank::ratings
