#include "services/tournaments/results.h"

#include <map>
#include <set>
#include <utility>

namespace gorank::tournaments {
namespace {

std::string GameLabel(const Game& g) {
  return "round " + std::to_string(g.round) + " game " +
         std::to_string(g.black.value) + " v " + std::to_string(g.white.value);
}

// Problems with the entrant and team lists.
void CheckEntrants(const EventResults& r, std::vector<std::string>& problems) {
  std::set<int> ids;
  std::set<int> team_ids;
  for (const Team& t : r.teams) {
    if (t.id.value <= 0 || !team_ids.insert(t.id.value).second) {
      problems.push_back("team id " + std::to_string(t.id.value) +
                         " is not positive or not unique");
    }
  }
  for (const Entrant& e : r.entrants) {
    const std::string who = "entrant " + std::to_string(e.id.value);
    if (e.id.value <= 0 || !ids.insert(e.id.value).second) {
      problems.push_back(who + ": id is not positive or not unique");
    }
    if (!e.player_id.has_value() &&
        (e.family_name.empty() || !e.rank.has_value())) {
      problems.push_back(who + ": a guest needs a name and a rank");
    }
    if (e.team.has_value() && !team_ids.count(e.team->value)) {
      problems.push_back(who + ": unknown team " +
                         std::to_string(e.team->value));
    }
  }
  for (const Team& t : r.teams) {
    for (EntrantId member : t.board_order) {
      if (!ids.count(member.value)) {
        problems.push_back("team " + std::to_string(t.id.value) +
                           ": board order names unknown entrant " +
                           std::to_string(member.value));
      }
    }
  }
}

bool LosesOnWarnings(const Game& g, bool black) {
  const int warnings = black ? g.black_warnings : g.white_warnings;
  if (warnings < 2) return false;
  return GamePoints(g, black) != 0 || g.outcome == Outcome::kUnknown;
}

void CheckGames(const Event& event, const EventResults& r,
                std::vector<std::string>& problems) {
  std::set<int> ids;
  for (const Entrant& e : r.entrants) ids.insert(e.id.value);
  const bool swiss = event.format.kind == FormatKind::kSwiss ||
                     event.format.kind == FormatKind::kTeamSwiss;
  const bool repeated_pairs_allowed =
      event.format.kind == FormatKind::kKnockout ||
      event.format.kind == FormatKind::kMatch;
  std::set<std::pair<int, int>> busy;  // (round, entrant)
  for (const Game& g : r.games) {
    const std::string what = GameLabel(g);
    if (!ids.count(g.black.value) || !ids.count(g.white.value)) {
      problems.push_back(what + ": unknown entrant");
      continue;
    }
    if (g.black == g.white)
      problems.push_back(what + ": a player against themself");
    if (g.round < 1 || (swiss && g.round > event.format.rounds)) {
      problems.push_back(what + ": round outside 1.." +
                         (swiss ? std::to_string(event.format.rounds) : "n"));
    }
    if (g.handicap < 0 || g.black_warnings < 0 || g.white_warnings < 0) {
      problems.push_back(what + ": negative handicap or warnings");
    }
    if (LosesOnWarnings(g, true) || LosesOnWarnings(g, false)) {
      problems.push_back(what +
                         ": two warnings lose the game; record it as that "
                         "side's loss");
    }
    if (g.kind == GameKind::kRegular && !repeated_pairs_allowed) {
      for (EntrantId side : {g.black, g.white}) {
        if (!busy.insert({g.round, side.value}).second) {
          problems.push_back(what + ": entrant " + std::to_string(side.value) +
                             " already plays in round " +
                             std::to_string(g.round));
        }
      }
    }
  }
  for (const Bye& b : r.byes) {
    if (!ids.count(b.entrant.value) && !b.team.has_value()) {
      problems.push_back("bye in round " + std::to_string(b.round) +
                         ": unknown entrant " +
                         std::to_string(b.entrant.value));
    }
    if (b.points < 0 || b.points > 2) {
      problems.push_back("bye in round " + std::to_string(b.round) +
                         ": points must be 0, 1 or 2");
    }
  }
}

}  // namespace

std::string Entrant::DisplayName() const {
  if (given_name.empty()) return family_name;
  // Chinese (and other non-Latin) names are written without a space: an
  // EGF row "张 三" is 张三.
  const bool cjk = !family_name.empty() &&
                   static_cast<unsigned char>(family_name.back()) >= 0x80 &&
                   static_cast<unsigned char>(given_name.front()) >= 0x80;
  return family_name + (cjk ? "" : " ") + given_name;
}

int GamePoints(const Game& game, bool black) {
  switch (game.outcome) {
    case Outcome::kBlackWins:
      return black ? 2 : 0;
    case Outcome::kWhiteWins:
      return black ? 0 : 2;
    case Outcome::kDraw:
      return 1;
    case Outcome::kBothLose:
    case Outcome::kUnknown:
      return 0;
  }
  return 0;
}

absl::Status ValidateResults(const Event& event, const EventResults& results) {
  std::vector<std::string> problems;
  CheckEntrants(results, problems);
  CheckGames(event, results, problems);
  std::set<int> ids;
  for (const Entrant& e : results.entrants) ids.insert(e.id.value);
  for (const Team& t : results.teams) ids.insert(t.id.value);
  for (const TieDecision& d : results.tie_decisions) {
    for (int id : d.order) {
      if (!ids.count(id)) {
        problems.push_back("tie decision names unknown id " +
                           std::to_string(id));
      }
    }
  }
  if (problems.empty()) return absl::OkStatus();
  std::string message = "results of '" + event.name + "' are inconsistent:";
  for (const std::string& p : problems) message += "\n  " + p;
  return absl::InvalidArgumentError(message);
}

}  // namespace gorank::tournaments
