#include "services/tournaments/event_json.h"

#include <exception>
#include <optional>
#include <string>

#include "nlohmann/json.hpp"

namespace gorank::tournaments {
namespace {

using Json = nlohmann::json;

// Decoding errors inside this file are exceptions of this type (or
// nlohmann's); the public functions turn them into INVALID_ARGUMENT.
struct BadValue : std::exception {
  explicit BadValue(std::string m) : message(std::move(m)) {}
  const char* what() const noexcept override { return message.c_str(); }
  std::string message;
};

std::string DateText(const Date& d) { return d.IsValid() ? d.ToString() : ""; }

Date DateOf(const Json& j, const char* key) {
  const std::string text = j.value(key, std::string());
  if (text.empty()) return Date{};
  auto d = Date::Parse(text);
  if (!d.ok()) throw BadValue(std::string(key) + ": bad date " + text);
  return *d;
}

template <typename E>
E EnumOf(const Json& j, const char* key, E fallback) {
  return static_cast<E>(j.value(key, static_cast<int>(fallback)));
}

Json FormatJson(const Format& f) {
  return {{"kind", static_cast<int>(f.kind)},
          {"cycles", f.cycles},
          {"rounds", f.rounds},
          {"lives", f.lives},
          {"boards", f.boards},
          {"best_of", f.best_of},
          {"swiss_ranking", static_cast<int>(f.swiss_ranking)}};
}

Format FormatOf(const Json& j) {
  Format f;
  f.kind = EnumOf(j, "kind", f.kind);
  f.cycles = j.value("cycles", f.cycles);
  f.rounds = j.value("rounds", f.rounds);
  f.lives = j.value("lives", f.lives);
  f.boards = j.value("boards", f.boards);
  f.best_of = j.value("best_of", f.best_of);
  f.swiss_ranking = EnumOf(j, "swiss_ranking", f.swiss_ranking);
  return f;
}

Json EntrantJson(const Entrant& e) {
  Json j = {{"id", e.id.value},
            {"family_name", e.family_name},
            {"given_name", e.given_name},
            {"country", e.country},
            {"club", e.club},
            {"egd_pin", e.egd_pin}};
  if (e.player_id) j["player_id"] = e.player_id->value;
  if (e.rank) j["rank"] = e.rank->ToString();
  if (e.team) j["team"] = e.team->value;
  if (e.withdrawn_after_round)
    j["withdrawn_after_round"] = *e.withdrawn_after_round;
  return j;
}

Entrant EntrantOf(const Json& j) {
  Entrant e;
  e.id = EntrantId{j.value("id", 0)};
  if (j.contains("player_id"))
    e.player_id = registry::PlayerId{j.at("player_id").get<int64_t>()};
  e.family_name = j.value("family_name", std::string());
  e.given_name = j.value("given_name", std::string());
  if (j.contains("rank")) {
    auto r = registry::Rank::Parse(j.at("rank").get<std::string>());
    if (!r.ok())
      throw BadValue("entrant rank: " + std::string(r.status().message()));
    e.rank = *r;
  }
  e.country = j.value("country", std::string());
  e.club = j.value("club", std::string());
  e.egd_pin = j.value("egd_pin", std::string());
  if (j.contains("team")) e.team = TeamId{j.at("team").get<int>()};
  if (j.contains("withdrawn_after_round")) {
    e.withdrawn_after_round = j.at("withdrawn_after_round").get<int>();
  }
  return e;
}

Json TeamJson(const Team& t) {
  Json boards = Json::array();
  for (EntrantId b : t.board_order) boards.push_back(b.value);
  Json j = {{"id", t.id.value}, {"name", t.name}, {"board_order", boards}};
  if (t.withdrawn_after_round)
    j["withdrawn_after_round"] = *t.withdrawn_after_round;
  return j;
}

Team TeamOf(const Json& j) {
  Team t;
  t.id = TeamId{j.value("id", 0)};
  t.name = j.value("name", std::string());
  for (const Json& b : j.value("board_order", Json::array())) {
    t.board_order.push_back(EntrantId{b.get<int>()});
  }
  if (j.contains("withdrawn_after_round")) {
    t.withdrawn_after_round = j.at("withdrawn_after_round").get<int>();
  }
  return t;
}

Json GameJson(const Game& g) {
  Json j = {{"round", g.round},
            {"board", g.board},
            {"black", g.black.value},
            {"white", g.white.value},
            {"colours_known", g.colours_known},
            {"outcome", static_cast<int>(g.outcome)},
            {"forfeit", g.forfeit},
            {"kind", static_cast<int>(g.kind)},
            {"handicap", g.handicap},
            {"black_warnings", g.black_warnings},
            {"white_warnings", g.white_warnings}};
  if (g.komi_x2) j["komi_x2"] = *g.komi_x2;
  return j;
}

Game GameOf(const Json& j) {
  Game g;
  g.round = j.value("round", 0);
  g.board = j.value("board", 0);
  g.black = EntrantId{j.value("black", 0)};
  g.white = EntrantId{j.value("white", 0)};
  g.colours_known = j.value("colours_known", true);
  g.outcome = EnumOf(j, "outcome", g.outcome);
  g.forfeit = j.value("forfeit", false);
  g.kind = EnumOf(j, "kind", g.kind);
  g.handicap = j.value("handicap", 0);
  if (j.contains("komi_x2")) g.komi_x2 = j.at("komi_x2").get<int>();
  g.black_warnings = j.value("black_warnings", 0);
  g.white_warnings = j.value("white_warnings", 0);
  return g;
}

Json ByeJson(const Bye& b) {
  Json j = {
      {"round", b.round}, {"entrant", b.entrant.value}, {"points", b.points}};
  if (b.team) j["team"] = b.team->value;
  return j;
}

Bye ByeOf(const Json& j) {
  Bye b;
  b.round = j.value("round", 0);
  b.entrant = EntrantId{j.value("entrant", 0)};
  if (j.contains("team")) b.team = TeamId{j.at("team").get<int>()};
  b.points = j.value("points", 2);
  return b;
}

Json PairingJson(const PairingSettings& p) {
  Json j = {{"system", static_cast<int>(p.system)},
            {"same_club_rounds", p.same_club_rounds},
            {"max_handicap", p.max_handicap},
            {"first_round_by_lot", p.first_round_by_lot},
            {"seed", p.seed}};
  if (p.mcmahon_bar) j["mcmahon_bar"] = p.mcmahon_bar->ToString();
  if (p.mcmahon_floor) j["mcmahon_floor"] = p.mcmahon_floor->ToString();
  return j;
}

std::optional<registry::Rank> RankOf(const Json& j, const char* key) {
  if (!j.contains(key)) return std::nullopt;
  auto r = registry::Rank::Parse(j.at(key).get<std::string>());
  if (!r.ok()) {
    throw BadValue(std::string(key) + ": " + std::string(r.status().message()));
  }
  return *r;
}

// Events stored before pairing existed have no "pairing": the defaults.
PairingSettings PairingOf(const Json& j) {
  PairingSettings p;
  p.system = EnumOf(j, "system", p.system);
  p.mcmahon_bar = RankOf(j, "mcmahon_bar");
  p.mcmahon_floor = RankOf(j, "mcmahon_floor");
  p.same_club_rounds = j.value("same_club_rounds", p.same_club_rounds);
  p.max_handicap = j.value("max_handicap", p.max_handicap);
  p.first_round_by_lot = j.value("first_round_by_lot", p.first_round_by_lot);
  p.seed = j.value("seed", p.seed);
  return p;
}

template <typename Fn>
auto Decode(const std::string& text, const char* what, Fn fn)
    -> absl::StatusOr<decltype(fn(Json()))> {
  Json j = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    return absl::InvalidArgumentError(std::string(what) +
                                      ": not a JSON object");
  }
  try {
    return fn(j);
  } catch (const std::exception& e) {
    return absl::InvalidArgumentError(std::string(what) + ": " + e.what());
  }
}

}  // namespace

std::string EventToJson(const Event& e) {
  Json rules = {{"rule_set", static_cast<int>(e.rules.rule_set)},
                {"komi_x2", e.rules.komi_x2},
                {"handicap_policy", static_cast<int>(e.rules.handicap_policy)},
                {"handicap_reduction", e.rules.handicap_reduction}};
  Json time = {{"time_class", static_cast<int>(e.time.time_class)},
               {"adjusted_minutes", e.time.adjusted_minutes},
               {"system", e.time.system}};
  Json j = {{"id", e.id.value},
            {"name", e.name},
            {"start", DateText(e.start)},
            {"end", DateText(e.end)},
            {"organiser_prefix", e.organiser_prefix},
            {"country", e.country},
            {"city", e.city},
            {"level", static_cast<int>(e.level)},
            {"competition", e.competition},
            {"group", e.group},
            {"highest_group", e.highest_group},
            {"sub_event", static_cast<int>(e.sub_event)},
            {"format", FormatJson(e.format)},
            {"rules", rules},
            {"time", time},
            {"shared_places_allowed", e.shared_places_allowed},
            {"closed", e.closed},
            {"pairing", PairingJson(e.pairing)}};
  return j.dump();
}

absl::StatusOr<Event> EventFromJson(const std::string& text) {
  return Decode(text, "event", [](const Json& j) {
    Event e;
    e.id = EventId{j.value("id", int64_t{0})};
    e.name = j.value("name", std::string());
    e.start = DateOf(j, "start");
    e.end = DateOf(j, "end");
    e.organiser_prefix = j.value("organiser_prefix", std::string());
    e.country = j.value("country", std::string());
    e.city = j.value("city", std::string());
    e.level = EnumOf(j, "level", e.level);
    e.competition = j.value("competition", std::string());
    e.group = j.value("group", std::string());
    e.highest_group = j.value("highest_group", true);
    e.sub_event = EnumOf(j, "sub_event", e.sub_event);
    if (j.contains("format")) e.format = FormatOf(j.at("format"));
    const Json rules = j.value("rules", Json::object());
    e.rules.rule_set = EnumOf(rules, "rule_set", e.rules.rule_set);
    e.rules.komi_x2 = rules.value("komi_x2", e.rules.komi_x2);
    e.rules.handicap_policy =
        EnumOf(rules, "handicap_policy", e.rules.handicap_policy);
    e.rules.handicap_reduction =
        rules.value("handicap_reduction", e.rules.handicap_reduction);
    const Json time = j.value("time", Json::object());
    e.time.time_class = EnumOf(time, "time_class", e.time.time_class);
    e.time.adjusted_minutes = time.value("adjusted_minutes", std::string());
    e.time.system = time.value("system", std::string());
    e.shared_places_allowed = j.value("shared_places_allowed", true);
    e.closed = j.value("closed", false);
    if (j.contains("pairing")) e.pairing = PairingOf(j.at("pairing"));
    return e;
  });
}

std::string ResultsToJson(const EventResults& r) {
  Json entrants = Json::array(), teams = Json::array(), games = Json::array(),
       byes = Json::array(), ties = Json::array();
  for (const Entrant& e : r.entrants) entrants.push_back(EntrantJson(e));
  for (const Team& t : r.teams) teams.push_back(TeamJson(t));
  for (const Game& g : r.games) games.push_back(GameJson(g));
  for (const Bye& b : r.byes) byes.push_back(ByeJson(b));
  for (const TieDecision& d : r.tie_decisions) {
    ties.push_back(
        {{"method", static_cast<int>(d.method)}, {"order", d.order}});
  }
  Json j = {{"entrants", entrants},
            {"teams", teams},
            {"games", games},
            {"byes", byes},
            {"tie_decisions", ties}};
  return j.dump();
}

absl::StatusOr<EventResults> ResultsFromJson(const std::string& text) {
  return Decode(text, "results", [](const Json& j) {
    EventResults r;
    for (const Json& e : j.value("entrants", Json::array()))
      r.entrants.push_back(EntrantOf(e));
    for (const Json& t : j.value("teams", Json::array()))
      r.teams.push_back(TeamOf(t));
    for (const Json& g : j.value("games", Json::array()))
      r.games.push_back(GameOf(g));
    for (const Json& b : j.value("byes", Json::array()))
      r.byes.push_back(ByeOf(b));
    for (const Json& d : j.value("tie_decisions", Json::array())) {
      TieDecision t;
      t.method = EnumOf(d, "method", t.method);
      t.order = d.value("order", std::vector<int>());
      r.tie_decisions.push_back(t);
    }
    return r;
  });
}

}  // namespace gorank::tournaments
