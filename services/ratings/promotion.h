// Promotion proposals: which players now meet a promotion rule, and the
// evidence. A pure function of the rules (ratings_config.h), the date of
// evaluation and each player's record (rank, date of the last promotion,
// rating history, games, event results and titles). It decides nothing:
// proposals go to review, and the approved ones are applied through the
// registry and certificates.
//
// Conventions shared by every rule:
//   - Only facts dated on or before `as_of` count.
//   - "Since the last promotion" means strictly after the day the current
//     rank was obtained (a result on that day is taken to be its basis). A
//     player with no last-promotion date has every fact counted and no
//     waiting time.
//   - Amateur rules (amateur_rating, rank_tournament, amateur placement
//     awards) concern players on the amateur ladders, professional rules
//     (pro_wins, pro awards) professionals; a player is never moved between
//     the two by a rule.
//   - Never a demotion: a rule proposes only a rank strictly above the
//     current one; 8d is never proposed.
#ifndef GORANK_SERVICES_RATINGS_PROMOTION_H_
#define GORANK_SERVICES_RATINGS_PROMOTION_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "services/common/date.h"
#include "services/ratings/rated_game.h"
#include "services/ratings/rating_book.h"
#include "services/ratings/ratings_config.h"
#include "services/registry/rank.h"

namespace gorank::ratings {

// A player's result in one event, or a title. `category` (the event's
// competition code) and `group` are matched against the rules' category
// lists, whose entries are "code" (any group) or "code/group".
struct EventResult {
  std::string event_id;
  Date date;  // the day the event (or the title match) ended
  std::string category;
  std::string group;  // the event's group code; "" when none
  int placement = 0;  // 1 = winner, 2 = runner-up, ...; 0 = not placed
  // Relay (擂台赛): the consecutive wins with which the player ended the
  // event (they won its last game); 0 otherwise.
  int final_streak = 0;
  int games = 0;  // played over the board (no forfeits or byes)
  int wins = 0;
  int draws = 0;
  // Rank tournaments: the rank the player's group awards (定段组/升段组).
  std::optional<registry::Rank> group_target_rank;
};

struct PlayerRecord {
  PlayerId player;
  registry::Rank rank = registry::Rank::FromString("30k");
  std::optional<Date> last_promotion;  // the day the current rank was obtained
  std::vector<RatingChange> rating_history;  // RatingBook::History
  std::vector<RatedGame> games;              // games the player took part in
  std::vector<EventResult> results;
};

struct Evidence {
  std::optional<double> rating;     // GoR after the last rated event <= as_of
  std::optional<double> threshold;  // the grade threshold it was held to
  int rated_games = 0;              // since the last promotion
  int rated_events = 0;             // since the last promotion
  std::optional<int> days_since_promotion;
  int games =
      0;  // rank tournament: games of the event; pro_wins: games counted
  int wins = 0;
  int draws = 0;
  int count = 0;     // placement: qualifying results
  int required = 0;  // pro_wins: wins needed; placement: results needed
  std::vector<std::string> event_ids;  // events the verdict rests on
};

struct RuleVerdict {
  std::string rule_id;
  // False when the rule does not concern this player (other ladder, or the
  // rule's award is not above the current rank).
  bool applicable = false;
  bool met = false;
  std::optional<registry::Rank> proposed;  // set when met
  Evidence evidence;
  std::string explanation;  // plain language: why met, or what is missing
};

struct Proposal {
  PlayerId player;
  std::string rule_id;
  std::string rule_description;
  registry::Rank from = registry::Rank::FromString("30k");
  registry::Rank to = registry::Rank::FromString("30k");
  Evidence evidence;
  std::string explanation;
};

// One verdict per enabled rule, in config order.
// INVALID_ARGUMENT: `as_of` or any date in the record is not a calendar
// date; last_promotion is after as_of; a game does not involve the player;
// a result has negative counts or wins + draws > games.
// Thread-safe (pure).
absl::StatusOr<std::vector<RuleVerdict>> ExplainPlayer(
    const PromotionConfig& config, const PlayerRecord& record, Date as_of);

// Every (player, rule) pair that is met, sorted by player id, then proposed
// rank (highest first), then rule id. Errors as ExplainPlayer, plus
// INVALID_ARGUMENT when a player appears twice. Thread-safe (pure).
absl::StatusOr<std::vector<Proposal>> EvaluatePromotions(
    const PromotionConfig& config, const std::vector<PlayerRecord>& records,
    Date as_of);

}  // namespace gorank::ratings

#endif  // GORANK_SERVICES_RATINGS_PROMOTION_H_
