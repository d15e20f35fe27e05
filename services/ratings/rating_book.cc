#include "services/ratings/rating_book.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "services/common/status_macros.h"

namespace gorank::ratings {
namespace {

absl::Status CheckGameBelongs(const RatedEvent& event, const RatedGame& game) {
  GORANK_RETURN_IF_ERROR(ValidateGame(game));
  if (game.event_id != event.key.event_id ||
      game.event_date != event.key.date ||
      game.event_order != event.key.order ||
      game.time_class != event.time_class) {
    return absl::InvalidArgumentError(
        "event '" + event.key.event_id + "' game " +
        std::to_string(game.game_id) +
        ": event id, date, order or time class differs from the event's");
  }
  return absl::OkStatus();
}

}  // namespace

registry::Rank PlayerRating::Grade() const { return EgfGrade(gor); }

RatingBook::RatingBook(RatingSettings settings)
    : settings_(std::move(settings)) {}

std::optional<EventKey> RatingBook::last_event() const {
  if (events_.empty()) return std::nullopt;
  return events_.back();
}

absl::Status RatingBook::CheckOrder(const RatedEvent& event) const {
  if (event_ids_.contains(event.key.event_id)) {
    return absl::AlreadyExistsError("event '" + event.key.event_id +
                                    "' is already in the rating book");
  }
  if (!events_.empty() && !(events_.back() < event.key)) {
    const EventKey& last = events_.back();
    return absl::FailedPreconditionError(
        "event '" + event.key.event_id + "' (" + event.key.date.ToString() +
        " #" + std::to_string(event.key.order) +
        ") does not come after the last applied event '" + last.event_id +
        "' (" + last.date.ToString() + " #" + std::to_string(last.order) +
        "); a back-dated event needs a full recompute");
  }
  for (size_t i = 0; i < event.games.size(); ++i) {
    GORANK_RETURN_IF_ERROR(CheckGameBelongs(event, event.games[i]));
    if (i > 0 && event.games[i].game_id <= event.games[i - 1].game_id) {
      return absl::InvalidArgumentError(
          "event '" + event.key.event_id +
          "': game_ids must be strictly increasing (game " +
          std::to_string(event.games[i].game_id) + ")");
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<RatingBook::NewSeed>> RatingBook::CollectSeeds(
    const RatedEvent& event) const {
  std::vector<NewSeed> seeds;
  absl::flat_hash_map<PlayerId, size_t> pos;
  auto visit = [&](PlayerId id, const std::optional<registry::Rank>& rank,
                   bool pro_game) {
    auto known = index_.find(id);
    const bool rated = known != index_.end();
    const bool has_pro = rated && players_[known->second].has_pro;
    if (rated && (has_pro || !pro_game)) return;
    auto [it, inserted] = pos.try_emplace(id, seeds.size());
    if (inserted) seeds.push_back(NewSeed{id, std::nullopt, std::nullopt});
    NewSeed& seed = seeds[it->second];
    if (!rated && !seed.gor && rank) seed.gor = EgfSeed(*rank);
    if (pro_game && !has_pro && !seed.pro) {
      seed.pro = ProSeed(settings_.pro, id, *rank);
    }
  };
  for (const RatedGame& game : event.games) {
    if (!game.IsRated()) continue;
    const bool pro_game = IsProListGame(game);
    visit(game.black, game.black_rank, pro_game);
    visit(game.white, game.white_rank, pro_game);
  }
  for (const NewSeed& seed : seeds) {
    if (!seed.gor && !index_.contains(seed.id)) {
      return absl::InvalidArgumentError(
          "event '" + event.key.event_id + "': player " +
          std::to_string(seed.id.value) +
          " has no rating yet and declared no rank in any rated game of the "
          "event, so cannot be seeded");
    }
  }
  return seeds;
}

absl::Status RatingBook::ApplyEvent(const RatedEvent& event) {
  GORANK_RETURN_IF_ERROR(CheckOrder(event));
  GORANK_ASSIGN_OR_RETURN(std::vector<NewSeed> seeds, CollectSeeds(event));
  Commit(event, seeds);
  return absl::OkStatus();
}

void RatingBook::Commit(const RatedEvent& event,
                        const std::vector<NewSeed>& seeds) {
  for (const NewSeed& seed : seeds) {
    auto [it, inserted] =
        index_.try_emplace(seed.id, static_cast<uint32_t>(players_.size()));
    if (inserted) {
      players_.push_back(PlayerState{});
      players_.back().id = seed.id;
      players_.back().gor = *seed.gor;
    }
    if (seed.pro) {
      players_[it->second].has_pro = true;
      players_[it->second].pro = *seed.pro;
    }
  }
  const uint32_t event_index = static_cast<uint32_t>(events_.size());
  events_.push_back(event.key);
  event_ids_.insert(event.key.event_id);

  std::vector<uint32_t> touched;
  const double weight = EgfClassWeight(settings_.egf, event.time_class);
  for (const RatedGame& game : event.games) {
    if (game.IsRated()) Accumulate(game, weight, touched);
  }
  for (uint32_t i : touched) {
    PlayerState& p = players_[i];
    HistoryRecord record{event_index,
                         p.event_games,
                         p.event_pro_games,
                         p.gor,
                         std::max(settings_.egf.floor, p.gor + p.delta),
                         p.pro,
                         p.pro + p.pro_delta};
    p.gor = record.gor_after;
    p.pro = record.pro_after;
    p.games += p.event_games;
    p.pro_games += p.event_pro_games;
    ++p.events;
    p.history.push_back(record);
    p.delta = p.pro_delta = 0.0;
    p.event_games = p.event_pro_games = 0;
  }
}

absl::Status RatingBook::SeedRating(PlayerId player, double gor) {
  if (player.value <= 0) {
    return absl::InvalidArgumentError("player ids must be positive");
  }
  if (!std::isfinite(gor) || gor < settings_.egf.floor) {
    return absl::InvalidArgumentError(
        "imported rating of player " + std::to_string(player.value) +
        " must be a number at or above the floor");
  }
  if (index_.contains(player)) {
    return absl::FailedPreconditionError(
        "player " + std::to_string(player.value) +
        " already has a rating; an imported rating only seeds new players");
  }
  index_.emplace(player, static_cast<uint32_t>(players_.size()));
  players_.push_back(PlayerState{});
  players_.back().id = player;
  players_.back().gor = gor;
  return absl::OkStatus();
}

absl::Status RatingBook::SetStart(PlayerId player, double gor,
                                  std::optional<double> pro_elo) {
  if (pro_elo.has_value() && !std::isfinite(*pro_elo)) {
    return absl::InvalidArgumentError(
        "imported professional rating of player " +
        std::to_string(player.value) + " must be a finite number");
  }
  auto it = index_.find(player);
  if (it == index_.end()) {
    GORANK_RETURN_IF_ERROR(SeedRating(player, gor));
    it = index_.find(player);
  } else {
    if (players_[it->second].events > 0 || players_[it->second].pro_games > 0) {
      return absl::FailedPreconditionError(
          "player " + std::to_string(player.value) +
          " already has a rated event; an imported start only applies "
          "before the first one");
    }
    if (!std::isfinite(gor) || gor < settings_.egf.floor) {
      return absl::InvalidArgumentError(
          "imported rating of player " + std::to_string(player.value) +
          " must be a number at or above the floor");
    }
    players_[it->second].gor = gor;
  }
  PlayerState& p = players_[it->second];
  p.has_pro = pro_elo.has_value();
  p.pro = pro_elo.value_or(0.0);
  return absl::OkStatus();
}

// The start-of-event con, bonus and beta of a player are computed once per
// event (ratings are frozen for the event); the arithmetic is otherwise that
// of EgfGameChange, term for term, so the result is the same to the bit.
void RatingBook::Prepare(uint32_t i, std::vector<uint32_t>& touched) {
  PlayerState& p = players_[i];
  if (p.event_games++ > 0) return;
  touched.push_back(i);
  p.con = EgfCon(p.gor);
  p.bonus = EgfBonus(p.gor);
  p.beta = EgfBeta(p.gor);
}

void RatingBook::Accumulate(const RatedGame& game, double weight,
                            std::vector<uint32_t>& touched) {
  const uint32_t bi = index_.find(game.black)->second;
  const uint32_t wi = index_.find(game.white)->second;
  Prepare(bi, touched);
  Prepare(wi, touched);
  PlayerState& b = players_[bi];
  PlayerState& w = players_[wi];
  // Black receives the handicap: only Black's beta is shifted.
  const double beta_b = game.handicap > 0
                            ? EgfBeta(b.gor + EgfHandicapShift(game.handicap))
                            : b.beta;
  const double se_b = 1.0 / (1.0 + std::exp(w.beta - beta_b));
  const double se_w = 1.0 / (1.0 + std::exp(beta_b - w.beta));
  const double bonus_weight =
      settings_.egf.weight_applies_to_bonus ? weight : 1.0;
  const double sb = game.BlackScore();
  b.delta += weight * b.con * (sb - se_b) + bonus_weight * b.bonus;
  w.delta += weight * w.con * ((1.0 - sb) - se_w) + bonus_weight * w.bonus;
  if (IsProListGame(game)) {
    b.pro_delta += EloGameChange(settings_.pro, b.pro, w.pro, sb);
    w.pro_delta += EloGameChange(settings_.pro, w.pro, b.pro, 1.0 - sb);
    ++b.event_pro_games;
    ++w.event_pro_games;
  }
}

absl::Status RatingBook::ApplyGames(std::vector<RatedGame> games) {
  GORANK_ASSIGN_OR_RETURN(std::vector<RatedEvent> events,
                          GroupIntoEvents(std::move(games)));
  for (const RatedEvent& event : events) {
    GORANK_RETURN_IF_ERROR(ApplyEvent(event));
  }
  return absl::OkStatus();
}

PlayerRating RatingBook::ToRating(const PlayerState& p) const {
  PlayerRating r;
  r.player = p.id;
  r.gor = p.gor;
  r.rated_games = p.games;
  r.rated_events = p.events;
  if (p.has_pro) r.pro_elo = p.pro;
  r.pro_games = p.pro_games;
  return r;
}

std::optional<PlayerRating> RatingBook::Find(PlayerId player) const {
  auto it = index_.find(player);
  if (it == index_.end()) return std::nullopt;
  return ToRating(players_[it->second]);
}

std::vector<RatingChange> RatingBook::History(PlayerId player) const {
  std::vector<RatingChange> out;
  auto it = index_.find(player);
  if (it == index_.end()) return out;
  for (const HistoryRecord& h : players_[it->second].history) {
    RatingChange c;
    c.event = events_[h.event_index];
    c.gor_before = h.gor_before;
    c.gor_after = h.gor_after;
    c.games = h.games;
    c.pro_games = h.pro_games;
    if (h.pro_games > 0) {
      c.pro_before = h.pro_before;
      c.pro_after = h.pro_after;
    }
    out.push_back(std::move(c));
  }
  return out;
}

std::vector<const RatingBook::PlayerState*> RatingBook::SortedPlayers() const {
  std::vector<const PlayerState*> sorted;
  sorted.reserve(players_.size());
  for (const PlayerState& p : players_) sorted.push_back(&p);
  std::sort(
      sorted.begin(), sorted.end(),
      [](const PlayerState* a, const PlayerState* b) { return a->id < b->id; });
  return sorted;
}

std::vector<PlayerRating> RatingBook::Table() const {
  std::vector<PlayerRating> table;
  table.reserve(players_.size());
  for (const PlayerState* p : SortedPlayers()) table.push_back(ToRating(*p));
  return table;
}

absl::StatusOr<RatingBook> Recompute(
    const RatingSettings& settings, std::vector<RatedGame> games,
    const std::map<PlayerId, double>& imported) {
  RatingBook book(settings);
  for (const auto& [player, gor] : imported) {
    GORANK_RETURN_IF_ERROR(book.SeedRating(player, gor));
  }
  GORANK_RETURN_IF_ERROR(book.ApplyGames(std::move(games)));
  return book;
}

absl::StatusOr<RatingBook> Recompute(
    const RatingSettings& settings, std::vector<RatedGame> games,
    const std::map<PlayerId, StartValue>& starts) {
  RatingBook book(settings);
  for (const auto& [player, start] : starts) {
    GORANK_RETURN_IF_ERROR(book.SetStart(player, start.gor, start.pro_elo));
  }
  GORANK_RETURN_IF_ERROR(book.ApplyGames(std::move(games)));
  return book;
}

}  // namespace gorank::ratings
