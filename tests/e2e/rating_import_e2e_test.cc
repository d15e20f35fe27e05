// `rankctl rating import` with the real rankd and rankctl binaries: a file
// of starting ratings (UTF-8 with BOM) is imported, `rating get` shows the
// start and its origin, a refused row names its line and column (exit 1,
// nothing stored), a dry run stores nothing, a re-import changes nothing; an
// event imported from a CSV results file (as README's tournament
// walkthrough does) and closed rates the player from the imported start
// (the number is the ratings domain's Recompute from the same start), and a
// restarted rankd (which recomputes at start) keeps it. HOME is a temp
// folder, so a developer's ~/.config/rankctl cannot interfere.
#include <cstdlib>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "services/ratings/rating_book.h"
#include "services/ratings/ratings_config.h"
#include "tests/testing/rankd_cli_fixture.h"

namespace gorank::e2e {
namespace {

using testing::Has;
using testing::RunResult;

class RatingImportE2eTest : public testing::IsolatedRankdCliTest {
 protected:
  std::string Register(const std::string& name, const std::string& rank) {
    RunResult r = Ctl({"--json", "player", "register", "--name", name,
                       "--agency", "110", "--rank", rank});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return nlohmann::json::parse(r.out)["player"]["id"].get<std::string>();
  }

  // `rankctl rating get ID --json` (null when the call fails).
  nlohmann::json Rating(const std::string& id) {
    RunResult r = Ctl({"--json", "rating", "get", id}, false);
    if (r.exit_code != 0) return nullptr;
    return nlohmann::json::parse(r.out)["rating"];
  }
};

TEST_F(RatingImportE2eTest, ImportShowGetAndRateAnEventFromTheStart) {
  const std::string p1 = Register("Start One", "2d");
  const std::string p2 = Register("Seed Two", "1k");

  // A refused row stops the whole file: exit 1, line and column named.
  RunResult r;
  const std::string refused =
      Write("refused.csv",
            "player,gor,as_of\n" + p1 + ",2350,2026-05-01\n" + p2 + ",abc,\n");
  r = Ctl({"rating", "import", refused});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_TRUE(Has(
      r.out, "refused line 3, column gor: gor 'abc' is not a decimal number"))
      << r.out;
  EXPECT_TRUE(Has(r.out, "nothing stored")) << r.out;
  EXPECT_TRUE(Rating(p1).is_null());

  const std::string file = Write("egd.csv",
                                 "\xEF\xBB\xBF"
                                 "player,gor,pro_rating,as_of\r\n" +
                                     p1 + ",2350,,2026-05-01\r\n");
  r = Ctl({"rating", "import", file, "--dry-run"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(Has(r.out, "dry run, nothing stored")) << r.out;
  EXPECT_TRUE(Rating(p1).is_null());

  r = Ctl({"rating", "import", file});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(Has(r.out, "utf-8 with BOM")) << r.out;
  EXPECT_TRUE(Has(r.out, "added 1, matched 0, refused 0: stored")) << r.out;
  r = Ctl({"rating", "get", p1}, false);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Has(r.out, "GoR 2350.0 (4d), 0 rated games in 0 events"))
      << r.out;
  EXPECT_TRUE(Has(r.out, "started from import egd.csv sha256:")) << r.out;
  EXPECT_TRUE(Has(r.out, " line 2 as of 2026-05-01")) << r.out;

  r = Ctl({"rating", "import", file});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(Has(r.out, "added 0, matched 1, refused 0: nothing changed"))
      << r.out;
  r = Ctl({"--json", "rating", "import", file});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["matched"], 1) << r.out;

  // An event between the two, from a CSV results file, closed.
  r = Ctl({"event",       "create",      "--name",        "Start Club 2025",
           "--organiser", "110",         "--start",       "2025-05-01",
           "--end",       "2025-05-01",  "--competition", "club_event",
           "--level",     "club",        "--sub-event",   "open_individual",
           "--format",    "round_robin", "--time-class",  "A",
           "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string event =
      nlohmann::json::parse(r.out)["event"]["id"].get<std::string>();
  const std::string results =
      Write("results.csv",
            "row,family_name,given_name,rank,country,club,egd_pin,player_id,"
            "withdrawn_after,r1\n"
            "1,Start,One,2d,CN,110,," +
                p1 +
                ",,2+/b0\n"
                "2,Seed,Two,1k,CN,110,," +
                p2 + ",,1-/w0\n");
  r = Ctl({"event", "import", results, "--event", event, "--format", "csv"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  r = Ctl({"event", "close", event});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;

  // The domain's rating book over the same game, from the same start.
  ratings::RatedGame game;
  game.event_id = event;
  game.event_date = Date{2025, 5, 1};
  game.event_order = std::stoll(event);
  game.game_id = 1;
  game.black = ratings::PlayerId{std::stoll(p1)};
  game.white = ratings::PlayerId{std::stoll(p2)};
  game.black_rank = registry::Rank::FromString("2d");
  game.white_rank = registry::Rank::FromString("1k");
  game.result = ratings::GameResult::kBlackWin;
  const std::map<ratings::PlayerId, ratings::StartValue> starts = {
      {game.black, ratings::StartValue{2350, {}}}};
  auto expected = ratings::Recompute(ratings::DefaultRatingsConfig().rating,
                                     {game}, starts);
  ASSERT_TRUE(expected.ok()) << expected.status();
  auto seeded =
      ratings::Recompute(ratings::DefaultRatingsConfig().rating, {game});
  ASSERT_TRUE(seeded.ok()) << seeded.status();
  const double want = expected->Find(game.black)->gor;
  ASSERT_NE(want, seeded->Find(game.black)->gor);

  nlohmann::json rating = Rating(p1);
  ASSERT_FALSE(rating.is_null());
  EXPECT_DOUBLE_EQ(rating["gor"].get<double>(), want) << rating.dump();
  EXPECT_EQ(rating["rated_games"], "1") << rating.dump();
  EXPECT_DOUBLE_EQ(Rating(p2)["gor"].get<double>(),
                   expected->Find(game.white)->gor);
  r = Ctl({"rating", "history", p1}, false);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Has(r.out, "2350.0")) << r.out;

  // rankd recomputes at every start: the start survives a restart.
  ASSERT_EQ(StopRankd(), 0);
  ASSERT_EQ(StartRankd("rankd2.log"), "");
  rating = Rating(p1);
  ASSERT_FALSE(rating.is_null());
  EXPECT_DOUBLE_EQ(rating["gor"].get<double>(), want);
  EXPECT_TRUE(
      Has(rating["origin"].get<std::string>(), "line 2 as of 2026-05-01"));
  r = Ctl({"--json", "rating", "recompute", "--dry-run"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(nlohmann::json::parse(r.out).value("changed", false)) << r.out;

  // A start for a player who now has a rated event is refused.
  r = Ctl({"rating", "import", file});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;  // the same row: matched
  const std::string later = Write("later.csv", "player,gor\n" + p2 + ",2000\n");
  r = Ctl({"rating", "import", later});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_TRUE(Has(r.out, "refused line 2, column player: player " + p2 +
                             " already has a rating from 1 event"))
      << r.out;
}

// The other two encodings Excel writes: plain UTF-8 and GB18030 (a player
// named by a Chinese external id of agency 110); an agency operator may not
// import ratings at all.
TEST_F(RatingImportE2eTest, PlainUtf8AndGb18030FilesAndOperatorRefused) {
  RunResult r =
      Ctl({"--json", "player", "register", "--name", "Zhang", "--agency", "110",
           "--rank", "1d", "--external-id", "张三"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string zhang =
      nlohmann::json::parse(r.out)["player"]["id"].get<std::string>();
  const std::string li = Register("Li", "2k");

  // 110:张三 in GB18030 (张 D5C5, 三 C8FD).
  const std::string gb =
      Write("gb.csv", "player,gor\r\n110:\xD5\xC5\xC8\xFD,2120\r\n");
  r = Ctl({"rating", "import", gb});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(Has(r.out, "(gb18030, 1 rows")) << r.out;
  EXPECT_TRUE(Has(r.out, "added 1, matched 0, refused 0: stored")) << r.out;
  nlohmann::json rating = Rating(zhang);
  ASSERT_FALSE(rating.is_null());
  EXPECT_DOUBLE_EQ(rating["gor"].get<double>(), 2120.0);

  const std::string plain =
      Write("plain.csv", "player,gor\n" + li + ",1850.5\n");
  r = Ctl({"token", "create", "--role", "agency_operator", "--agency", "110",
           "--label", "bj", "--out", dir_.File("op110.token")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = Ctl({"--token-file", dir_.File("op110.token"), "rating", "import", plain},
          false);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_TRUE(Has(r.err, "PERMISSION_DENIED")) << r.err;
  EXPECT_TRUE(Rating(li).is_null());

  r = Ctl({"rating", "import", plain});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(Has(r.out, "(utf-8, 1 rows")) << r.out;
  rating = Rating(li);
  ASSERT_FALSE(rating.is_null());
  EXPECT_DOUBLE_EQ(rating["gor"].get<double>(), 1850.5);
}

}  // namespace
}  // namespace gorank::e2e
