#include "services/ratings/event_games.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "services/common/status_macros.h"

namespace gorank::ratings {
namespace {

using tournaments::Entrant;
using tournaments::Outcome;

GameResult ResultOf(Outcome outcome) {
  switch (outcome) {
    case Outcome::kBlackWins:
      return GameResult::kBlackWin;
    case Outcome::kWhiteWins:
      return GameResult::kWhiteWin;
    case Outcome::kDraw:
      return GameResult::kJigo;
    case Outcome::kUnknown:
    case Outcome::kBothLose:
      return GameResult::kNoResult;
  }
  return GameResult::kNoResult;
}

absl::StatusOr<const Entrant*> FindEntrant(
    const std::map<int, const Entrant*>& entrants, tournaments::EntrantId id,
    const std::string& where) {
  auto it = entrants.find(id.value);
  if (it == entrants.end()) {
    return absl::InvalidArgumentError(where + ": entrant " +
                                      std::to_string(id.value) +
                                      " is not among the event's entrants");
  }
  return it->second;
}

}  // namespace

std::optional<TimeClass> RatingTimeClass(tournaments::TimeClass time_class) {
  switch (time_class) {
    case tournaments::TimeClass::kA:
      return TimeClass::kA;
    case tournaments::TimeClass::kB:
      return TimeClass::kB;
    case tournaments::TimeClass::kC:
      return TimeClass::kC;
    case tournaments::TimeClass::kD:
      return TimeClass::kD;
    case tournaments::TimeClass::kX:
    case tournaments::TimeClass::kUnspecified:
      return std::nullopt;
  }
  return std::nullopt;
}

absl::StatusOr<std::vector<RatedGame>> EventGames(
    const tournaments::Event& event, const tournaments::EventResults& results,
    int64_t event_order) {
  const std::string event_id = std::to_string(event.id.value);
  if (!event.closed) {
    return absl::FailedPreconditionError(
        "event " + event_id + " is not closed; close it before rating it");
  }
  const Date date = event.end.IsValid() ? event.end : event.start;
  if (!date.IsValid()) {
    return absl::InvalidArgumentError("event " + event_id +
                                      " has no valid end or start date");
  }
  std::vector<RatedGame> games;
  const std::optional<TimeClass> time_class =
      RatingTimeClass(event.time.time_class);
  if (!time_class.has_value()) return games;  // class X: not rated

  std::map<int, const Entrant*> entrants;
  for (const Entrant& e : results.entrants) entrants[e.id.value] = &e;
  std::map<int, int> games_in_round;
  for (const tournaments::Game& g : results.games) {
    const std::string where =
        "event " + event_id + ", round " + std::to_string(g.round);
    if (g.round < 1) {
      return absl::InvalidArgumentError(where + ": rounds start at 1");
    }
    const int n = ++games_in_round[g.round];
    if (n > 999) {
      return absl::InvalidArgumentError(
          where + ": more than 999 games in one round cannot be numbered");
    }
    GORANK_ASSIGN_OR_RETURN(const Entrant* black,
                            FindEntrant(entrants, g.black, where));
    GORANK_ASSIGN_OR_RETURN(const Entrant* white,
                            FindEntrant(entrants, g.white, where));
    if (!black->player_id.has_value() || !white->player_id.has_value()) {
      continue;  // a guest: only registered players are rated
    }
    RatedGame game;
    game.event_id = event_id;
    game.event_date = date;
    game.event_order = event_order;
    game.time_class = *time_class;
    game.game_id = int64_t{g.round} * 1000 + n;
    game.black = *black->player_id;
    game.white = *white->player_id;
    game.black_rank = black->rank;
    game.white_rank = white->rank;
    game.result = ResultOf(g.outcome);
    game.handicap = g.handicap;
    game.komi = g.komi_x2.value_or(event.rules.komi_x2) / 2.0;
    game.forfeit = g.forfeit;
    GORANK_RETURN_IF_ERROR(ValidateGame(game));
    games.push_back(std::move(game));
  }
  std::sort(games.begin(), games.end(),
            [](const RatedGame& a, const RatedGame& b) {
              return a.game_id < b.game_id;
            });
  return games;
}

}  // namespace gorank::ratings
