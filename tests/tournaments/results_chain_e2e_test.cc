// Issue #16 acceptance, end to end with ONLY the real rankd and rankctl and
// files: players registered from a file, events run by an agency operator
// (the tournament director) through rankctl - entrants linked to the
// registry, results imported or recorded game by game, corrected, a
// withdrawal, a play-off - then the national office's view: ratings,
// promotion proposals approved into certificates, athlete grades.
//   1. a Swiss of 5 rounds from an EGF file (one ambiguous row --link'ed);
//   2. a team round robin with board orders, recorded board by board;
//   3. a round robin from a CSV file with player ids and a pending play-off
//      that is then decided.

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/testing/rankd_process.h"
#include "tests/testing/seed_registry.h"
#include "tests/testing/temp_dir.h"

namespace gorank::e2e {
namespace {

using gorank::testing::RankdOptions;
using gorank::testing::RankdProcess;
using gorank::testing::RunProgram;
using gorank::testing::RunResult;

using gorank::testing::kLatin;
using gorank::testing::kPlayersFile;
using gorank::testing::kRoundRobinCells;
using gorank::testing::kSwissEgf;

bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

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

class ResultsChainE2eTest : public ::testing::Test {
 protected:
  void SetUp() override {
    RankdOptions options;
    options.db = dir_.File("rankd.db");
    options.flags = {"--admin-token-file", admin_};
    options.log_path = dir_.File("rankd.log");
    ASSERT_EQ(rankd_.Start(RANKD_PATH, options), "");
    ASSERT_TRUE(rankd_.running()) << rankd_.output();
    ASSERT_GT(rankd_.port(), 0) << rankd_.output();
    server_ = rankd_.address();
    // The tournament director: an operator of agency 110.
    RunResult r = Ctl({"token", "create", "--role", "agency_operator",
                       "--agency", "110", "--label", "director"},
                      admin_);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::ofstream(director_) << r.out.substr(r.out.rfind("rkd_"), 68) << "\n";
  }
  void TearDown() override {
    if (rankd_.running()) {
      EXPECT_EQ(rankd_.Stop(), 0) << rankd_.output();
    }
  }

  RunResult Ctl(const std::vector<std::string>& args,
                const std::string& token = "") {
    std::vector<std::string> argv = {RANKCTL_PATH, "--server", server_};
    if (!token.empty()) {
      argv.push_back("--token-file");
      argv.push_back(token);
    }
    argv.insert(argv.end(), args.begin(), args.end());
    return RunProgram(argv, dir_.File("rankctl" + std::to_string(++calls_)));
  }

  std::string File(const std::string& name, const std::string& content) {
    const std::string path = dir_.File(name);
    std::ofstream(path, std::ios::binary) << content;
    return path;
  }

  // The office registers every player of the players file (one rankctl
  // call a line); returns Latin name -> player id.
  void RegisterPlayersFromFile() {
    std::ifstream in(File("players.tsv", kPlayersFile));
    for (std::string line; std::getline(in, line);) {
      std::stringstream ss(line);
      std::string name, latin, rank, gender, born;
      std::getline(ss, name, '\t');
      std::getline(ss, latin, '\t');
      std::getline(ss, rank, '\t');
      std::getline(ss, gender, '\t');
      std::getline(ss, born, '\t');
      RunResult r = Ctl({"player", "register", "--name", name, "--latin-name",
                         latin, "--agency", "110", "--rank", rank,
                         "--rank-basis", "certificate before 2026", "--gender",
                         gender, "--birth-date", born, "--json"},
                        admin_);
      ASSERT_EQ(r.exit_code, 0) << r.err;
      const auto j = nlohmann::json::parse(r.out, nullptr, false);
      ASSERT_FALSE(j.is_discarded()) << r.out;
      ids_[latin] = j["player"]["id"].get<std::string>();
    }
    ASSERT_EQ(ids_.size(), 16u);
  }

  // Creates an event as the director; returns its id.
  std::string CreateEvent(std::vector<std::string> flags) {
    std::vector<std::string> args = {
        "event",        "create",    "--organiser",   "110",
        "--start",      DaysAgo(12), "--end",         DaysAgo(10),
        "--level",      "national",  "--competition", "national_amateur_open",
        "--time-class", "A",         "--json"};
    args.insert(args.end(), flags.begin(), flags.end());
    RunResult r = Ctl(args, director_);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out, nullptr, false);
    if (j.is_discarded()) return "0";
    return j["event"]["id"].get<std::string>();
  }

  // The office's view after the close: every player named has a GoR from
  // the event; `promoted` gets a proposal to `to_rank` that is approved
  // into a certificate; `graded` shows `grade`.
  void CheckOfficeView(const std::vector<std::string>& rated,
                       const std::string& promoted, const std::string& to_rank,
                       const std::string& graded, const std::string& grade) {
    for (const std::string& latin : rated) {
      RunResult r = Ctl({"rating", "get", ids_[latin]});
      EXPECT_EQ(r.exit_code, 0) << latin << ": " << r.err;
      EXPECT_TRUE(Has(r.out, "GoR ") && Has(r.out, "in 1 events"))
          << latin << ": " << r.out;
    }
    if (!promoted.empty()) {
      RunResult r =
          Ctl({"promotion", "evaluate", "--player", ids_[promoted], "--json"},
              admin_);
      ASSERT_EQ(r.exit_code, 0) << r.err;
      const auto j = nlohmann::json::parse(r.out, nullptr, false);
      ASSERT_FALSE(j.is_discarded()) << r.out;
      std::string proposal;
      for (const auto& p : j["proposals"]) {
        if (p["to_rank"]["notation"] == to_rank)
          proposal = p["proposal_id"].get<std::string>();
      }
      ASSERT_FALSE(proposal.empty())
          << "no proposal to " << to_rank << ": " << r.out;
      r = Ctl({"promotion", "approve", proposal}, admin_);
      ASSERT_EQ(r.exit_code, 0) << r.err;
      EXPECT_TRUE(Has(r.out, "-> " + to_rank) && Has(r.out, "certificate "))
          << r.out;
    }
    RunResult r = Ctl({"grade", "player", ids_[graded]});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(Has(r.out, grade)) << r.out;
  }

  testing::TempDir dir_;
  const std::string admin_ = dir_.File("admin.token");
  const std::string director_ = dir_.File("director.token");
  RankdProcess rankd_;
  std::string server_;
  int calls_ = 0;
  std::map<std::string, std::string> ids_;
};

TEST_F(ResultsChainE2eTest, SwissFromAnEgfFile) {
  // A namesake of row 5 already registered (same agency and rank).
  RunResult r = Ctl({"player", "register", "--name", "陈晨", "--latin-name",
                     "Chen Chen", "--agency", "110", "--rank", "3d", "--json"},
                    admin_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string namesake =
      nlohmann::json::parse(r.out)["player"]["id"].get<std::string>();
  ASSERT_NO_FATAL_FAILURE(RegisterPlayersFromFile());
  const std::string id =
      CreateEvent({"--name", "National Amateur Open 2026", "--sub-event",
                   "open_individual", "--format", "swiss", "--rounds", "5"});
  const std::string egf = File("swiss.h9", kSwissEgf);

  // The dry run shows the matching: 11 rows linked, row 5 ambiguous with
  // both candidates; nothing stored.
  r = Ctl({"event", "import", egf, "--event", id, "--dry-run"}, director_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(
      Has(r.out, "12 players, 29 games, 1 byes (dry run: nothing stored)"))
      << r.out;
  EXPECT_TRUE(Has(r.out, "AMBIGUOUS")) << r.out;
  EXPECT_TRUE(Has(r.out, "player " + namesake + " 陈晨")) << r.out;
  EXPECT_TRUE(Has(r.out, "player " + ids_["Chen Chen"] + " 陈晨")) << r.out;
  EXPECT_TRUE(Has(r.out, "1 row(s) unresolved")) << r.out;
  // Without a resolution nothing is stored.
  r = Ctl({"event", "import", egf, "--event", id}, director_);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(Has(r.err, "FAILED_PRECONDITION") &&
              Has(r.err, "5 Chen Chen (players " + namesake + ", " +
                             ids_["Chen Chen"] + ")"))
      << r.err;
  r = Ctl({"event", "entrants", id});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(Has(r.out, "Wang Lei")) << r.out;
  // Resolved: every entrant is a registered player.
  r = Ctl({"event", "import", egf, "--event", id, "--link",
           "5=" + ids_["Chen Chen"]},
          director_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Has(r.out, "linked (--link)")) << r.out;
  EXPECT_FALSE(Has(r.out, "unresolved")) << r.out;
  r = Ctl({"event", "entrants", id});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(Has(r.out, "guest")) << r.out;
  EXPECT_TRUE(Has(r.out, ids_["Zhang Wei"])) << r.out;

  // One correction changes one game: Zhou Jie (9, black) beat Zhao Min (7)
  // in round 5; the round's other games stay.
  r = Ctl({"event", "result", id, "--round", "5", "--game", "9-7:b"},
          director_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Has(r.out, "round 5: 9-7:b (was 9-7:w)")) << r.out;
  r = Ctl({"event", "export", id, "--format", "csv"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Has(r.out, "8+/b0\n") && Has(r.out, "3+/b0\n") &&
              Has(r.out, "7+/b0\n"))
      << r.out;  // Wang Lei, Li Wei and Zhou Jie's round 5
  // Qian Ming withdrew after round 4.
  r = Ctl({"event", "withdraw", id, "--entrant", "12", "--after-round", "4"},
          director_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Has(r.out, "entrant 12: withdrew after round 4")) << r.out;
  r = Ctl({"event", "close", id}, director_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Has(r.out, "closed")) << r.out;

  ASSERT_NO_FATAL_FAILURE(CheckOfficeView({kLatin, kLatin + 12}, "Wang Lei",
                                          "6d", "Wang Lei", "Grade 1 Athlete"));
}

TEST_F(ResultsChainE2eTest, TeamRoundRobinWithBoardOrders) {
  ASSERT_NO_FATAL_FAILURE(RegisterPlayersFromFile());
  const std::string id = CreateEvent(
      {"--name", "National Amateur Team Open 2026", "--sub-event", "open_team",
       "--format", "team_round_robin", "--boards", "2"});
  // Eight teams of two (the grade standard counts teams: at least 8), board
  // 1 first; the players become entrants 1..16 in this order, so board b of
  // team t is entrant 2t-2+b.
  for (int t = 1; t <= 8; ++t) {
    const std::string name = "Team " + std::to_string(t);
    RunResult r = Ctl({"event", "team", id, "--name", name, "--boards",
                       ids_[kLatin[2 * t - 2]] + "," + ids_[kLatin[2 * t - 1]]},
                      director_);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(Has(r.out, "team " + std::to_string(t) + " " + name + " added"))
        << r.out;
  }
  RunResult r = Ctl({"event", "entrants", id});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Has(r.out, "team 3 Team 3: boards 5, 6")) << r.out;
  // Seven rounds (circle method), board by board; the lower team number
  // wins every board, with black on board 1 and white on board 2.
  std::vector<int> circle = {1, 2, 3, 4, 5, 6, 7, 8};
  for (int round = 1; round <= 7; ++round) {
    for (int board = 1; board <= 2; ++board) {
      std::vector<std::string> args = {"event",
                                       "result",
                                       id,
                                       "--round",
                                       std::to_string(round),
                                       "--board",
                                       std::to_string(board)};
      for (int k = 0; k < 4; ++k) {
        const int strong = std::min(circle[k], circle[7 - k]);
        const int weak = std::max(circle[k], circle[7 - k]);
        const std::string a = std::to_string(2 * strong - 2 + board);
        const std::string b = std::to_string(2 * weak - 2 + board);
        args.push_back("--game");
        args.push_back(board == 1 ? a + "-" + b + ":b" : b + "-" + a + ":w");
      }
      r = Ctl(args, director_);
      ASSERT_EQ(r.exit_code, 0) << r.err;
    }
    circle = {circle[0], circle[7], circle[1], circle[2],
              circle[3], circle[4], circle[5], circle[6]};
  }
  // A wrong board-2 result of round 1 (team 1 v team 8) and its
  // correction: that game alone changes.
  r = Ctl({"event", "result", id, "--round", "1", "--board", "2", "--game",
           "16-2:b"},
          director_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Has(r.out, "round 1: 16-2:b (was 16-2:w)")) << r.out;
  r = Ctl({"event", "result", id, "--round", "1", "--board", "2", "--game",
           "16-2:w"},
          director_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = Ctl({"event", "standings", id});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (int t = 1; t < 8; ++t) {
    EXPECT_LT(r.out.find("Team " + std::to_string(t)),
              r.out.find("Team " + std::to_string(t + 1)))
        << r.out;
  }
  EXPECT_TRUE(Has(r.out, "8 played over the board")) << r.out;
  r = Ctl({"event", "close", id}, director_);
  ASSERT_EQ(r.exit_code, 0) << r.err;

  // Team placings earn grades, not dan promotions.
  ASSERT_NO_FATAL_FAILURE(CheckOfficeView({kLatin, kLatin + 16}, "", "",
                                          "Li Wei", "Grade 1 Athlete"));
  r = Ctl({"promotion", "evaluate"}, admin_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Has(r.out, "no player meets a promotion rule")) << r.out;
}

TEST_F(ResultsChainE2eTest, RoundRobinFromCsvWithAPendingPlayoff) {
  ASSERT_NO_FATAL_FAILURE(RegisterPlayersFromFile());
  const std::string id = CreateEvent(
      {"--name", "National Amateur Masters 2026", "--sub-event",
       "open_individual", "--format", "round_robin", "--no-shared-places"});
  // The CSV names each player by registry id.
  const std::vector<std::string> order(kLatin, kLatin + 8);
  std::string csv =
      "row,family_name,given_name,rank,country,club,egd_pin,player_id,"
      "withdrawn_after,r1,r2,r3,r4,r5,r6,r7\n";
  const char* const ranks[] = {"5d", "5d", "4d", "4d", "3d", "3d", "2d", "2d"};
  for (int i = 0; i < 8; ++i) {
    const std::string& latin = order[i];
    csv += std::to_string(i + 1) + "," + latin.substr(0, latin.find(' ')) +
           "," + latin.substr(latin.find(' ') + 1) + "," + ranks[i] +
           ",CN,110,," + ids_[latin] + ",," + kRoundRobinCells[i] + "\n";
  }
  RunResult r = Ctl({"event", "import", File("masters.csv", csv), "--format",
                     "csv", "--event", id},
                    director_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Has(r.out, "player id in the file")) << r.out;
  r = Ctl({"event", "standings", id});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Has(r.out, "pending play-off (1-2)")) << r.out;
  // The event closes with places 1-2 pending (places 3-8 are final); the
  // pending placing earns nothing yet.
  r = Ctl({"event", "close", id}, director_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = Ctl({"grade", "player", ids_["Li Wei"]});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(Has(r.out, "Grade 1 Athlete")) << r.out;
  r = Ctl({"grade", "player", ids_["Zhang Wei"]});  // 3rd: final
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Has(r.out, "Grade 1 Athlete")) << r.out;
  // Li Wei (entrant 2) won the play-off; only a decision of that tie is
  // taken after the close.
  r = Ctl({"event", "result", id, "--round", "1", "--game", "3-6:w"},
          director_);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(Has(r.err, "FAILED_PRECONDITION")) << r.err;
  r = Ctl({"event", "decide", id, "--playoff", "2,1"}, director_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Has(r.out, "play-off 2,1 recorded")) << r.out;
  EXPECT_LT(r.out.find("Li Wei"), r.out.find("Wang Lei")) << r.out;

  ASSERT_NO_FATAL_FAILURE(
      CheckOfficeView(order, "Li Wei", "6d", "Li Wei", "Grade 1 Athlete"));
}

// Bad links and edits get a precise status naming what is wrong, and leave
// the event as it was.
TEST_F(ResultsChainE2eTest, BadLinksAndEditsAreRefusedAndChangeNothing) {
  ASSERT_NO_FATAL_FAILURE(RegisterPlayersFromFile());
  const std::string id =
      CreateEvent({"--name", "National Amateur Open 2026", "--sub-event",
                   "open_individual", "--format", "swiss", "--rounds", "5"});
  const std::string egf = File("swiss.h9", kSwissEgf);
  struct Case {
    std::vector<std::string> extra;
    std::string says;
  };
  for (const Case& c : std::vector<Case>{
           {{"--link", "5=99999"},
            "row 5 (line 12): player 99999 is not registered"},
           {{"--link", "13=" + ids_["Wang Lei"]}, "the file's rows are 1..12"},
           {{"--link", "5=" + ids_["Wang Lei"]},
            "player " + ids_["Wang Lei"] + " is already row 1"},
           {{"--link", "5=" + ids_["Chen Chen"], "--guest", "5"},
            "the row is resolved twice"}}) {
    std::vector<std::string> args = {"event", "import", egf, "--event", id};
    args.insert(args.end(), c.extra.begin(), c.extra.end());
    RunResult r = Ctl(args, director_);
    EXPECT_EQ(r.exit_code, 1) << c.says;
    EXPECT_TRUE(Has(r.err, "INVALID_ARGUMENT") && Has(r.err, c.says)) << r.err;
  }
  RunResult r = Ctl({"event", "import", egf, "--event", id, "--link", "five=3"},
                    director_);
  EXPECT_EQ(r.exit_code, 2) << r.err;  // usage
  r = Ctl({"event", "enter", id, "--player", "99999"}, director_);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(Has(r.err, "NOT_FOUND") &&
              Has(r.err, "player 99999 is not registered"))
      << r.err;
  r = Ctl({"event", "entrants", id});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find('\n'), r.out.size() - 1) << "only the header: " << r.out;

  // With the file stored: a removal of a game that is not there, a second
  // game for a player in one round, a withdrawal of an unknown entrant.
  r = Ctl({"event", "import", egf, "--event", id, "--link",
           "5=" + ids_["Chen Chen"]},
          director_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string before =
      Ctl({"event", "export", id, "--format", "csv"}).out;
  r = Ctl({"event", "result", id, "--round", "2", "--remove", "1-2"},
          director_);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(Has(r.err, "INVALID_ARGUMENT") &&
              Has(r.err, "round 2 has no game 1-2"))
      << r.err;
  r = Ctl({"event", "result", id, "--round", "2", "--game", "1-2:b"},
          director_);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(Has(r.err, "INVALID_ARGUMENT") &&
              Has(r.err, "already plays in round 2"))
      << r.err;
  r = Ctl({"event", "withdraw", id, "--entrant", "40", "--after-round", "2"},
          director_);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(Has(r.err, "INVALID_ARGUMENT") &&
              Has(r.err, "unknown entrant 40"))
      << r.err;
  r = Ctl({"event", "withdraw", id, "--entrant", "3"}, director_);
  EXPECT_EQ(r.exit_code, 2) << r.err;  // --after-round missing
  EXPECT_EQ(Ctl({"event", "export", id, "--format", "csv"}).out, before);
}

}  // namespace
}  // namespace gorank::e2e
