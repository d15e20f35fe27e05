// The event page's tables built from the games: the cross table (player x
// player for a round robin, round by round in the EGF cell style for the
// other individual formats, teams from the standings' matches for team
// formats), the rounds' pairings and results (pairing_page.h's RoundBoards
// for individual events, one table a match for team events), and the
// teams' board orders.
#include <algorithm>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "services/web/event_view.h"
#include "services/web/event_view_internal.h"
#include "services/web/pairing_page.h"

namespace gorank::web {

using namespace event_view;  // NOLINT: this module's own helpers

namespace {

bool Regular(const v1::Game& g) {
  return g.kind() != v1::GAME_KIND_PLACE_PLAYOFF;
}

// The outcome for `id`: '+', '-', '=' or '?'.
char OutcomeFor(const v1::Game& g, int id) {
  const bool black = g.black_entrant_id() == id;
  switch (g.outcome()) {
    case v1::GAME_OUTCOME_BLACK_WINS:
      return black ? '+' : '-';
    case v1::GAME_OUTCOME_WHITE_WINS:
      return black ? '-' : '+';
    case v1::GAME_OUTCOME_DRAW:
      return '=';
    case v1::GAME_OUTCOME_BOTH_LOSE:
      return '-';
    default:
      return '?';
  }
}

bool Forfeited(const v1::Game& g) {
  return g.forfeit() || g.outcome() == v1::GAME_OUTCOME_BOTH_LOSE;
}

std::string Th(const std::string& text_html, const char* scope = "col") {
  return std::string("<th scope=\"") + scope + "\">" + text_html + "</th>";
}

std::string NumberedName(Lang lang, int number, const v1::Entrant* e, int id) {
  return std::to_string(number) + ". " +
         (e != nullptr ? EntrantLink(lang, *e) : "#" + std::to_string(id));
}

// Player x player: the row's results against the column, round order.
std::string RoundRobinGrid(Lang lang, const v1::EventResults& results,
                           const std::vector<int>& order) {
  const EventTexts& t = TextsOf(lang);
  const auto entrants = EntrantsById(results);
  std::string table = "<table id=\"cross-grid\" class=\"cross\"><caption>" +
                      E(t.cross_caption_rr) + "</caption><tr><td></td>";
  for (size_t j = 0; j < order.size(); ++j) table += Th(std::to_string(j + 1));
  table += "</tr>";
  for (size_t i = 0; i < order.size(); ++i) {
    const int a = order[i];
    const auto it = entrants.find(a);
    table += "<tr data-id=\"" + std::to_string(a) + "\">" +
             Th(NumberedName(lang, static_cast<int>(i) + 1,
                             it != entrants.end() ? it->second : nullptr, a),
                "row");
    for (size_t j = 0; j < order.size(); ++j) {
      const int b = order[j];
      if (a == b) {
        table += "<td class=\"self\">—</td>";
        continue;
      }
      std::vector<const v1::Game*> met;
      for (const v1::Game& g : results.games()) {
        if (!Regular(g)) continue;
        if ((g.black_entrant_id() == a && g.white_entrant_id() == b) ||
            (g.black_entrant_id() == b && g.white_entrant_id() == a))
          met.push_back(&g);
      }
      std::stable_sort(met.begin(), met.end(),
                       [](const v1::Game* x, const v1::Game* y) {
                         return x->round() < y->round();
                       });
      std::string cell;
      for (const v1::Game* g : met) {
        if (!cell.empty()) cell += " ";
        const char o = OutcomeFor(*g, a);
        cell += o == '+' ? "1" : o == '-' ? "0" : o == '=' ? "½" : "?";
        if (Forfeited(*g)) cell += "F";
      }
      table += "<td data-vs=\"" + std::to_string(b) + "\">" + cell + "</td>";
    }
    table += "</tr>";
  }
  return table + "</table>";
}

// One row an entrant, one column a round, EGF cells.
std::string RoundsGrid(Lang lang, const v1::EventResults& results,
                       const std::vector<int>& order, int rounds) {
  const EventTexts& t = TextsOf(lang);
  const auto entrants = EntrantsById(results);
  std::map<int, int> number_of;
  for (size_t i = 0; i < order.size(); ++i)
    number_of[order[i]] = static_cast<int>(i) + 1;
  std::string table = "<table id=\"cross-rounds\" class=\"cross\"><caption>" +
                      E(t.cross_caption_rounds) + "</caption><tr>" +
                      Th(E(t.col_player));
  for (int r = 1; r <= rounds; ++r) table += Th(E(RoundName(lang, r)));
  table += "</tr>";
  for (size_t i = 0; i < order.size(); ++i) {
    const int id = order[i];
    const auto it = entrants.find(id);
    table += "<tr data-id=\"" + std::to_string(id) + "\">" +
             Th(NumberedName(lang, static_cast<int>(i) + 1,
                             it != entrants.end() ? it->second : nullptr, id),
                "row");
    for (int r = 1; r <= rounds; ++r) {
      table += "<td data-round=\"" + std::to_string(r) + "\">" +
               E(EgfCell(results, id, r, number_of)) + "</td>";
    }
    table += "</tr>";
  }
  return table + "</table>";
}

std::string TeamName(const v1::EventResults& results, int id) {
  for (const v1::Team& t : results.teams()) {
    if (t.id() == id) return t.name();
  }
  return "#" + std::to_string(id);
}

// Board points of `team` in `m` and of its opponent.
std::pair<int, int> PointsFor(const v1::TeamMatch& m, int team) {
  return m.team_a() == team
             ? std::make_pair(m.board_points_a(), m.board_points_b())
             : std::make_pair(m.board_points_b(), m.board_points_a());
}

std::string Score(std::pair<int, int> p) {
  return std::to_string(p.first) + ":" + std::to_string(p.second);
}

// Teams: team x team for a team round robin, else round by round.
std::string TeamGrid(Lang lang, const v1::Event& event,
                     const v1::EventResults& results,
                     const v1::Standings& standings, int rounds) {
  const EventTexts& t = TextsOf(lang);
  std::vector<int> ids;
  for (const v1::Team& team : results.teams()) ids.push_back(team.id());
  const std::vector<int> order = RowOrder(standings, ids);
  std::map<int, int> number_of;
  for (size_t i = 0; i < order.size(); ++i)
    number_of[order[i]] = static_cast<int>(i) + 1;
  const bool rr = event.format().kind() == v1::FORMAT_KIND_TEAM_ROUND_ROBIN;
  std::string table = "<table id=\"cross-teams\" class=\"cross\"><caption>" +
                      E(t.cross_caption_teams) + "</caption><tr>" +
                      Th(E(t.col_team));
  for (size_t j = 0; j < (rr ? order.size() : size_t(rounds)); ++j)
    table += Th(rr ? std::to_string(j + 1) : E(RoundName(lang, int(j) + 1)));
  table += "</tr>";
  for (size_t i = 0; i < order.size(); ++i) {
    const int a = order[i];
    table += "<tr data-team=\"" + std::to_string(a) + "\">" +
             Th(std::to_string(i + 1) + ". " + E(TeamName(results, a)), "row");
    for (size_t j = 0; j < (rr ? order.size() : size_t(rounds)); ++j) {
      std::string cell;
      if (rr && order[j] == a) {
        table += "<td class=\"self\">—</td>";
        continue;
      }
      for (const v1::TeamMatch& m : standings.matches()) {
        const bool mine = m.team_a() == a || m.team_b() == a;
        const int other = m.team_a() == a ? m.team_b() : m.team_a();
        if (!mine) continue;
        if (rr ? other != order[j] : m.round() != int(j) + 1) continue;
        if (!cell.empty()) cell += " ";
        if (!rr) cell += std::to_string(number_of[other]) + " ";
        cell += Score(PointsFor(m, a));
        if (m.round() < 1) cell += "F";
      }
      if (!rr) {
        for (const v1::Bye& b : results.byes()) {
          if (b.team_id() == a && b.round() == int(j) + 1) cell = "0+";
        }
      }
      table += "<td>" + E(cell) + "</td>";
    }
    table += "</tr>";
  }
  return table + "</table>";
}

std::string RelayTable(Lang lang, const v1::EventResults& results,
                       const v1::Standings& s) {
  const EventTexts& t = TextsOf(lang);
  const auto entrants = EntrantsById(results);
  std::string table = "<table id=\"relay-players\"><caption>" +
                      E(t.relay_players) + "</caption><tr>" +
                      Th(E(t.col_team)) + Th(E(t.col_player)) +
                      Th(E(t.col_games_won)) + Th(E(t.col_games_played)) +
                      Th(E(t.left_after_game)) + "</tr>";
  for (const v1::RelayPlayer& p : s.relay_players()) {
    const auto it = entrants.find(p.entrant_id());
    table +=
        "<tr data-id=\"" + std::to_string(p.entrant_id()) + "\"><td>" +
        E(TeamName(results, p.team_id())) + "</td>" +
        Th(it != entrants.end() ? EntrantLink(lang, *it->second) : E(p.name()),
           "row") +
        "<td>" + std::to_string(p.games_won()) + "</td><td>" +
        std::to_string(p.games_played()) + "</td><td>" +
        (p.left_after_game() > 0 ? std::to_string(p.left_after_game())
                                 : E(t.still_in)) +
        "</td></tr>";
  }
  return table + "</table>";
}

// One table a match of `round`: its boards with each board's game.
std::string TeamRound(Lang lang, const v1::EventResults& results,
                      const v1::Standings& standings, int round) {
  const EventTexts& t = TextsOf(lang);
  const auto entrants = EntrantsById(results);
  const auto team_of = [&](int entrant) {
    const auto it = entrants.find(entrant);
    return it != entrants.end() ? it->second->team_id() : 0;
  };
  std::map<std::pair<int, int>, std::vector<const v1::Game*>> matches;
  for (const v1::Game& g : results.games()) {
    if (!Regular(g) || g.round() != round) continue;
    int a = team_of(g.black_entrant_id());
    int b = team_of(g.white_entrant_id());
    if (a > b) std::swap(a, b);
    matches[{a, b}].push_back(&g);
  }
  std::string out;
  for (auto& [teams, games] : matches) {
    std::stable_sort(games.begin(), games.end(),
                     [](const v1::Game* x, const v1::Game* y) {
                       return x->board() < y->board();
                     });
    std::string caption = TeamName(results, teams.first) + " – " +
                          TeamName(results, teams.second);
    for (const v1::TeamMatch& m : standings.matches()) {
      if (m.round() != round || m.team_a() != teams.first ||
          m.team_b() != teams.second)
        continue;
      caption += " · " + std::string(t.board_points) + " " +
                 Score({m.board_points_a(), m.board_points_b()}) + " · " +
                 t.match_points + " " +
                 Score({m.match_points_a(), m.match_points_b()});
    }
    std::string table =
        "<table class=\"match\" data-round=\"" + std::to_string(round) +
        "\" data-teams=\"" + std::to_string(teams.first) + "-" +
        std::to_string(teams.second) + "\"><caption>" + E(caption) +
        "</caption><tr>" + Th(E(t.col_board)) + Th(E(t.col_black)) +
        Th(E(t.col_white)) + Th(E(t.col_result)) + "</tr>";
    for (const v1::Game* g : games) {
      const auto name = [&](int id) {
        const auto it = entrants.find(id);
        return it != entrants.end()
                   ? EntrantLink(lang, *it->second) + " (" +
                         E(TeamName(results, it->second->team_id())) + ")"
                   : "#" + std::to_string(id);
      };
      table += "<tr class=\"board\"><td>" + std::to_string(g->board()) +
               "</td><td>" + name(g->black_entrant_id()) + "</td><td>" +
               name(g->white_entrant_id()) + "</td><td>" +
               E(GameResultText(lang, *g)) + "</td></tr>";
    }
    out += Scroll(lang, table + "</table>");
  }
  std::string byes;
  for (const v1::Bye& b : results.byes()) {
    if (b.round() == round && b.team_id() > 0)
      byes += "<li>" + E(TeamName(results, b.team_id())) + "</li>";
  }
  if (!byes.empty())
    out += std::string("<p>") + (lang == Lang::kEn ? "Byes" : "轮空") +
           "</p><ul class=\"team-byes\">" + byes + "</ul>";
  return out;
}

std::string Playoffs(Lang lang, const v1::EventResults& results) {
  const EventTexts& t = TextsOf(lang);
  const auto entrants = EntrantsById(results);
  std::string rows;
  for (const v1::Game& g : results.games()) {
    if (Regular(g)) continue;
    const auto name = [&](int id) {
      const auto it = entrants.find(id);
      return it != entrants.end() ? EntrantLink(lang, *it->second)
                                  : "#" + std::to_string(id);
    };
    rows += "<tr class=\"playoff\"><td>" + name(g.black_entrant_id()) +
            "</td><td>" + name(g.white_entrant_id()) + "</td><td>" +
            E(GameResultText(lang, g)) + "</td></tr>";
  }
  if (rows.empty()) return "";
  return "<h3>" + E(t.playoffs) + "</h3>" +
         Scroll(lang, "<table id=\"playoffs\"><caption>" + E(t.playoffs) +
                          "</caption><tr>" + Th(E(t.col_black)) +
                          Th(E(t.col_white)) + Th(E(t.col_result)) + "</tr>" +
                          rows + "</table>");
}

}  // namespace

std::string EgfCell(const v1::EventResults& results, int id, int round,
                    const std::map<int, int>& number_of) {
  for (const v1::Game& g : results.games()) {
    if (!Regular(g) || g.round() != round) continue;
    if (g.black_entrant_id() != id && g.white_entrant_id() != id) continue;
    const int opp = g.black_entrant_id() == id ? g.white_entrant_id()
                                               : g.black_entrant_id();
    const auto it = number_of.find(opp);
    std::string cell = std::to_string(it != number_of.end() ? it->second : 0) +
                       OutcomeFor(g, id);
    if (Forfeited(g)) return cell + "!";
    cell += "/";
    cell += !g.colours_known() ? '?' : g.white_entrant_id() == id ? 'w' : 'b';
    if (g.handicap() > 0) cell += std::to_string(g.handicap());
    return cell;
  }
  for (const v1::Bye& b : results.byes()) {
    if (b.round() != round || b.entrant_id() != id) continue;
    return b.points() == 2 ? "0+" : b.points() == 1 ? "0=" : "0-";
  }
  return "0-";
}

namespace event_view {

std::string CrossTableSection(Lang lang, const v1::Event& event,
                              const v1::EventResults& results,
                              const v1::Standings& standings) {
  const EventTexts& t = TextsOf(lang);
  const v1::FormatKind kind = event.format().kind();
  const int rounds = RoundCount(event, results);
  std::string table;
  if (kind == v1::FORMAT_KIND_RELAY) {
    if (standings.relay_players_size() == 0) return "";
    table = RelayTable(lang, results, standings);
  } else if (IsTeamFormat(kind) || standings.teams()) {
    if (results.teams_size() == 0) return "";
    table = TeamGrid(lang, event, results, standings, rounds);
  } else {
    if (results.entrants_size() == 0) return "";
    std::vector<int> ids;
    for (const v1::Entrant& e : results.entrants()) ids.push_back(e.id());
    const std::vector<int> order = RowOrder(standings, ids);
    table = kind == v1::FORMAT_KIND_ROUND_ROBIN
                ? RoundRobinGrid(lang, results, order)
                : RoundsGrid(lang, results, order, rounds);
  }
  return "<section id=\"cross-table\"><h2>" + E(t.cross_table) + "</h2>" +
         Scroll(lang, table) + "<p class=\"legend\">" + E(t.cross_legend) +
         "</p></section>";
}

std::string RoundsSection(Lang lang, const v1::Event& event,
                          const v1::EventResults& results,
                          const v1::Standings& standings) {
  const EventTexts& t = TextsOf(lang);
  const bool teams = IsTeamFormat(event.format().kind());
  std::string rounds_html;
  for (int r = 1; r <= RoundCount(event, results); ++r) {
    std::string round;
    if (teams) {
      round = TeamRound(lang, results, standings, r);
    } else {
      RoundView view;
      view.id_suffix = "-" + std::to_string(r);
      view.caption = RoundName(lang, r);
      view.link_players = true;
      round = RoundBoards(lang, event, results, r, view);
      if (!round.empty()) round = Scroll(lang, round);
    }
    if (round.empty()) continue;
    rounds_html += "<section class=\"round\" data-round=\"" +
                   std::to_string(r) + "\"><h3>" + E(RoundName(lang, r)) +
                   "</h3>" + round + "</section>";
  }
  rounds_html += Playoffs(lang, results);
  if (rounds_html.empty()) return "";
  return "<section id=\"rounds\"><h2>" + E(t.rounds) + "</h2>" + rounds_html +
         "</section>";
}

std::string TeamsSection(Lang lang, const v1::EventResults& results) {
  const EventTexts& t = TextsOf(lang);
  const auto entrants = EntrantsById(results);
  std::string body = "<section id=\"teams\"><h2>" + E(t.teams) + "</h2>";
  for (const v1::Team& team : results.teams()) {
    body += "<section class=\"team\" data-team=\"" + std::to_string(team.id()) +
            "\"><h3>" + E(team.name()) + "</h3><p>" + E(t.board_order) +
            "</p><ol class=\"board-order\">";
    for (int id : team.board_order()) {
      const auto it = entrants.find(id);
      body += "<li data-id=\"" + std::to_string(id) + "\">";
      if (it == entrants.end()) {
        body += "#" + std::to_string(id);
      } else {
        body += EntrantLink(lang, *it->second);
        const v1::Entrant& e = *it->second;
        if (e.has_rank()) {
          body += " (" +
                  E(RankLabel(lang, e.rank().ladder(), e.rank().level(),
                              e.rank().notation())) +
                  ")";
        }
      }
      body += "</li>";
    }
    body += "</ol></section>";
  }
  return body + "</section>";
}

}  // namespace event_view
}  // namespace gorank::web
