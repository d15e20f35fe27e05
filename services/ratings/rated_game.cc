#include "services/ratings/rated_game.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"

namespace gorank::ratings {
namespace {

constexpr size_t kMaxEventIdBytes = 128;

std::string Where(const RatedGame& game) {
  return "event '" + game.event_id + "' game " + std::to_string(game.game_id);
}

absl::Status Invalid(const RatedGame& game, const std::string& what) {
  return absl::InvalidArgumentError(Where(game) + ": " + what);
}

absl::Status ValidateEventId(const std::string& id) {
  if (id.empty()) return absl::InvalidArgumentError("a game has no event_id");
  if (id.size() > kMaxEventIdBytes) {
    return absl::InvalidArgumentError("event_id '" + id.substr(0, 32) +
                                      "...' is longer than 128 bytes");
  }
  for (unsigned char c : id) {
    if (c < 0x20 || c == 0x7f) {
      return absl::InvalidArgumentError("event_id '" + id +
                                        "' contains a control character");
    }
  }
  return absl::OkStatus();
}

}  // namespace

double RatedGame::BlackScore() const {
  switch (result) {
    case GameResult::kBlackWin:
      return 1.0;
    case GameResult::kWhiteWin:
      return 0.0;
    case GameResult::kJigo:
      return 0.5;
    case GameResult::kNoResult:
      break;
  }
  std::abort();  // REQUIRES violated
}

const char* TimeClassName(TimeClass time_class) {
  switch (time_class) {
    case TimeClass::kA:
      return "A";
    case TimeClass::kB:
      return "B";
    case TimeClass::kC:
      return "C";
    case TimeClass::kD:
      return "D";
  }
  return "?";
}

absl::Status ValidateGame(const RatedGame& game) {
  if (absl::Status s = ValidateEventId(game.event_id); !s.ok()) return s;
  if (!game.event_date.IsValid()) {
    return Invalid(game, "event_date " + game.event_date.ToString() +
                             " is not a calendar date");
  }
  if (game.handicap < 0 || game.handicap > 9) {
    return Invalid(
        game, "handicap " + std::to_string(game.handicap) + " is outside 0..9");
  }
  if (!std::isfinite(game.komi)) return Invalid(game, "komi is not a number");
  if (game.black.value < 0 || game.white.value < 0) {
    return Invalid(game, "player ids must not be negative");
  }
  if (game.bye) {
    if (game.black.value <= 0) {
      return Invalid(game, "a bye names its player in `black` (id > 0)");
    }
    return absl::OkStatus();
  }
  if (game.black.value <= 0 || game.white.value <= 0) {
    return Invalid(game,
                   "a game that is not a bye needs two players (ids > 0)");
  }
  if (game.black == game.white) {
    return Invalid(game, "player " + std::to_string(game.black.value) +
                             " cannot play against themself");
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<RatedEvent>> GroupIntoEvents(
    std::vector<RatedGame> games) {
  std::vector<RatedEvent> events;
  absl::flat_hash_map<std::string, size_t> index;
  for (RatedGame& game : games) {
    if (absl::Status s = ValidateGame(game); !s.ok()) return s;
    auto [it, inserted] = index.try_emplace(game.event_id, events.size());
    if (inserted) {
      events.emplace_back();
      events.back().key =
          EventKey{game.event_date, game.event_order, game.event_id};
      events.back().time_class = game.time_class;
    }
    RatedEvent& event = events[it->second];
    if (event.key.date != game.event_date ||
        event.key.order != game.event_order ||
        event.time_class != game.time_class) {
      return Invalid(game,
                     "event date, order or time class differs from the "
                     "event's other games (" +
                         event.key.date.ToString() + " #" +
                         std::to_string(event.key.order) + " class " +
                         TimeClassName(event.time_class) + ")");
    }
    event.games.push_back(std::move(game));
  }
  for (RatedEvent& event : events) {
    std::sort(event.games.begin(), event.games.end(),
              [](const RatedGame& a, const RatedGame& b) {
                return a.game_id < b.game_id;
              });
    for (size_t i = 1; i < event.games.size(); ++i) {
      if (event.games[i].game_id == event.games[i - 1].game_id) {
        return Invalid(event.games[i], "game_id is used twice in the event");
      }
    }
  }
  // Event ids are unique, so the keys are distinct and the order is total.
  std::sort(
      events.begin(), events.end(),
      [](const RatedEvent& a, const RatedEvent& b) { return a.key < b.key; });
  return events;
}

}  // namespace gorank::ratings
