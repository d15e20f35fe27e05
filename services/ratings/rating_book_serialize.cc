// Canonical text of a RatingBook and its restore from the stored form
// (declared in rating_book.h). Kept apart from the rating arithmetic; the
// format is part of the contract ("same input -> byte-identical table"), so
// change it only with a new version line.
#include <charconv>
#include <string>
#include <utility>
#include <vector>

#include "services/ratings/rating_book.h"

namespace gorank::ratings {
namespace {

// Shortest text that reads back as exactly `value`; locale-independent.
void AppendDouble(std::string& out, double value) {
  if (value == 0.0) value = 0.0;  // no "-0"
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value);
  out.append(buf, end);
}

void AppendInt(std::string& out, int64_t value) {
  out += std::to_string(value);
}

void AppendSettings(std::string& out, const RatingSettings& s) {
  out += "system egf2021 floor=";
  AppendDouble(out, s.egf.floor);
  out += " weights=";
  for (size_t i = 0; i < s.egf.class_weights.size(); ++i) {
    if (i > 0) out += ',';
    AppendDouble(out, s.egf.class_weights[i]);
  }
  out += s.egf.weight_applies_to_bonus ? " weight_bonus=1" : " weight_bonus=0";
  out += "\npro elo k=";
  AppendDouble(out, s.pro.k);
  out += " seed_1p=";
  AppendDouble(out, s.pro.seed_1p);
  out += " seed_per_dan=";
  AppendDouble(out, s.pro.seed_per_dan);
  for (const auto& [player, seed] : s.pro.seed_overrides) {
    out += ' ';
    AppendInt(out, player.value);
    out += '=';
    AppendDouble(out, seed);
  }
  out += '\n';
}

}  // namespace

absl::StatusOr<RatingBook> RatingBook::Restore(
    RatingSettings settings, const std::vector<EventKey>& events,
    const std::vector<PlayerRating>& players,
    const std::vector<std::pair<PlayerId, RatingChange>>& history) {
  RatingBook book(std::move(settings));
  absl::flat_hash_map<std::string, uint32_t> event_index;
  for (const EventKey& key : events) {
    if (!book.events_.empty() && !(book.events_.back() < key)) {
      return absl::InvalidArgumentError("stored event '" + key.event_id +
                                        "' is out of order");
    }
    if (!event_index.try_emplace(key.event_id, book.events_.size()).second) {
      return absl::InvalidArgumentError("stored event '" + key.event_id +
                                        "' appears twice");
    }
    book.events_.push_back(key);
    book.event_ids_.insert(key.event_id);
  }
  book.players_.reserve(players.size());
  for (const PlayerRating& r : players) {
    if (r.player.value <= 0 ||
        !book.index_
             .try_emplace(r.player, static_cast<uint32_t>(book.players_.size()))
             .second) {
      return absl::InvalidArgumentError("stored rating of player " +
                                        std::to_string(r.player.value) +
                                        " is not the only one or has a bad id");
    }
    PlayerState p;
    p.id = r.player;
    p.gor = r.gor;
    p.games = r.rated_games;
    p.events = r.rated_events;
    p.has_pro = r.pro_elo.has_value();
    p.pro = r.pro_elo.value_or(0.0);
    p.pro_games = r.pro_games;
    book.players_.push_back(std::move(p));
  }
  for (const auto& [player, change] : history) {
    auto who = book.index_.find(player);
    auto when = event_index.find(change.event.event_id);
    if (who == book.index_.end() || when == event_index.end()) {
      return absl::InvalidArgumentError("stored history of player " +
                                        std::to_string(player.value) +
                                        " at event '" + change.event.event_id +
                                        "' names no stored rating or event");
    }
    PlayerState& p = book.players_[who->second];
    if (!p.history.empty() && p.history.back().event_index >= when->second) {
      return absl::InvalidArgumentError(
          "stored history of player " + std::to_string(player.value) +
          " is out of event order at '" + change.event.event_id + "'");
    }
    p.history.push_back(HistoryRecord{
        when->second, change.games, change.pro_games, change.gor_before,
        change.gor_after, change.pro_before.value_or(0.0),
        change.pro_after.value_or(0.0)});
  }
  return book;
}

std::string RatingBook::SerializeTable() const {
  std::string out = "gorank-rating-table v1\n";
  AppendSettings(out, settings_);
  out += "events ";
  AppendInt(out, static_cast<int64_t>(events_.size()));
  if (!events_.empty()) {
    const EventKey& last = events_.back();
    out += " last=" + last.date.ToString() + '#' + std::to_string(last.order) +
           '#' + last.event_id;
  }
  out += "\nplayers ";
  AppendInt(out, static_cast<int64_t>(players_.size()));
  out += '\n';
  for (const PlayerState* p : SortedPlayers()) {
    AppendInt(out, p->id.value);
    out += '\t';
    AppendDouble(out, p->gor);
    out += '\t';
    AppendInt(out, p->games);
    out += '\t';
    AppendInt(out, p->events);
    out += '\t';
    if (p->has_pro) {
      AppendDouble(out, p->pro);
    } else {
      out += '-';
    }
    out += '\t';
    AppendInt(out, p->pro_games);
    out += '\n';
  }
  return out;
}

std::string RatingBook::SerializeHistory() const {
  std::string out = "gorank-rating-history v1\n";
  for (const PlayerState* p : SortedPlayers()) {
    for (const HistoryRecord& h : p->history) {
      const EventKey& key = events_[h.event_index];
      AppendInt(out, p->id.value);
      out += '\t' + key.event_id + '\t' + key.date.ToString() + '\t';
      AppendInt(out, key.order);
      out += '\t';
      AppendDouble(out, h.gor_before);
      out += '\t';
      AppendDouble(out, h.gor_after);
      out += '\t';
      AppendInt(out, h.games);
      out += '\t';
      if (h.pro_games > 0) {
        AppendDouble(out, h.pro_before);
        out += '\t';
        AppendDouble(out, h.pro_after);
      } else {
        out += "-\t-";
      }
      out += '\t';
      AppendInt(out, h.pro_games);
      out += '\n';
    }
  }
  return out;
}

}  // namespace gorank::ratings
