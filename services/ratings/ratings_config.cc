#include "services/ratings/ratings_config.h"

#include <toml++/toml.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <utility>

#include "absl/status/status.h"
#include "services/common/status_macros.h"
#include "services/ratings/toml_reader.h"

namespace gorank::ratings {
namespace internal {
extern const char kDefaultRatingsToml[];  // generated from the .toml file
}  // namespace internal

namespace {

using internal::TomlReader;
using registry::Rank;

constexpr int kMaxCount = 1000000;
constexpr const char* kHonorary =
    "8d is honorary and granted by hand, never by a rule";

std::string AmateurUpTo7d(const Rank& r) {
  if (r.IsPro()) return "must be an amateur rank (30k..7d)";
  if (r.IsAmateurDan() && r.level() > 7) return kHonorary;
  return "";
}

std::string NotHonorary(const Rank& r) {
  if (r.IsAmateurDan() && r.level() > 7) return kHonorary;
  return "";
}

absl::Status CheckSystem(TomlReader& r, const std::string& expected) {
  std::string system = expected;
  GORANK_RETURN_IF_ERROR(r.ReadString("system", false, system));
  if (system != expected) {
    return r.Error(
        r.table().get("system"), "system",
        "only \"" + expected + "\" is supported, not \"" + system + "\"");
  }
  return absl::OkStatus();
}

absl::Status ParseRating(TomlReader& r, EgfSettings& egf) {
  GORANK_RETURN_IF_ERROR(CheckSystem(r, "egf2021"));
  GORANK_RETURN_IF_ERROR(r.ReadDouble("floor", false, -3000, 3000, egf.floor));
  GORANK_RETURN_IF_ERROR(r.ReadBool("weight_applies_to_bonus", false,
                                    egf.weight_applies_to_bonus));
  absl::Status status;
  const toml::table* weights = r.ReadTable("class_weights", false, status);
  GORANK_RETURN_IF_ERROR(status);
  if (weights != nullptr) {
    TomlReader w(*weights, r.source(), r.context() + ": class_weights");
    const char* kNames[] = {"A", "B", "C", "D"};
    for (int i = 0; i < 4; ++i) {
      GORANK_RETURN_IF_ERROR(
          w.ReadDouble(kNames[i], false, 0.0, 1.0, egf.class_weights[i]));
    }
    GORANK_RETURN_IF_ERROR(w.CheckNoUnknownKeys());
  }
  return r.CheckNoUnknownKeys();
}

absl::Status ParseProRating(TomlReader& r, ProEloSettings& pro) {
  GORANK_RETURN_IF_ERROR(CheckSystem(r, "elo"));
  GORANK_RETURN_IF_ERROR(r.ReadDouble("k", false, 0.001, 1000, pro.k));
  GORANK_RETURN_IF_ERROR(r.ReadDouble("seed_1p", false, 0, 5000, pro.seed_1p));
  GORANK_RETURN_IF_ERROR(
      r.ReadDouble("seed_per_dan", false, 0, 1000, pro.seed_per_dan));
  absl::Status status;
  const toml::table* overrides = r.ReadTable("seed_overrides", false, status);
  GORANK_RETURN_IF_ERROR(status);
  if (overrides != nullptr) {
    TomlReader o(*overrides, r.source(), r.context() + ": seed_overrides");
    for (const auto& [key, node] : *overrides) {
      const std::string id(key.str());
      char* end = nullptr;
      const long long value = std::strtoll(id.c_str(), &end, 10);
      if (id.empty() || *end != '\0' || value <= 0 || id[0] == '+') {
        return o.Error(&node, id, "must be a player id (a positive integer)");
      }
      double seed = 0;
      GORANK_RETURN_IF_ERROR(o.ReadDouble(id.c_str(), true, 0, 5000, seed));
      pro.seed_overrides[PlayerId{value}] = seed;
    }
  }
  return r.CheckNoUnknownKeys();
}

absl::Status ParseProWins(TomlReader& r, ProWinsRule& p) {
  absl::Status status;
  const toml::table* wins = r.ReadTable("wins", true, status);
  GORANK_RETURN_IF_ERROR(status);
  TomlReader w(*wins, r.source(), r.context() + ": wins");
  for (const auto& [key, node] : *wins) {
    const std::string name(key.str());
    absl::StatusOr<Rank> rank = Rank::Parse(name);
    if (!rank.ok() || !rank->IsPro() || rank->level() > 8) {
      return w.Error(&node, name,
                     "must be a professional rank from 1p to 8p (the rank "
                     "the wins are counted at)");
    }
    int needed = 0;
    GORANK_RETURN_IF_ERROR(w.ReadInt(name.c_str(), true, 1, kMaxCount, needed));
    p.wins_by_level[rank->level()] = needed;
  }
  return r.ReadBool("count_under_minimum_time", false,
                    p.count_under_minimum_time);
}

absl::Status ParseParams(TomlReader& r, const std::string& kind,
                         PromotionRule& rule) {
  if (kind == "amateur_rating") {
    AmateurRatingRule p;
    GORANK_RETURN_IF_ERROR(
        r.ReadRank("max_target", true, AmateurUpTo7d, p.max_target));
    GORANK_RETURN_IF_ERROR(
        r.ReadInt("min_rated_games", true, 0, kMaxCount, p.min_rated_games));
    GORANK_RETURN_IF_ERROR(
        r.ReadInt("min_events", true, 0, kMaxCount, p.min_events));
    GORANK_RETURN_IF_ERROR(r.ReadInt("min_days_since_promotion", true, 0, 36500,
                                     p.min_days_since_promotion));
    rule.params = p;
  } else if (kind == "rank_tournament") {
    RankTournamentRule p;
    GORANK_RETURN_IF_ERROR(r.ReadStringList("categories", true, p.categories));
    GORANK_RETURN_IF_ERROR(
        r.ReadInt("min_games", true, 0, kMaxCount, p.min_games));
    GORANK_RETURN_IF_ERROR(
        r.ReadDouble("min_win_rate", true, 0.0, 1.0, p.min_win_rate));
    GORANK_RETURN_IF_ERROR(
        r.ReadRank("max_award", true, AmateurUpTo7d, p.max_award));
    rule.params = p;
  } else if (kind == "placement") {
    PlacementRule p;
    GORANK_RETURN_IF_ERROR(r.ReadStringList("categories", true, p.categories));
    GORANK_RETURN_IF_ERROR(
        r.ReadInt("placement_max", true, 1, kMaxCount, p.placement_max));
    GORANK_RETURN_IF_ERROR(
        r.ReadInt("min_count", false, 1, kMaxCount, p.min_count));
    GORANK_RETURN_IF_ERROR(
        r.ReadBool("since_last_promotion", false, p.since_last_promotion));
    GORANK_RETURN_IF_ERROR(
        r.ReadInt("final_streak", false, 0, kMaxCount, p.final_streak));
    GORANK_RETURN_IF_ERROR(r.ReadRank("award", true, NotHonorary, p.award));
    rule.params = p;
  } else if (kind == "pro_wins") {
    ProWinsRule p;
    GORANK_RETURN_IF_ERROR(ParseProWins(r, p));
    rule.params = p;
  } else {
    return r.Error(r.table().get("kind"), "kind",
                   "unknown rule kind \"" + kind +
                       "\" (expected amateur_rating, rank_tournament, "
                       "placement or pro_wins)");
  }
  return absl::OkStatus();
}

absl::StatusOr<PromotionRule> ParseRule(const toml::table& table,
                                        const std::string& source, size_t n) {
  TomlReader r(table, source, "rule #" + std::to_string(n + 1));
  PromotionRule rule;
  rule.line = static_cast<int>(table.source().begin.line);
  GORANK_RETURN_IF_ERROR(r.ReadString("id", true, rule.id));
  for (char c : rule.id) {
    if (c == ' ' || c == '\t' || static_cast<unsigned char>(c) < 0x20) {
      return r.Error(table.get("id"), "id", "must not contain white space");
    }
  }
  r.set_context("rule '" + rule.id + "'");
  GORANK_RETURN_IF_ERROR(r.ReadString("description", true, rule.description));
  GORANK_RETURN_IF_ERROR(r.ReadBool("enabled", false, rule.enabled));
  std::string kind;
  GORANK_RETURN_IF_ERROR(r.ReadString("kind", true, kind));
  GORANK_RETURN_IF_ERROR(ParseParams(r, kind, rule));
  GORANK_RETURN_IF_ERROR(r.CheckNoUnknownKeys());
  return rule;
}

absl::Status ParseRules(TomlReader& root, PromotionConfig& config) {
  absl::Status status;
  const toml::array* rules = root.ReadArrayOfTables("rule", false, status);
  GORANK_RETURN_IF_ERROR(status);
  if (rules == nullptr) return absl::OkStatus();
  std::map<std::string, int> first_line;
  for (size_t i = 0; i < rules->size(); ++i) {
    const toml::table& table = *rules->get(i)->as_table();
    GORANK_ASSIGN_OR_RETURN(PromotionRule rule,
                            ParseRule(table, root.source(), i));
    auto [it, inserted] = first_line.emplace(rule.id, rule.line);
    if (!inserted) {
      TomlReader r(table, root.source(), "rule '" + rule.id + "'");
      return r.Error(table.get("id"), "id",
                     "rule id is used twice (first at line " +
                         std::to_string(it->second) + ")");
    }
    config.rules.push_back(std::move(rule));
  }
  return absl::OkStatus();
}

absl::StatusOr<RatingsConfig> ParseTable(const toml::table& root,
                                         const std::string& source) {
  TomlReader r(root, source, "top level");
  int version = 0;
  GORANK_RETURN_IF_ERROR(r.ReadInt("version", true, 0, kMaxCount, version));
  if (version != 1) {
    return r.Error(
        root.get("version"), "version",
        "this build reads version 1 only, not " + std::to_string(version));
  }
  RatingsConfig config;
  absl::Status status;
  if (const toml::table* t = r.ReadTable("rating", false, status)) {
    TomlReader sub(*t, source, "[rating]");
    GORANK_RETURN_IF_ERROR(ParseRating(sub, config.rating.egf));
  }
  GORANK_RETURN_IF_ERROR(status);
  if (const toml::table* t = r.ReadTable("pro_rating", false, status)) {
    TomlReader sub(*t, source, "[pro_rating]");
    GORANK_RETURN_IF_ERROR(ParseProRating(sub, config.rating.pro));
  }
  GORANK_RETURN_IF_ERROR(status);
  GORANK_RETURN_IF_ERROR(ParseRules(r, config.promotion));
  GORANK_RETURN_IF_ERROR(r.CheckNoUnknownKeys());
  return config;
}

}  // namespace

const char* PromotionRule::KindName() const {
  static constexpr const char* kNames[] = {"amateur_rating", "rank_tournament",
                                           "placement", "pro_wins"};
  return kNames[params.index()];
}

const PromotionRule* PromotionConfig::Find(const std::string& id) const {
  for (const PromotionRule& rule : rules) {
    if (rule.id == id) return &rule;
  }
  return nullptr;
}

absl::StatusOr<RatingsConfig> ParseRatingsConfig(
    const std::string& toml_text, const std::string& source_name) {
  toml::table root;
  try {
    root = toml::parse(toml_text, source_name);
  } catch (const toml::parse_error& e) {
    return absl::InvalidArgumentError(
        internal::Position(source_name, e.source()) +
        ": TOML syntax error: " + std::string(e.description()));
  }
  return ParseTable(root, source_name);
}

absl::StatusOr<RatingsConfig> LoadRatingsConfigFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return absl::NotFoundError("cannot read ratings config file '" + path +
                               "'");
  }
  std::ostringstream text;
  text << in.rdbuf();
  return ParseRatingsConfig(text.str(), path);
}

const std::string& DefaultRatingsConfigText() {
  static const std::string* const kText =
      new std::string(internal::kDefaultRatingsToml);
  return *kText;
}

const RatingsConfig& DefaultRatingsConfig() {
  static const RatingsConfig* const kConfig = [] {
    absl::StatusOr<RatingsConfig> config =
        ParseRatingsConfig(DefaultRatingsConfigText(), "default_ratings.toml");
    if (!config.ok())
      std::abort();  // the shipped file is broken: a build defect
    return new RatingsConfig(*std::move(config));
  }();
  return *kConfig;
}

}  // namespace gorank::ratings
