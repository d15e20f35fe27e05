#include "services/ratings/promotion.h"

#include <algorithm>
#include <set>
#include <tuple>
#include <type_traits>
#include <variant>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "services/common/status_macros.h"
#include "services/ratings/egf.h"

namespace gorank::ratings {
namespace {

using registry::Rank;

// The facts of one record as seen on one date.
class View {
 public:
  View(const PlayerRecord& record, Date as_of)
      : record_(record), as_of_(as_of) {}
  const PlayerRecord& record() const { return record_; }
  const Rank& rank() const { return record_.rank; }
  bool Counts(const Date& d) const { return d <= as_of_; }
  bool SincePromotion(const Date& d) const {
    return Counts(d) &&
           (!record_.last_promotion || d > *record_.last_promotion);
  }
  std::optional<int> DaysSincePromotion() const {
    if (!record_.last_promotion) return std::nullopt;
    return static_cast<int>(as_of_.ToDays() - record_.last_promotion->ToDays());
  }

 private:
  const PlayerRecord& record_;
  Date as_of_;
};

// Whether a rule's category list names the result's event: "code" or
// "code/group".
bool InList(const std::vector<std::string>& list, const EventResult& r) {
  for (const std::string& c : list) {
    if (c == r.category) return true;
    if (!r.group.empty() && c == r.category + "/" + r.group) return true;
  }
  return false;
}

RuleVerdict NotApplicable(std::string why) {
  RuleVerdict v;
  v.explanation = std::move(why);
  return v;
}

RuleVerdict Conclude(RuleVerdict v, const Rank& target,
                     const std::vector<std::string>& missing,
                     const std::string& met_text) {
  v.met = missing.empty();
  if (v.met) {
    v.proposed = target;
    v.explanation = "meets the rule for " + target.ToString() + ": " + met_text;
  } else {
    v.explanation = "does not yet meet the rule for " + target.ToString() +
                    ": " + absl::StrJoin(missing, "; ");
  }
  return v;
}

RuleVerdict EvalAmateurRating(const AmateurRatingRule& p, const View& view) {
  if (view.rank().IsPro()) {
    return NotApplicable("professional ranks are not promoted by rating");
  }
  if (view.rank() >= p.max_target) {
    return NotApplicable(
        "current rank " + view.rank().ToString() +
        " is at or above the highest grade this rule awards (" +
        p.max_target.ToString() + ")");
  }
  const Rank target = *Rank::FromOrdinal(view.rank().Ordinal() + 1);
  RuleVerdict v;
  v.applicable = true;
  Evidence& e = v.evidence;
  e.threshold = EgfGradeThreshold(target);
  const RatingChange* latest = nullptr;
  for (const RatingChange& h : view.record().rating_history) {
    if (!view.Counts(h.event.date)) continue;
    if (latest == nullptr || latest->event < h.event) latest = &h;
    if (view.SincePromotion(h.event.date)) {
      e.rated_games += h.games;
      ++e.rated_events;
      e.event_ids.push_back(h.event.event_id);
    }
  }
  if (latest != nullptr) e.rating = latest->gor_after;
  e.days_since_promotion = view.DaysSincePromotion();
  std::vector<std::string> missing;
  if (!e.rating) {
    missing.push_back("no rated games yet");
  } else if (*e.rating < *e.threshold) {
    missing.push_back(
        absl::StrFormat("rating %.2f is below %.0f", *e.rating, *e.threshold));
  }
  if (e.rated_games < p.min_rated_games) {
    missing.push_back(absl::StrCat(e.rated_games,
                                   " rated games since the last promotion, ",
                                   p.min_rated_games, " needed"));
  }
  if (e.rated_events < p.min_events) {
    missing.push_back(absl::StrCat(e.rated_events,
                                   " rated events since the last promotion, ",
                                   p.min_events, " needed"));
  }
  if (e.days_since_promotion &&
      *e.days_since_promotion < p.min_days_since_promotion) {
    missing.push_back(absl::StrCat(*e.days_since_promotion,
                                   " days since the last promotion, ",
                                   p.min_days_since_promotion, " needed"));
  }
  const std::string met_text = absl::StrFormat(
      "rating %.2f >= %.0f, %d rated games in %d events since the last "
      "promotion",
      e.rating.value_or(0), *e.threshold, e.rated_games, e.rated_events);
  return Conclude(std::move(v), target, missing, met_text);
}

// Why `r` does not qualify under `p` for a player of rank `current`; "" if
// it does. REQUIRES: r.group_target_rank is set.
std::string RankTournamentShortfall(const RankTournamentRule& p,
                                    const EventResult& r) {
  const std::string where = "event '" + r.event_id + "': ";
  if (*r.group_target_rank > p.max_award || r.group_target_rank->IsPro()) {
    return where + "the group awards " + r.group_target_rank->ToString() +
           ", above this rule's limit " + p.max_award.ToString();
  }
  if (r.games < std::max(1, p.min_games)) {
    return where + absl::StrCat(r.games, " games, ", std::max(1, p.min_games),
                                " needed");
  }
  const int half_points = 2 * r.wins + r.draws;
  if (half_points < 2.0 * p.min_win_rate * r.games - 1e-9) {
    return where + absl::StrFormat("win rate %.1f%%, %.1f%% needed",
                                   50.0 * half_points / r.games,
                                   100.0 * p.min_win_rate);
  }
  return "";
}

RuleVerdict EvalRankTournament(const RankTournamentRule& p, const View& view) {
  if (view.rank().IsPro()) {
    return NotApplicable("rank tournaments award amateur ranks only");
  }
  if (view.rank() >= p.max_award) {
    return NotApplicable("current rank " + view.rank().ToString() +
                         " is at or above the highest rank this rule awards (" +
                         p.max_award.ToString() + ")");
  }
  RuleVerdict v;
  v.applicable = true;
  const EventResult* best = nullptr;
  std::vector<std::string> shortfalls;
  for (const EventResult& r : view.record().results) {
    if (!InList(p.categories, r) || !view.SincePromotion(r.date) ||
        !r.group_target_rank || *r.group_target_rank <= view.rank()) {
      continue;
    }
    if (std::string why = RankTournamentShortfall(p, r); !why.empty()) {
      shortfalls.push_back(std::move(why));
      continue;
    }
    if (best == nullptr ||
        std::tie(*best->group_target_rank, best->date, best->event_id) <
            std::tie(*r.group_target_rank, r.date, r.event_id)) {
      best = &r;
    }
  }
  if (best == nullptr) {
    v.explanation = shortfalls.empty()
                        ? "no rank-tournament result above the current rank "
                          "since the last promotion"
                        : "no qualifying rank-tournament result: " +
                              absl::StrJoin(shortfalls, "; ");
    return v;
  }
  Evidence& e = v.evidence;
  e.games = best->games;
  e.wins = best->wins;
  e.draws = best->draws;
  e.days_since_promotion = view.DaysSincePromotion();
  e.event_ids = {best->event_id};
  return Conclude(
      std::move(v), *best->group_target_rank, {},
      absl::StrFormat("event '%s': %d wins, %d draws in %d games",
                      best->event_id, best->wins, best->draws, best->games));
}

RuleVerdict EvalPlacement(const PlacementRule& p, const View& view) {
  if (p.award.IsPro() != view.rank().IsPro()) {
    return NotApplicable(p.award.IsPro()
                             ? "this rule concerns professional players"
                             : "this rule concerns amateur players");
  }
  if (p.award <= view.rank()) {
    return NotApplicable("the award " + p.award.ToString() +
                         " is not above the current rank " +
                         view.rank().ToString() + " (ranks are never lowered)");
  }
  RuleVerdict v;
  v.applicable = true;
  Evidence& e = v.evidence;
  e.required = p.min_count;
  for (const EventResult& r : view.record().results) {
    const bool in_time = p.since_last_promotion ? view.SincePromotion(r.date)
                                                : view.Counts(r.date);
    const bool qualifies =
        p.final_streak > 0 ? r.final_streak >= p.final_streak
                           : r.placement >= 1 && r.placement <= p.placement_max;
    if (in_time && InList(p.categories, r) && qualifies) {
      ++e.count;
      e.event_ids.push_back(r.event_id);
    }
  }
  std::vector<std::string> missing;
  if (e.count < p.min_count) {
    const std::string what =
        p.final_streak > 0
            ? absl::StrCat("finishing the event with ", p.final_streak,
                           " or more consecutive wins")
            : absl::StrCat("place ", p.placement_max, " or better");
    missing.push_back(absl::StrCat(e.count, " qualifying result(s) (", what,
                                   ", in ", absl::StrJoin(p.categories, ", "),
                                   "), ", p.min_count, " needed"));
  }
  return Conclude(std::move(v), p.award, missing,
                  absl::StrCat(e.count, " qualifying result(s): ",
                               absl::StrJoin(e.event_ids, ", ")));
}

RuleVerdict EvalProWins(const ProWinsRule& p, const View& view) {
  if (!view.rank().IsPro()) {
    return NotApplicable("this rule concerns professional players");
  }
  auto needed = p.wins_by_level.find(view.rank().level());
  if (needed == p.wins_by_level.end()) {
    return NotApplicable("no win count is set for promotion from " +
                         view.rank().ToString());
  }
  RuleVerdict v;
  v.applicable = true;
  Evidence& e = v.evidence;
  e.required = needed->second;
  e.days_since_promotion = view.DaysSincePromotion();
  const PlayerId me = view.record().player;
  for (const RatedGame& g : view.record().games) {
    if (!view.SincePromotion(g.event_date) || g.forfeit || g.bye ||
        g.result == GameResult::kNoResult ||
        (g.under_minimum_time && !p.count_under_minimum_time)) {
      continue;
    }
    ++e.games;
    const double score = g.black == me ? g.BlackScore() : 1.0 - g.BlackScore();
    if (score == 1.0) ++e.wins;
    if (score == 0.5) ++e.draws;
  }
  const Rank target =
      *Rank::Create(registry::Ladder::kProDan, view.rank().level() + 1);
  std::vector<std::string> missing;
  if (e.wins < e.required) {
    missing.push_back(absl::StrCat(e.wins, " wins at ", view.rank().ToString(),
                                   ", ", e.required, " needed"));
  }
  return Conclude(
      std::move(v), target, missing,
      absl::StrCat(e.wins, " wins in ", e.games, " games at ",
                   view.rank().ToString(), " (", e.required, " needed)"));
}

absl::Status ValidateRecord(const PlayerRecord& r, Date as_of) {
  const std::string who = "player " + std::to_string(r.player.value) + ": ";
  if (r.last_promotion &&
      (!r.last_promotion->IsValid() || *r.last_promotion > as_of)) {
    return absl::InvalidArgumentError(
        who + "last_promotion " + r.last_promotion->ToString() +
        " is not a calendar date on or before the evaluation date " +
        as_of.ToString());
  }
  for (const RatedGame& g : r.games) {
    GORANK_RETURN_IF_ERROR(ValidateGame(g));
    if (g.black != r.player && g.white != r.player) {
      return absl::InvalidArgumentError(
          who + "game " + std::to_string(g.game_id) + " of event '" +
          g.event_id + "' does not involve the player");
    }
  }
  for (const EventResult& e : r.results) {
    if (!e.date.IsValid() || e.placement < 0 || e.games < 0 || e.wins < 0 ||
        e.draws < 0 || e.wins + e.draws > e.games) {
      return absl::InvalidArgumentError(
          who + "result of event '" + e.event_id +
          "' has an invalid date, a negative count or more wins and draws than "
          "games");
    }
  }
  for (const RatingChange& h : r.rating_history) {
    if (!h.event.date.IsValid()) {
      return absl::InvalidArgumentError(
          who + "rating history entry for event '" + h.event.event_id +
          "' has an invalid date");
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::vector<RuleVerdict>> ExplainPlayer(
    const PromotionConfig& config, const PlayerRecord& record, Date as_of) {
  if (!as_of.IsValid()) {
    return absl::InvalidArgumentError("evaluation date " + as_of.ToString() +
                                      " is not a calendar date");
  }
  GORANK_RETURN_IF_ERROR(ValidateRecord(record, as_of));
  const View view(record, as_of);
  std::vector<RuleVerdict> verdicts;
  for (const PromotionRule& rule : config.rules) {
    if (!rule.enabled) continue;
    RuleVerdict v = std::visit(
        [&](const auto& p) {
          using T = std::decay_t<decltype(p)>;
          if constexpr (std::is_same_v<T, AmateurRatingRule>)
            return EvalAmateurRating(p, view);
          if constexpr (std::is_same_v<T, RankTournamentRule>)
            return EvalRankTournament(p, view);
          if constexpr (std::is_same_v<T, PlacementRule>)
            return EvalPlacement(p, view);
          if constexpr (std::is_same_v<T, ProWinsRule>)
            return EvalProWins(p, view);
        },
        rule.params);
    v.rule_id = rule.id;
    verdicts.push_back(std::move(v));
  }
  return verdicts;
}

absl::StatusOr<std::vector<Proposal>> EvaluatePromotions(
    const PromotionConfig& config, const std::vector<PlayerRecord>& records,
    Date as_of) {
  std::set<PlayerId> seen;
  std::vector<Proposal> proposals;
  for (const PlayerRecord& record : records) {
    if (!seen.insert(record.player).second) {
      return absl::InvalidArgumentError("player " +
                                        std::to_string(record.player.value) +
                                        " appears twice in the records");
    }
    GORANK_ASSIGN_OR_RETURN(std::vector<RuleVerdict> verdicts,
                            ExplainPlayer(config, record, as_of));
    for (RuleVerdict& v : verdicts) {
      if (!v.met) continue;
      Proposal p;
      p.player = record.player;
      p.rule_id = v.rule_id;
      p.rule_description = config.Find(v.rule_id)->description;
      p.from = record.rank;
      p.to = *v.proposed;
      p.evidence = std::move(v.evidence);
      p.explanation = std::move(v.explanation);
      proposals.push_back(std::move(p));
    }
  }
  std::sort(proposals.begin(), proposals.end(),
            [](const Proposal& a, const Proposal& b) {
              if (a.player != b.player) return a.player < b.player;
              if (a.to != b.to) return a.to > b.to;
              return a.rule_id < b.rule_id;
            });
  return proposals;
}

}  // namespace gorank::ratings
