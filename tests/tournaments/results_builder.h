// Test helper: builds EventResults tersely. Games put the first-named side
// on black. Not a fake of anything; just less typing in table-driven tests.
#ifndef GORANK_TESTS_TOURNAMENTS_RESULTS_BUILDER_H_
#define GORANK_TESTS_TOURNAMENTS_RESULTS_BUILDER_H_

#include <string>
#include <utility>

#include "services/registry/rank.h"
#include "services/tournaments/results.h"
#include "services/tournaments/standings.h"

namespace gorank::tournaments::testing {

class ResultsBuilder {
 public:
  ResultsBuilder& Player(int id, std::string name, int team = 0) {
    Entrant e;
    e.id = EntrantId{id};
    e.family_name = std::move(name);
    e.rank = registry::Rank::FromString("1d");
    if (team > 0) e.team = TeamId{team};
    r_.entrants.push_back(e);
    return *this;
  }
  // Players 1..n named "P1".."Pn".
  ResultsBuilder& Players(int n) {
    for (int i = 1; i <= n; ++i) Player(i, "P" + std::to_string(i));
    return *this;
  }
  ResultsBuilder& TeamOf(int id, std::string name, std::vector<int> boards) {
    Team t;
    t.id = TeamId{id};
    t.name = std::move(name);
    for (int b : boards) t.board_order.push_back(EntrantId{b});
    r_.teams.push_back(t);
    return *this;
  }
  ResultsBuilder& Win(int round, int winner, int loser, int board = 0) {
    return Add(round, winner, loser, Outcome::kBlackWins, false, board);
  }
  ResultsBuilder& Draw(int round, int a, int b, int board = 0) {
    return Add(round, a, b, Outcome::kDraw, false, board);
  }
  ResultsBuilder& ForfeitWin(int round, int winner, int loser) {
    return Add(round, winner, loser, Outcome::kBlackWins, true, 0);
  }
  ResultsBuilder& DoubleForfeit(int round, int a, int b) {
    return Add(round, a, b, Outcome::kBothLose, true, 0);
  }
  ResultsBuilder& Unknown(int round, int a, int b) {
    return Add(round, a, b, Outcome::kUnknown, false, 0);
  }
  ResultsBuilder& PlayoffWin(int winner, int loser) {
    Add(0, winner, loser, Outcome::kBlackWins, false, 0);
    r_.games.back().kind = GameKind::kPlacePlayoff;
    r_.games.back().round = 99;
    return *this;
  }
  // Warnings on the last game added.
  ResultsBuilder& Warnings(int black, int white) {
    r_.games.back().black_warnings = black;
    r_.games.back().white_warnings = white;
    return *this;
  }
  ResultsBuilder& ByeFor(int round, int id) {
    r_.byes.push_back(Bye{round, EntrantId{id}, std::nullopt, 2});
    return *this;
  }
  ResultsBuilder& TeamBye(int round, int team) {
    r_.byes.push_back(Bye{round, EntrantId{0}, TeamId{team}, 2});
    return *this;
  }
  ResultsBuilder& Withdraw(int id, int after_round) {
    for (Entrant& e : r_.entrants) {
      if (e.id.value == id) e.withdrawn_after_round = after_round;
    }
    return *this;
  }
  ResultsBuilder& WithdrawTeam(int id, int after_round) {
    for (Team& t : r_.teams) {
      if (t.id.value == id) t.withdrawn_after_round = after_round;
    }
    return *this;
  }
  ResultsBuilder& Decide(TieDecisionMethod method, std::vector<int> order) {
    r_.tie_decisions.push_back(TieDecision{method, std::move(order)});
    return *this;
  }
  const EventResults& Build() const { return r_; }

 private:
  ResultsBuilder& Add(int round, int black, int white, Outcome o, bool forfeit,
                      int board) {
    Game g;
    g.round = round;
    g.board = board;
    g.black = EntrantId{black};
    g.white = EntrantId{white};
    g.outcome = o;
    g.forfeit = forfeit;
    r_.games.push_back(g);
    return *this;
  }

  EventResults r_;
};

inline Event MakeEvent(FormatKind kind, int rounds = 0, int boards = 0) {
  Event e;
  e.name = "Test event";
  e.format.kind = kind;
  e.format.rounds = rounds;
  e.format.boards = boards;
  return e;
}

// One line per row: "<place label> <name> <criteria joined by ' '>".
inline std::string Summary(const Standings& s) {
  std::string out;
  for (const StandingRow& row : s.rows) {
    out += row.place_label + " " + row.name;
    for (const Rational& v : row.criteria) out += " " + v.ToString();
    out += "\n";
  }
  return out;
}

}  // namespace gorank::tournaments::testing

#endif  // GORANK_TESTS_TOURNAMENTS_RESULTS_BUILDER_H_
