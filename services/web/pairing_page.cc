#include "services/web/pairing_page.h"

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "google/protobuf/util/json_util.h"
#include "nlohmann/json.hpp"

namespace gorank::web {
namespace {

std::string E(const std::string& s) { return HtmlEscape(s); }

struct PairingTexts {
  const char* heading;  // followed by the round
  const char* none;
  const char* board;
  const char* white;
  const char* black;
  const char* handicap;
  const char* komi;
  const char* result;
  const char* pending;
  const char* white_wins;
  const char* black_wins;
  const char* jigo;
  const char* both_lose;
  const char* forfeit;
  const char* byes;
  const char* bye;
  const char* half_bye;
  const char* absent;
};

constexpr PairingTexts kZh = {
    "对阵",        "本轮尚未编排。", "台次",       "白方",     "黑方",
    "让子",        "贴目",           "结果",       "未赛",     "白胜",
    "黑胜",        "和棋",           "双负",       "（弃权）", "轮空",
    "轮空（2分）", "轮空（1分）",    "缺席（0分）"};
constexpr PairingTexts kEn = {"Pairing",       "This round is not paired yet.",
                              "Board",         "White",
                              "Black",         "Handicap",
                              "Komi",          "Result",
                              "to play",       "white wins",
                              "black wins",    "jigo",
                              "both lose",     " (forfeit)",
                              "Byes",          "bye (2 points)",
                              "bye (1 point)", "absent (0 points)"};

const PairingTexts& T(Lang lang) { return lang == Lang::kEn ? kEn : kZh; }

std::string Komi(int komi_x2) {
  std::string s = std::to_string(komi_x2 / 2);
  if (komi_x2 % 2 != 0)
    s = (komi_x2 < 0 && komi_x2 / 2 == 0 ? "-" : "") + s + ".5";
  return s;
}

std::string Result(Lang lang, const v1::Game& g) {
  const PairingTexts& t = T(lang);
  std::string out;
  switch (g.outcome()) {
    case v1::GAME_OUTCOME_WHITE_WINS:
      out = t.white_wins;
      break;
    case v1::GAME_OUTCOME_BLACK_WINS:
      out = t.black_wins;
      break;
    case v1::GAME_OUTCOME_DRAW:
      out = t.jigo;
      break;
    case v1::GAME_OUTCOME_BOTH_LOSE:
      out = t.both_lose;
      break;
    default:
      return t.pending;
  }
  return g.forfeit() ? out + t.forfeit : out;
}

nlohmann::json ToJson(const google::protobuf::Message& m) {
  google::protobuf::util::JsonPrintOptions opts;
  opts.preserve_proto_field_names = true;
  std::string out;
  (void)google::protobuf::util::MessageToJsonString(m, &out, opts);
  return nlohmann::json::parse(out, nullptr, false);
}

}  // namespace

int CurrentRound(const v1::EventResults& results, int round) {
  if (round > 0) return round;
  int last = 0;
  for (const v1::Game& g : results.games()) {
    if (g.kind() != v1::GAME_KIND_PLACE_PLAYOFF)
      last = std::max(last, g.round());
  }
  for (const v1::Bye& b : results.byes()) last = std::max(last, b.round());
  return last;
}

std::string PairingTitle(Lang lang, int round) {
  if (lang == Lang::kEn) return "Round " + std::to_string(round) + " pairing";
  return "第" + std::to_string(round) + "轮对阵";
}

std::string GameResultText(Lang lang, const v1::Game& game) {
  return Result(lang, game);
}

std::string EntrantLabel(Lang lang, const v1::Entrant& e) {
  std::string name = e.family_name();
  if (!e.given_name().empty()) {
    const bool cjk = !name.empty() &&
                     static_cast<unsigned char>(name.back()) >= 0x80 &&
                     static_cast<unsigned char>(e.given_name()[0]) >= 0x80;
    name += (cjk ? "" : " ") + e.given_name();
  }
  std::string shown = E(name);
  if (e.has_rank()) {
    shown += " (" +
             E(RankLabel(lang, e.rank().ladder(), e.rank().level(),
                         e.rank().notation())) +
             ")";
  }
  return shown;
}

std::string RoundBoards(Lang lang, const v1::Event& event,
                        const v1::EventResults& results, int round,
                        const RoundView& view) {
  const PairingTexts& t = T(lang);
  std::map<int, std::string> names;
  for (const v1::Entrant& e : results.entrants()) {
    std::string shown = EntrantLabel(lang, e);
    if (view.link_players && e.player_id() > 0) {
      shown = "<a href=\"" +
              E(WithLang("/players/" + std::to_string(e.player_id()), lang)) +
              "\">" + shown + "</a>";
    }
    names[e.id()] = shown;
  }
  const auto name = [&](int id) {
    const auto it = names.find(id);
    return it != names.end() ? it->second : "#" + std::to_string(id);
  };
  std::vector<v1::Game> games;
  for (const v1::Game& g : results.games()) {
    if (g.round() == round && g.kind() != v1::GAME_KIND_PLACE_PLAYOFF)
      games.push_back(g);
  }
  std::stable_sort(games.begin(), games.end(),
                   [](const v1::Game& a, const v1::Game& b) {
                     return a.board() < b.board();
                   });
  std::string body;
  if (!games.empty()) {
    body += "<table id=\"boards" + E(view.id_suffix) + "\">";
    if (!view.caption.empty())
      body += "<caption>" + E(view.caption) + "</caption>";
    body += std::string("<tr><th scope=\"col\">") + E(t.board) +
            "</th><th scope=\"col\">" + E(t.white) + "</th><th scope=\"col\">" +
            E(t.black) + "</th><th scope=\"col\">" + E(t.handicap) +
            "</th><th scope=\"col\">" + E(t.komi) + "</th><th scope=\"col\">" +
            E(t.result) + "</th></tr>";
    int n = 0;
    for (const v1::Game& g : games) {
      ++n;
      const int komi = g.has_komi() ? g.komi_x2() : event.rules().komi_x2();
      body += "<tr class=\"board\"><td>" +
              std::to_string(g.board() > 0 ? g.board() : n) + "</td><td>" +
              name(g.white_entrant_id()) + "</td><td>" +
              name(g.black_entrant_id()) + "</td><td>" +
              std::to_string(g.handicap()) + "</td><td>" + Komi(komi) +
              "</td><td>" + E(Result(lang, g)) + "</td></tr>";
    }
    body += "</table>";
  }
  std::string byes;
  for (const v1::Bye& b : results.byes()) {
    if (b.round() != round) continue;
    byes += "<li>" + name(b.entrant_id()) + ": " +
            E(b.points() == 0   ? t.absent
              : b.points() == 1 ? t.half_bye
                                : t.bye) +
            "</li>";
  }
  if (!byes.empty()) {
    body += std::string("<h3>") + E(t.byes) + "</h3><ul id=\"byes" +
            E(view.id_suffix) + "\">" + byes + "</ul>";
  }
  return body;
}

std::string PairingBody(Lang lang, const v1::Event& event,
                        const v1::EventResults& results, int round) {
  const PairingTexts& t = T(lang);
  round = CurrentRound(results, round);
  std::string body = "<section id=\"pairing\" data-event=\"" +
                     std::to_string(event.id()) + "\" data-round=\"" +
                     std::to_string(round) + "\"><h2>" + E(event.name()) +
                     " &middot; " + E(PairingTitle(lang, round)) + "</h2>";
  bool any_game = false;
  for (const v1::Game& g : results.games()) {
    if (g.round() == round && g.kind() != v1::GAME_KIND_PLACE_PLAYOFF)
      any_game = true;
  }
  if (!any_game)
    return body + "<p id=\"pairing-none\">" + E(t.none) + "</p></section>";
  return body + RoundBoards(lang, event, results, round, RoundView{}) +
         "</section>";
}

std::string PairingJson(const v1::Event& event, const v1::EventResults& results,
                        int round) {
  round = CurrentRound(results, round);
  v1::EventResults shown;
  std::set<int> named;
  for (const v1::Game& g : results.games()) {
    if (g.round() != round || g.kind() == v1::GAME_KIND_PLACE_PLAYOFF) continue;
    *shown.add_games() = g;
    named.insert(g.white_entrant_id());
    named.insert(g.black_entrant_id());
  }
  std::stable_sort(shown.mutable_games()->begin(), shown.mutable_games()->end(),
                   [](const v1::Game& a, const v1::Game& b) {
                     return a.board() < b.board();
                   });
  for (const v1::Bye& b : results.byes()) {
    if (b.round() != round) continue;
    *shown.add_byes() = b;
    named.insert(b.entrant_id());
  }
  for (const v1::Entrant& e : results.entrants()) {
    if (named.count(e.id()) > 0) *shown.add_entrants() = e;
  }
  return nlohmann::json{
      {"event", ToJson(event)}, {"round", round}, {"results", ToJson(shown)}}
      .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace gorank::web
