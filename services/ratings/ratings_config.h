// The ratings configuration as data: the rating-system settings and the
// promotion rules, read from a TOML file the national body can replace. The
// shipped default (services/ratings/default_ratings.toml, compiled in) is
// documented key by key in that file.
//
// Rule kinds (`kind = ...` in each [[rule]] table):
//   amateur_rating   propose the next amateur grade when the player's GoR is
//                    at or above that grade's threshold (egf.h
//                    EgfGradeThreshold), after enough rated games and events
//                    and enough days since the last promotion;
//   rank_tournament  award the rank of the group the player entered at a
//                    rank tournament (段位赛), given enough games and a
//                    minimum win rate in that event;
//   placement        award a fixed rank for placing at or above a place in
//                    events of given categories, a given number of times
//                    (national events up to 6d, the recognised national
//                    amateur champion 7d, pro titles 9p, ...), or for
//                    ending a relay with `final_streak` consecutive wins;
//                    categories are competition codes, "code" or
//                    "code/group";
//   pro_wins         promote a professional by one dan after a number of
//                    wins at the current rank.
// No rule ever demotes: a rule whose award is not above the current rank
// proposes nothing. 8d (honorary) is granted by hand, never by a rule.
#ifndef GORANK_SERVICES_RATINGS_RATINGS_CONFIG_H_
#define GORANK_SERVICES_RATINGS_RATINGS_CONFIG_H_

#include <map>
#include <string>
#include <variant>
#include <vector>

#include "absl/status/statusor.h"
#include "services/ratings/rating_book.h"
#include "services/registry/rank.h"

namespace gorank::ratings {

struct AmateurRatingRule {
  registry::Rank max_target = registry::Rank::FromString("5d");
  int min_rated_games = 0;  // rated games since the last promotion
  int min_events = 0;       // events with rated games since then
  int min_days_since_promotion = 0;
};

struct RankTournamentRule {
  std::vector<std::string> categories;  // EventResult::category values
  int min_games = 0;
  double min_win_rate = 0.0;  // (wins + draws / 2) / games, 0..1
  registry::Rank max_award = registry::Rank::FromString("5d");
};

struct PlacementRule {
  std::vector<std::string> categories;
  int placement_max = 1;  // 1: winners only; 2: winner or runner-up; ...
  int min_count = 1;      // how many such results are needed
  // false: results of the whole career count; true: only those after the
  // last promotion.
  bool since_last_promotion = false;
  // > 0: a result qualifies by ending a relay event with at least this many
  // consecutive wins (EventResult::final_streak), not by its place.
  int final_streak = 0;
  registry::Rank award = registry::Rank::FromString("6d");
};

struct ProWinsRule {
  // Current professional level (1..8) -> wins at that rank needed for the
  // next. A level without an entry is not promoted by wins.
  std::map<int, int> wins_by_level;
  // Whether wins in games under the event's minimum time (fast games)
  // count. Forfeits and byes never count.
  bool count_under_minimum_time = true;
};

struct PromotionRule {
  std::string id;           // unique, no white space, e.g. "am.rating"
  std::string description;  // plain language, shown with every proposal
  bool enabled = true;
  int line = 0;  // line of the rule's [[rule]] header in the config
  std::variant<AmateurRatingRule, RankTournamentRule, PlacementRule,
               ProWinsRule>
      params;

  // "amateur_rating", "rank_tournament", "placement", "pro_wins".
  const char* KindName() const;
};

struct PromotionConfig {
  std::vector<PromotionRule> rules;  // in file order
  // nullptr when there is no rule with `id`.
  const PromotionRule* Find(const std::string& id) const;
};

struct RatingsConfig {
  RatingSettings rating;
  PromotionConfig promotion;
};

// Parses a TOML configuration. `source_name` prefixes every message.
// INVALID_ARGUMENT, with "<source>:<line>:<column>:" and the key, for: TOML
// syntax errors; a missing required key; an unknown key (typos do not pass
// silently); a value of the wrong type or out of range; an unknown rule
// kind; a duplicate rule id; a rank that does not parse or sits on the wrong
// ladder for its key; version other than 1. Thread-safe (pure).
absl::StatusOr<RatingsConfig> ParseRatingsConfig(
    const std::string& toml_text,
    const std::string& source_name = "ratings config");

// Reads and parses the file at `path`. NOT_FOUND when it cannot be read;
// otherwise as ParseRatingsConfig (messages name the path).
absl::StatusOr<RatingsConfig> LoadRatingsConfigFile(const std::string& path);

// The shipped default file's text, compiled in.
const std::string& DefaultRatingsConfigText();
// The shipped default parsed. Aborts if it does not parse (a build defect;
// covered by a test).
const RatingsConfig& DefaultRatingsConfig();

}  // namespace gorank::ratings

#endif  // GORANK_SERVICES_RATINGS_RATINGS_CONFIG_H_
