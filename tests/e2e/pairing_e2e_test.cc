// Issue #20 acceptance, end to end with ONLY the real rankd and rankctl: a
// tournament director (an operator of agency 110) runs a 7-round Swiss of
// 40 registered players with rankctl alone - `event pair` each round (a dry
// run first, a re-pair with a colour swap, an absentee), the results board
// by board (`event result --board B --winner`) or a round at a time
// (`--game`), the printed sheets (`event sheet`), the close - and then the
// standings, the ratings and the grades follow from it.
#include <algorithm>
#include <ctime>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/testing/rankd_cli_fixture.h"

namespace gorank::e2e {
namespace {

using testing::Has;
using testing::RunResult;
using Json = nlohmann::json;

constexpr int kPlayers = 40;
constexpr int kRounds = 7;

// YYYY-MM-DD `days_ago` days before now (UTC).
std::string DaysAgo(int days_ago) {
  const std::time_t t =
      std::time(nullptr) - static_cast<std::time_t>(days_ago) * 86400;
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[16];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", &tm);
  return buf;
}

// Player i (1-based): 5d down to 1d, then 1k, 2k, ...: entrant i is
// stronger than entrant i + 1 (ties in rank aside).
std::string RankOf(int i) {
  const int level = 6 - (i + 1) / 2;  // 5d,5d,4d,4d,...,1d,1d,1k,1k,...
  return level >= 1 ? std::to_string(level) + "d"
                    : std::to_string(1 - level) + "k";
}

std::string Name(int i) {
  return std::string("Player ") + (i < 10 ? "0" : "") + std::to_string(i);
}

struct Board {
  int board, white, black, handicap;
};

struct Round {
  std::vector<Board> boards;
  std::vector<std::pair<int, int>> byes;  // entrant, points
  std::vector<std::string> decisions;
};

class PairingE2eTest : public testing::IsolatedRankdCliTest {
 protected:
  RunResult Director(std::vector<std::string> args) {
    args.insert(args.begin(), {"--token-file", director_});
    return Ctl(args, /*admin=*/false);
  }

  // The director's token (an operator of agency 110).
  void MakeDirector() {
    RunResult r = Ctl({"token", "create", "--role", "agency_operator",
                       "--agency", "110", "--label", "director"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const size_t at = r.out.rfind("rkd_");
    ASSERT_NE(at, std::string::npos) << r.out;
    std::ofstream(director_) << r.out.substr(at, 68) << "\n";
  }

  // Registers the 40 players; player_ids_[i] is Player i's registry id.
  void Register() {
    for (int i = 1; i <= kPlayers; ++i) {
      RunResult r = Ctl({"--json", "player", "register", "--name", Name(i),
                         "--agency", "110", "--rank", RankOf(i)});
      ASSERT_EQ(r.exit_code, 0) << r.err;
      player_ids_[i] = Json::parse(r.out)["player"]["id"].get<std::string>();
    }
  }

  static Round Parse(const std::string& json_text) {
    Round out;
    const Json j = Json::parse(json_text, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << json_text;
    if (j.is_discarded()) return out;
    for (const Json& b : j["pairing"].value("boards", Json::array())) {
      out.boards.push_back({b.value("board", 0), b.value("white_entrant_id", 0),
                            b.value("black_entrant_id", 0),
                            b.value("handicap", 0)});
    }
    for (const Json& b : j["pairing"].value("byes", Json::array())) {
      out.byes.emplace_back(b.value("entrant_id", 0), b.value("points", 0));
    }
    for (const Json& d : j["pairing"].value("decisions", Json::array()))
      out.decisions.push_back(d.get<std::string>());
    return out;
  }

  // `event pair` with --json; the pairing.
  Round Pair(const std::string& event, int round,
             std::vector<std::string> flags = {}) {
    std::vector<std::string> args = {
        "--json", "event", "pair", event, "--round", std::to_string(round)};
    args.insert(args.end(), flags.begin(), flags.end());
    RunResult r = Director(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return Parse(r.out);
  }

  const std::string director_ = dir_.File("director.token");
  std::map<int, std::string> player_ids_;
};

TEST_F(PairingE2eTest, SevenRoundsOfFortyPairedAndRatedWithRankctlAlone) {
  ASSERT_NO_FATAL_FAILURE(MakeDirector());
  ASSERT_NO_FATAL_FAILURE(Register());
  RunResult r = Director({"--json",
                          "event",
                          "create",
                          "--name",
                          "National Amateur Swiss 2026",
                          "--organiser",
                          "110",
                          "--start",
                          DaysAgo(12),
                          "--end",
                          DaysAgo(10),
                          "--level",
                          "national",
                          "--competition",
                          "national_amateur_open",
                          "--time-class",
                          "A",
                          "--sub-event",
                          "open_individual",
                          "--format",
                          "swiss",
                          "--rounds",
                          std::to_string(kRounds)});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Json created = Json::parse(r.out);
  const std::string id = created["event"]["id"].get<std::string>();
  // The seed was drawn when the event was created.
  ASSERT_TRUE(created["event"]["pairing"].contains("seed")) << r.out;
  const std::string seed = created["event"]["pairing"]["seed"];
  EXPECT_NE(seed, "0");

  r = Ctl({"event", "get", id}, false);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Has(r.out, "swiss, seed " + seed)) << r.out;

  std::string players;
  for (int i = 1; i <= kPlayers; ++i)
    players += (i > 1 ? "," : "") + player_ids_[i];
  r = Director({"event", "enter", id, "--player", players});
  ASSERT_EQ(r.exit_code, 0) << r.err;

  // Nothing is paired yet: no sheet.
  r = Director(
      {"event", "sheet", id, "--round", "1", "--out", dir_.File("none.pdf")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(Has(r.err, "has no games")) << r.err;

  std::map<int, int> rounds_of;       // entrant -> games + byes
  std::map<int, int> played;          // entrant -> games over the board
  std::set<std::pair<int, int>> met;  // every pair that played
  for (int round = 1; round <= kRounds; ++round) {
    Round pairing;
    if (round == 1) {
      // A dry run shows the pairing the real one then stores (same seed).
      const Round dry = Pair(id, 1, {"--dry-run"});
      pairing = Pair(id, 1);
      ASSERT_EQ(pairing.boards.size(), 20u);
      for (size_t i = 0; i < dry.boards.size(); ++i) {
        EXPECT_EQ(dry.boards[i].white, pairing.boards[i].white);
        EXPECT_EQ(dry.boards[i].black, pairing.boards[i].black);
      }
      // Human output: names and ranks, the seed.
      r = Director({"event", "pair", id, "--round", "1", "--dry-run"});
      ASSERT_EQ(r.exit_code, 0) << r.err;
      EXPECT_TRUE(Has(r.out, "round 1 of event " + id + " (seed " + seed +
                                 "): 20 boards, 0 byes (dry run"))
          << r.out;
      EXPECT_TRUE(Has(r.out, "BOARD") && Has(r.out, "Player 01 (5d)")) << r.out;
    } else if (round == 2) {
      // Paired, then re-paired with board 1's colours swapped.
      const Round first = Pair(id, 2);
      pairing = Pair(id, 2, {"--swap", "1"});
      ASSERT_FALSE(first.boards.empty());
      ASSERT_EQ(pairing.boards.size(), first.boards.size());
      EXPECT_EQ(pairing.boards[0].white, first.boards[0].black);
      EXPECT_EQ(pairing.boards[0].black, first.boards[0].white);
    } else if (round == 3) {
      // Player 40 does not come: 39 paired, the bye to one of them.
      pairing = Pair(id, 3, {"--absent", "40"});
      EXPECT_EQ(pairing.boards.size(), 19u);
      ASSERT_EQ(pairing.byes.size(), 2u);
    } else {
      pairing = Pair(id, round);
      ASSERT_EQ(pairing.boards.size(), 20u);
    }
    if (round == kRounds) {
      // The printed sheets: the list and a slip a board (5 pages of 4).
      const std::string pdf = dir_.File("round7.pdf");
      r = Director({"event", "sheet", id, "--round", "7", "--out", pdf});
      ASSERT_EQ(r.exit_code, 0) << r.err;
      EXPECT_TRUE(Has(r.out, "(6 pages)")) << r.out;
      std::ifstream in(pdf, std::ios::binary);
      std::string head(5, '\0');
      in.read(head.data(), 5);
      EXPECT_EQ(head, "%PDF-");
    }
    for (const auto& [entrant, points] : pairing.byes) {
      ++rounds_of[entrant];
      EXPECT_EQ(points, entrant == 40 && round == 3 ? 0 : 2);
    }
    // The stronger player (lower entrant number) wins. Rounds 1 and 2
    // board by board, the others in one call a round.
    std::vector<std::string> games = {"event", "result", id, "--round",
                                      std::to_string(round)};
    for (const Board& b : pairing.boards) {
      const auto pair = std::minmax(b.white, b.black);
      EXPECT_FALSE(met.count(pair)) << "round " << round << ": " << b.white
                                    << "-" << b.black << " met before";
      met.insert(pair);
      ++rounds_of[b.white];
      ++rounds_of[b.black];
      ++played[b.white];
      ++played[b.black];
      const bool black_wins = b.black < b.white;
      if (round <= 2) {
        r = Director({"event", "result", id, "--round", std::to_string(round),
                      "--board", std::to_string(b.board), "--winner",
                      black_wins ? "black" : "white"});
        ASSERT_EQ(r.exit_code, 0) << r.err;
      } else {
        games.push_back("--game");
        games.push_back(std::to_string(b.black) + "-" +
                        std::to_string(b.white) + (black_wins ? ":b" : ":w"));
      }
    }
    if (round > 2) {
      r = Director(games);
      ASSERT_EQ(r.exit_code, 0) << r.err;
    }
    // A round with results is not paired again.
    r = Director({"event", "pair", id, "--round", std::to_string(round)});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_TRUE(Has(r.err, "FAILED_PRECONDITION") &&
                Has(r.err, "already has results"))
        << r.err;
  }
  // Everyone has 7 rounds: games, the bye, the absence.
  ASSERT_EQ(rounds_of.size(), static_cast<size_t>(kPlayers));
  for (const auto& [entrant, n] : rounds_of)
    EXPECT_EQ(n, kRounds) << "entrant " << entrant;

  // The standings are final; entrant 1 (5d, won every game) is first.
  r = Director({"--json", "event", "standings", id});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Json standings = Json::parse(r.out)["standings"];
  EXPECT_EQ(standings["status"], "STANDINGS_STATUS_FINAL") << r.out;
  ASSERT_EQ(standings["rows"].size(), static_cast<size_t>(kPlayers));
  EXPECT_EQ(standings["rows"][0]["id"], 1) << r.out;
  r = Director({"event", "close", id});
  ASSERT_EQ(r.exit_code, 0) << r.err;

  // Every player is rated from the event: one event, the games played;
  // sampled players' ratings moved by it, the winner's up.
  r = Ctl({"--json", "rating", "list", "--page-size", "100"}, false);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::map<std::string, Json> rated;
  const Json list = Json::parse(r.out);
  for (const Json& row : list["ratings"])
    rated[row["player_id"].get<std::string>()] = row;
  for (int i = 1; i <= kPlayers; ++i) {
    ASSERT_TRUE(rated.count(player_ids_[i])) << Name(i) << ": " << r.out;
    const Json& row = rated[player_ids_[i]];
    EXPECT_EQ(row["rated_events"], "1") << Name(i);
    EXPECT_EQ(row["rated_games"], std::to_string(played[i])) << Name(i);
  }
  int changed = 0;
  const int sampled[] = {1, 2, 20, 21, 39, 40};
  for (int i : sampled) {
    r = Ctl({"--json", "rating", "history", player_ids_[i]}, false);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const Json changes = Json::parse(r.out)["changes"];
    ASSERT_EQ(changes.size(), 1u) << r.out;
    EXPECT_EQ(changes[0]["event_id"], id);
    if (changes[0]["gor_after"] != changes[0]["gor_before"]) ++changed;
    if (i == 1) {
      EXPECT_GT(changes[0]["gor_after"].get<double>(),
                changes[0]["gor_before"].get<double>())
          << r.out;
    }
  }
  EXPECT_GE(changed, 5);

  // The grades follow from the final standings.
  r = Ctl({"grade", "event", id}, false);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Has(r.out, "PLACE")) << r.out;
  EXPECT_TRUE(Has(r.out, "Player 01")) << r.out;
}

// A McMahon event with handicap games: the settings given to `event
// create` are shown by `event get`, and the first round pairs by McMahon
// score with handicaps from the rank difference; bad flags are usage
// errors (exit 2) naming what is wrong.
TEST_F(PairingE2eTest, McMahonSettingsHandicapsAndUsageErrors) {
  ASSERT_NO_FATAL_FAILURE(MakeDirector());
  RunResult r = Director({"--json",
                          "event",
                          "create",
                          "--name",
                          "City McMahon 2026",
                          "--organiser",
                          "110",
                          "--start",
                          DaysAgo(3),
                          "--level",
                          "city",
                          "--competition",
                          "city_championship",
                          "--sub-event",
                          "open_individual",
                          "--format",
                          "swiss",
                          "--rounds",
                          "4",
                          "--pairing",
                          "mcmahon",
                          "--mcmahon-bar",
                          "3d",
                          "--mcmahon-floor",
                          "10k",
                          "--handicap-reduction",
                          "1",
                          "--max-handicap",
                          "4"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string id = Json::parse(r.out)["event"]["id"].get<std::string>();
  r = Ctl({"event", "get", id}, false);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Has(r.out,
                  "mcmahon, bar 3d, floor 10k, handicap rank "
                  "difference - 1 (at most 4), seed "))
      << r.out;
  const char* const ranks[] = {"4d", "3d", "1d", "2k", "5k", "8k"};
  std::string players;
  for (int i = 0; i < 6; ++i) {
    r = Ctl({"--json", "player", "register", "--name",
             "McMahon " + std::to_string(i + 1), "--agency", "110", "--rank",
             ranks[i]});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    players += (i > 0 ? "," : "") +
               Json::parse(r.out)["player"]["id"].get<std::string>();
  }
  r = Director({"event", "enter", id, "--player", players});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Round round = Pair(id, 1, {"--dry-run"});
  ASSERT_EQ(round.boards.size(), 3u);
  for (const Board& b : round.boards) {
    EXPECT_GE(b.handicap, 0);
    EXPECT_LE(b.handicap, 4);
  }

  const std::vector<std::pair<std::vector<std::string>, std::string>> bad = {
      {{"event", "pair", id, "--round", "1", "--pair", "3"}, "--pair '3'"},
      {{"event", "pair", id, "--round", "1", "--pair", "2-2"}, "--pair '2-2'"},
      {{"event", "pair", id, "--round", "x"}, "--round"},
      {{"event", "pair", id, "--round", "1", "--swap", "b1"}, "--swap"},
      {{"event", "result", id, "--round", "1", "--board", "1", "--winner",
        "red"},
       "--winner must be black, white, jigo or both-lose"},
      {{"event", "result", id, "--round", "1", "--winner", "black"},
       "--winner needs --board B"},
      {{"event", "result", id, "--round", "1", "--board", "1", "--winner",
        "black", "--game", "1-2:b"},
       "not with --game"},
      {{"event", "result", id, "--round", "1", "--forfeit", "--game", "1-2:b"},
       "--forfeit goes with --winner"},
      {{"event", "create", "--name", "x", "--organiser", "110", "--start",
        DaysAgo(1), "--level", "city", "--sub-event", "open_individual",
        "--pairing", "dutch"},
       "--pairing must be swiss or mcmahon"},
  };
  for (const auto& [args, message] : bad) {
    r = Director(args);
    EXPECT_EQ(r.exit_code, 2) << args[1] << ": " << r.out << r.err;
    EXPECT_TRUE(Has(r.err, message)) << r.err;
  }
  // A board that does not exist: the call fails (exit 1), nothing changes.
  r = Director({"event", "result", id, "--round", "1", "--board", "9",
                "--winner", "white"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(Has(r.err, "has no board 9")) << r.err;
}

}  // namespace
}  // namespace gorank::e2e
