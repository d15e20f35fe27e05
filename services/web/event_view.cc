#include "services/web/event_view.h"

#include <algorithm>
#include <cstdio>

#include "services/web/event_view_internal.h"
#include "services/web/pairing_page.h"

namespace gorank::web {
namespace event_view {

namespace {

constexpr EventTexts kZh = {
    .list_title = "赛事",
    .filter_legend = "筛选赛事",
    .agency_label = "主办单位代码（三位数字，如 110）",
    .year_label = "年份",
    .from_label = "开始日期不早于（YYYY-MM-DD）",
    .to_label = "开始日期不晚于（YYYY-MM-DD）",
    .filter_button = "筛选",
    .list_caption = "赛事（按开始日期，最新的在前）",
    .none = "没有符合条件的赛事。",
    .next_page = "下一页赛事",
    .col_dates = "日期",
    .col_name = "赛事",
    .col_place = "地点",
    .col_organiser = "主办单位",
    .col_level = "级别",
    .col_state = "状态",
    .closed = "已结束（成绩确定）",
    .open = "进行中",
    .facts_dates = "日期",
    .facts_place = "地点",
    .facts_organiser = "主办单位",
    .facts_level = "级别",
    .facts_competition = "比赛项目",
    .facts_system = "赛制",
    .facts_rounds = "轮数",
    .facts_rules = "规则",
    .facts_state = "状态",
    .facts_files = "成绩文件",
    .egf_file = "下载 EGF 成绩文件",
    .csv_file = "下载 CSV 成绩文件",
    .standings = "名次",
    .standings_caption = "名次表（各列为本赛事的排名依据，按先后顺序）",
    .final_standings = "名次已确定。",
    .pending_results = "尚有对局结果未录入，名次暂不计算：",
    .pending_playoff = "部分名次有待加赛或抽签决定：",
    .col_rank_place = "名次",
    .col_player = "棋手",
    .col_team = "队伍",
    .col_rank = "段级位",
    .col_note = "备注",
    .shared_suffix = "（并列）",
    .pending_place = "待加赛",
    .by_playoff = "（加赛决定）",
    .by_lots = "（抽签决定）",
    .voided = "成绩作废（不计名次）：",
    .cross_table = "对阵总表",
    .cross_caption_rr = "循环赛对阵表（行对列的结果）",
    .cross_caption_rounds = "各轮结果（EGF 格式）",
    .cross_caption_teams = "队伍对阵表（局分）",
    .cross_legend =
        "格式：对手序号、结果（+ 胜，- 负，= 和，? 未赛）、/ 对局或 ! "
        "弃权、执色（w 白，b 黑）、让子数；0+ 轮空（2分），0= 轮空（1分），0- "
        "无对局。循环赛表中 1 胜，0 负，½ 和，F 弃权。",
    .rounds = "各轮对阵与结果",
    .round_word_before = "第",
    .round_word_after = "轮",
    .playoffs = "名次加赛",
    .teams = "队伍与台次",
    .board_order = "台次顺序",
    .match_caption = "",
    .board_points = "局分",
    .match_points = "场分",
    .col_board = "台次",
    .col_black = "黑方",
    .col_white = "白方",
    .col_result = "结果",
    .table_scroll = "表格（可横向滚动）",
    .relay_players = "擂台赛棋手",
    .col_games_won = "胜局",
    .col_games_played = "对局",
    .still_in = "仍在场",
    .left_after_game = "出局于第几局",
};

constexpr EventTexts kEn = {
    .list_title = "Events",
    .filter_legend = "Filter events",
    .agency_label = "Organiser prefix (three digits, e.g. 110)",
    .year_label = "Year",
    .from_label = "Starting on or after (YYYY-MM-DD)",
    .to_label = "Starting on or before (YYYY-MM-DD)",
    .filter_button = "Filter",
    .list_caption = "Events (by start date, newest first)",
    .none = "No event matches.",
    .next_page = "Next page of events",
    .col_dates = "Dates",
    .col_name = "Event",
    .col_place = "Place",
    .col_organiser = "Organiser",
    .col_level = "Level",
    .col_state = "State",
    .closed = "closed (results final)",
    .open = "in progress",
    .facts_dates = "Dates",
    .facts_place = "Place",
    .facts_organiser = "Organiser",
    .facts_level = "Level",
    .facts_competition = "Competition",
    .facts_system = "System",
    .facts_rounds = "Rounds",
    .facts_rules = "Rules",
    .facts_state = "State",
    .facts_files = "Result files",
    .egf_file = "Download the EGF results file",
    .csv_file = "Download the CSV results file",
    .standings = "Standings",
    .standings_caption =
        "Standings (the columns are the event's tiebreak criteria, in order)",
    .final_standings = "The standings are final.",
    .pending_results = "Some results are not in yet; no standings until then: ",
    .pending_playoff = "Some places await a play-off or drawing of lots: ",
    .col_rank_place = "Place",
    .col_player = "Player",
    .col_team = "Team",
    .col_rank = "Rank",
    .col_note = "Note",
    .shared_suffix = " (shared)",
    .pending_place = "play-off pending",
    .by_playoff = " (by play-off)",
    .by_lots = " (by lots)",
    .voided = "Results voided (not placed): ",
    .cross_table = "Cross table",
    .cross_caption_rr = "Round robin cross table (row's result against column)",
    .cross_caption_rounds = "Results by round (EGF style)",
    .cross_caption_teams = "Team cross table (board points)",
    .cross_legend =
        "Cells: opponent's number, result (+ win, - loss, = jigo, ? to play), "
        "/ over the board or ! forfeit, colour (w white, b black), handicap; "
        "0+ bye (2 points), 0= bye (1 point), 0- no game. Round robin grid: "
        "1 win, 0 loss, ½ jigo, F forfeit.",
    .rounds = "Rounds: pairings and results",
    .round_word_before = "Round ",
    .round_word_after = "",
    .playoffs = "Place play-offs",
    .teams = "Teams and boards",
    .board_order = "Board order",
    .match_caption = "",
    .board_points = "board points",
    .match_points = "match points",
    .col_board = "Board",
    .col_black = "Black",
    .col_white = "White",
    .col_result = "Result",
    .table_scroll = "Table (scrolls sideways)",
    .relay_players = "Relay players",
    .col_games_won = "Games won",
    .col_games_played = "Games played",
    .still_in = "still in",
    .left_after_game = "Left after game",
};

}  // namespace

const EventTexts& TextsOf(Lang lang) { return lang == Lang::kEn ? kEn : kZh; }

std::string E(const std::string& s) { return HtmlEscape(s); }

std::string RoundName(Lang lang, int round) {
  const EventTexts& t = TextsOf(lang);
  return std::string(t.round_word_before) + std::to_string(round) +
         t.round_word_after;
}

std::string Scroll(Lang lang, const std::string& table_html) {
  return "<div class=\"scroll\" tabindex=\"0\" role=\"region\" aria-label=\"" +
         E(TextsOf(lang).table_scroll) +
         "\" style=\"overflow-x:auto;max-width:100%\">" + table_html + "</div>";
}

std::map<int, const v1::Entrant*> EntrantsById(const v1::EventResults& r) {
  std::map<int, const v1::Entrant*> out;
  for (const v1::Entrant& e : r.entrants()) out[e.id()] = &e;
  return out;
}

std::string EntrantLink(Lang lang, const v1::Entrant& e) {
  v1::Entrant plain = e;
  plain.clear_rank();
  const std::string name = EntrantLabel(lang, plain);
  if (e.player_id() <= 0) return name;
  return "<a class=\"player\" href=\"" +
         E(WithLang("/players/" + std::to_string(e.player_id()), lang)) +
         "\">" + name + "</a>";
}

std::vector<int> RowOrder(const v1::Standings& standings,
                          const std::vector<int>& all_ids) {
  std::vector<int> order;
  for (const v1::StandingRow& row : standings.rows()) order.push_back(row.id());
  for (int id : all_ids) {
    if (std::find(order.begin(), order.end(), id) == order.end())
      order.push_back(id);
  }
  return order;
}

int RoundCount(const v1::Event& event, const v1::EventResults& results) {
  int last = 0;
  for (const v1::Game& g : results.games()) {
    if (g.kind() != v1::GAME_KIND_PLACE_PLAYOFF)
      last = std::max(last, g.round());
  }
  for (const v1::Bye& b : results.byes()) last = std::max(last, b.round());
  return std::max(last, event.format().rounds());
}

bool IsTeamFormat(v1::FormatKind kind) {
  return kind == v1::FORMAT_KIND_TEAM_ROUND_ROBIN ||
         kind == v1::FORMAT_KIND_TEAM_SWISS || kind == v1::FORMAT_KIND_RELAY;
}

}  // namespace event_view

namespace {

using namespace event_view;  // NOLINT: this file's own helpers

std::string DateText(const v1::Date& d) {
  if (d.year() == 0) return "";
  return IsoDay(d.year(), d.month(), d.day());
}

std::string Dates(const v1::Event& e) {
  const std::string start = DateText(e.start());
  const std::string end = DateText(e.end());
  return end.empty() || end == start ? start : start + " – " + end;
}

std::string Place(const v1::Event& e) {
  if (e.city().empty()) return e.country();
  return e.country().empty() ? e.city() : e.city() + ", " + e.country();
}

std::string AgencyName(Lang lang, const EventDirectory& names,
                       const std::string& prefix) {
  for (const v1::Agency& a : names.agencies.agencies()) {
    if (a.prefix() != prefix) continue;
    const std::string& n =
        lang == Lang::kEn && !a.name_en().empty() ? a.name_en() : a.name();
    return n + " (" + prefix + ")";
  }
  return prefix;
}

std::string CompetitionName(Lang lang, const EventDirectory& names,
                            const v1::Event& e) {
  std::string out = e.competition();
  for (const v1::Competition& c : names.competitions.competitions()) {
    if (c.code() != e.competition()) continue;
    const std::string& n = lang == Lang::kEn ? c.name_en() : c.name_zh();
    if (!n.empty()) out = n;
  }
  if (!e.group().empty()) out += " · " + e.group();
  return out;
}

std::string LevelName(Lang lang, v1::EventLevel level) {
  const bool en = lang == Lang::kEn;
  switch (level) {
    case v1::EVENT_LEVEL_WORLD:
      return en ? "world" : "世界级";
    case v1::EVENT_LEVEL_CONTINENTAL:
      return en ? "continental" : "洲际";
    case v1::EVENT_LEVEL_NATIONAL:
      return en ? "national" : "全国性";
    case v1::EVENT_LEVEL_PROVINCIAL:
      return en ? "provincial" : "省级";
    case v1::EVENT_LEVEL_CITY:
      return en ? "city" : "市级";
    case v1::EVENT_LEVEL_CLUB:
      return en ? "club" : "俱乐部";
    default:
      return "";
  }
}

std::string SystemName(Lang lang, const v1::Event& e) {
  const bool en = lang == Lang::kEn;
  const v1::Format& f = e.format();
  switch (f.kind()) {
    case v1::FORMAT_KIND_ROUND_ROBIN:
      return f.cycles() == 2 ? (en ? "double round robin" : "双循环")
                             : (en ? "round robin" : "单循环");
    case v1::FORMAT_KIND_SWISS:
      return e.pairing().system() == v1::PAIRING_SYSTEM_MCMAHON
                 ? (en ? "McMahon" : "麦克马洪制")
                 : (en ? "Swiss" : "积分编排制（瑞士制）");
    case v1::FORMAT_KIND_KNOCKOUT:
      return f.lives() == 2 ? (en ? "double elimination" : "双败淘汰")
                            : (en ? "knockout" : "淘汰赛");
    case v1::FORMAT_KIND_TEAM_ROUND_ROBIN:
      return (en ? "team round robin, boards: " : "团体循环赛，台数：") +
             std::to_string(f.boards());
    case v1::FORMAT_KIND_TEAM_SWISS:
      return (en ? "team Swiss, boards: " : "团体积分编排制，台数：") +
             std::to_string(f.boards());
    case v1::FORMAT_KIND_RELAY:
      return en ? "relay (擂台赛)" : "擂台赛";
    case v1::FORMAT_KIND_MATCH:
      return (en ? "match, best of " : "番棋，") + std::to_string(f.best_of()) +
             (en ? "" : "局");
    default:
      return "";
  }
}

std::string RulesText(Lang lang, const v1::Rules& r) {
  const bool en = lang == Lang::kEn;
  std::string out = r.rule_set() == v1::RULE_SET_JAPANESE_KOREAN
                        ? (en ? "Japanese/Korean rules" : "日韩规则")
                        : (en ? "Chinese rules" : "中国规则");
  const int k = r.komi_x2();
  std::string komi = std::to_string(k / 2);
  if (k % 2 != 0) komi = (k < 0 && k / 2 == 0 ? "-" : "") + komi + ".5";
  return out + (en ? ", komi " : "，贴目 ") + komi;
}

std::string StateText(Lang lang, const v1::Event& e) {
  const EventTexts& t = TextsOf(lang);
  return e.closed() ? t.closed : t.open;
}

std::string Fact(const char* label, const std::string& value_html,
                 const std::string& id) {
  if (value_html.empty()) return "";
  return "<dt>" + E(label) + "</dt><dd id=\"fact-" + id + "\">" + value_html +
         "</dd>";
}

std::string FactsSection(Lang lang, const v1::Event& e,
                         const EventDirectory& names) {
  const EventTexts& t = TextsOf(lang);
  const std::string id = std::to_string(e.id());
  std::string files;
  if (!IsTeamFormat(e.format().kind())) {
    files += "<a id=\"egf-download\" href=\"/events/" + id +
             ".egf\" download>" + E(t.egf_file) + "</a> ";
  }
  files += "<a id=\"csv-download\" href=\"/events/" + id + ".csv\" download>" +
           E(t.csv_file) + "</a>";
  const int rounds = e.format().rounds();
  std::string body = "<section id=\"event\" data-event=\"" + id +
                     "\"><h2 id=\"event-name\">" + E(e.name()) +
                     "</h2><dl id=\"event-facts\">";
  body += Fact(t.facts_dates, E(Dates(e)), "dates");
  body += Fact(t.facts_place, E(Place(e)), "place");
  body += Fact(t.facts_organiser,
               E(AgencyName(lang, names, e.organiser_prefix())), "organiser");
  body += Fact(t.facts_level, E(LevelName(lang, e.level())), "level");
  body += Fact(t.facts_competition, E(CompetitionName(lang, names, e)),
               "competition");
  body += Fact(t.facts_system, E(SystemName(lang, e)), "system");
  body +=
      Fact(t.facts_rounds, rounds > 0 ? std::to_string(rounds) : "", "rounds");
  body += Fact(t.facts_rules, E(RulesText(lang, e.rules())), "rules");
  body += Fact(t.facts_state, E(StateText(lang, e)), "state");
  body += Fact(t.facts_files, files, "files");
  return body + "</dl></section>";
}

std::string CriterionName(Lang lang, const std::string& name) {
  if (lang == Lang::kEn) return name;
  static const std::map<std::string, std::string> kNames = {
      {"points", "积分"},       {"A", "A值（索贝分×2）"},
      {"warnings", "警告"},     {"SOS", "对手分"},
      {"total", "总分"},        {"match points", "场分"},
      {"board points", "局分"}, {"ties won", "胜轮"},
      {"games won", "胜局"},    {"eliminated in round", "淘汰轮次"},
  };
  const auto it = kNames.find(name);
  if (it != kNames.end()) return it->second;
  if (name.rfind("board ", 0) == 0) return "第" + name.substr(6) + "台";
  return name;
}

std::string StateClass(v1::PlaceState s) {
  switch (s) {
    case v1::PLACE_STATE_SHARED:
      return "shared";
    case v1::PLACE_STATE_BY_PLAYOFF:
      return "by-playoff";
    case v1::PLACE_STATE_BY_LOTS:
      return "by-lots";
    case v1::PLACE_STATE_PENDING_PLAYOFF:
      return "pending";
    default:
      return "alone";
  }
}

std::string StandingsSection(Lang lang, const v1::Event& event,
                             const v1::EventResults& results,
                             const v1::Standings& s) {
  const EventTexts& t = TextsOf(lang);
  std::string body = "<section id=\"standings\" data-status=\"" +
                     v1::StandingsStatus_Name(s.status()) + "\"><h2>" +
                     E(t.standings) + "</h2>";
  // The domain's reason is English: marked so, for readers and translators.
  const std::string reason =
      s.pending_reason().empty()
          ? ""
          : "<span lang=\"en\">" + E(s.pending_reason()) + "</span>";
  if (s.status() == v1::STANDINGS_STATUS_PENDING_RESULTS) {
    body += "<p id=\"standings-status\" class=\"warn\">" +
            E(t.pending_results) + reason + "</p>";
  } else if (s.status() == v1::STANDINGS_STATUS_PENDING_PLAYOFF) {
    body += "<p id=\"standings-status\" class=\"warn\">" +
            E(t.pending_playoff) + reason + "</p>";
  } else if (event.closed()) {
    body += "<p id=\"standings-status\">" + E(t.final_standings) + "</p>";
  }
  if (s.rows_size() > 0) {
    const auto entrants = EntrantsById(results);
    std::string table = "<table id=\"standings-table\"><caption>" +
                        E(t.standings_caption) +
                        "</caption><tr><th scope=\"col\">" +
                        E(t.col_rank_place) + "</th><th scope=\"col\">" +
                        E(s.teams() ? t.col_team : t.col_player) + "</th>";
    if (!s.teams()) table += "<th scope=\"col\">" + E(t.col_rank) + "</th>";
    for (const std::string& c : s.criteria_names()) {
      table += "<th scope=\"col\" class=\"criterion\" data-criterion=\"" +
               E(c) + "\">" + E(CriterionName(lang, c)) + "</th>";
    }
    table += "<th scope=\"col\">" + E(t.col_note) + "</th></tr>";
    for (int i = 0; i < s.rows_size(); ++i) {
      const v1::StandingRow& row = s.rows(i);
      std::string name = E(row.name());
      std::string rank;
      if (!s.teams()) {
        const auto it = entrants.find(row.id());
        if (it != entrants.end()) {
          name = EntrantLink(lang, *it->second);
          const v1::Entrant& e = *it->second;
          if (e.has_rank()) {
            rank = E(RankLabel(lang, e.rank().ladder(), e.rank().level(),
                               e.rank().notation()));
          }
        }
      }
      table += "<tr class=\"row " + StateClass(row.state()) + "\" data-id=\"" +
               std::to_string(row.id()) + "\" data-place=\"" +
               std::to_string(row.place()) + "\" data-state=\"" +
               v1::PlaceState_Name(row.state()) + "\"><td class=\"place\">" +
               E(PlaceText(lang, s, i)) + "</td><th scope=\"row\">" + name +
               "</th>";
      if (!s.teams()) table += "<td>" + rank + "</td>";
      for (int c = 0; c < s.criteria_names_size(); ++c) {
        table += "<td class=\"criterion\">" +
                 (c < row.criteria_size() ? E(row.criteria(c).display())
                                          : std::string()) +
                 "</td>";
      }
      table += "<td>" +
               (row.note().empty()
                    ? std::string()
                    : "<span lang=\"en\">" + E(row.note()) + "</span>") +
               "</td></tr>";
    }
    body += Scroll(lang, table + "</table>");
  }
  if (s.voided_entrant_ids_size() > 0) {
    const auto entrants = EntrantsById(results);
    std::string list;
    for (int id : s.voided_entrant_ids()) {
      const auto it = entrants.find(id);
      if (!list.empty()) list += lang == Lang::kEn ? ", " : "、";
      list += it != entrants.end() ? EntrantLink(lang, *it->second)
                                   : "#" + std::to_string(id);
    }
    body += "<p id=\"voided\">" + E(t.voided) + list + "</p>";
  }
  return body + "</section>";
}

std::string Value(const std::string& name, const std::string& value) {
  return " name=\"" + name + "\" id=\"f-" + name + "\" value=\"" + E(value) +
         "\"";
}

}  // namespace

std::string PlaceText(Lang lang, const v1::Standings& s, int index) {
  const EventTexts& t = TextsOf(lang);
  const v1::StandingRow& row = s.rows(index);
  int members = 0;
  for (const v1::StandingRow& r : s.rows()) {
    if (r.place() == row.place() && r.state() == row.state()) ++members;
  }
  const std::string place = std::to_string(row.place());
  const std::string range =
      members > 1 ? place + "–" + std::to_string(row.place() + members - 1)
                  : place;
  switch (row.state()) {
    case v1::PLACE_STATE_SHARED:
      return range + t.shared_suffix;
    case v1::PLACE_STATE_PENDING_PLAYOFF:
      return std::string(t.pending_place) +
             (lang == Lang::kEn ? " (" + range + ")" : "（" + range + "）");
    case v1::PLACE_STATE_BY_PLAYOFF:
      return place + t.by_playoff;
    case v1::PLACE_STATE_BY_LOTS:
      return place + t.by_lots;
    default:
      return place;
  }
}

std::string EventListTitle(Lang lang) { return TextsOf(lang).list_title; }

std::string EventListBody(Lang lang, const EventListQuery& q,
                          const v1::ListEventsResponse& page,
                          const EventDirectory& names) {
  const EventTexts& t = TextsOf(lang);
  std::string body = "<section id=\"events\"><h2>" + E(t.list_title) + "</h2>";
  body +=
      "<form id=\"event-filter\" method=\"get\" action=\"/events\">"
      "<fieldset><legend>" +
      E(t.filter_legend) + "</legend>";
  if (lang == Lang::kEn)
    body += "<input type=\"hidden\" name=\"lang\" value=\"en\">";
  body += "<label for=\"f-agency\">" + E(t.agency_label) +
          "</label><input type=\"text\" inputmode=\"numeric\" maxlength=\"3\"" +
          Value("agency", q.agency) + ">";
  body += "<label for=\"f-year\">" + E(t.year_label) +
          "</label><input type=\"text\" inputmode=\"numeric\" maxlength=\"4\"" +
          Value("year", q.year) + ">";
  body += "<label for=\"f-from\">" + E(t.from_label) +
          "</label><input type=\"text\" maxlength=\"10\"" +
          Value("from", q.from) + ">";
  body += "<label for=\"f-to\">" + E(t.to_label) +
          "</label><input type=\"text\" maxlength=\"10\"" + Value("to", q.to) +
          ">";
  body += "<button type=\"submit\">" + E(t.filter_button) +
          "</button></fieldset></form>";
  if (page.events_size() == 0)
    return body + "<p id=\"events-none\">" + E(t.none) + "</p></section>";
  std::string table = "<table id=\"event-list\"><caption>" + E(t.list_caption) +
                      "</caption><tr>";
  for (const char* h : {t.col_dates, t.col_name, t.col_place, t.col_organiser,
                        t.col_level, t.col_state}) {
    table += "<th scope=\"col\">" + E(h) + "</th>";
  }
  table += "</tr>";
  for (const v1::Event& e : page.events()) {
    const std::string id = std::to_string(e.id());
    table += "<tr class=\"event\" data-event=\"" + id + "\"><td>" +
             E(Dates(e)) + "</td><th scope=\"row\"><a href=\"" +
             E(WithLang("/events/" + id, lang)) + "\">" + E(e.name()) +
             "</a></th><td>" + E(Place(e)) + "</td><td>" +
             E(AgencyName(lang, names, e.organiser_prefix())) + "</td><td>" +
             E(LevelName(lang, e.level())) + "</td><td>" +
             E(StateText(lang, e)) + "</td></tr>";
  }
  body += Scroll(lang, table + "</table>");
  if (!page.next_page_token().empty()) {
    std::string next = "/events?page=" + UrlEncode(page.next_page_token());
    if (!q.agency.empty()) next += "&agency=" + UrlEncode(q.agency);
    if (!q.year.empty()) next += "&year=" + UrlEncode(q.year);
    if (!q.from.empty()) next += "&from=" + UrlEncode(q.from);
    if (!q.to.empty()) next += "&to=" + UrlEncode(q.to);
    if (q.page_size > 0) next += "&page_size=" + std::to_string(q.page_size);
    body += "<p><a id=\"next-page\" rel=\"next\" href=\"" +
            E(WithLang(next, lang)) + "\">" + E(t.next_page) + "</a></p>";
  }
  return body + "</section>";
}

std::string EventBody(Lang lang, const v1::Event& event,
                      const v1::EventResults& results,
                      const v1::Standings& standings,
                      const EventDirectory& names) {
  std::string body = FactsSection(lang, event, names);
  body += StandingsSection(lang, event, results, standings);
  body += CrossTableSection(lang, event, results, standings);
  body += RoundsSection(lang, event, results, standings);
  if (IsTeamFormat(event.format().kind()) || results.teams_size() > 0)
    body += TeamsSection(lang, results);
  return body;
}

}  // namespace gorank::web
