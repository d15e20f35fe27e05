#include "services/web/search_page.h"

#include <cstdio>
#include <map>
#include <memory>

#include "google/protobuf/util/json_util.h"
#include "gorank/v1/registry.grpc.pb.h"
#include "gorank/v1/tournaments.grpc.pb.h"
#include "nlohmann/json.hpp"
#include "services/web/player_page.h"

namespace gorank::web {
namespace {

using httplib::Request;
using httplib::Response;

std::string E(std::string_view s) { return HtmlEscape(s); }

struct SearchTexts {
  const char* heading;
  const char* label;
  const char* button;
  const char* hint;
  const char* players;
  const char* players_caption;
  const char* name;
  const char* latin_name;
  const char* agency;
  const char* rank;
  const char* no_players;
  const char* whole_names;
  const char* events;
  const char* events_caption;
  const char* start;
  const char* event;
  const char* organiser;
  const char* no_events;
  const char* more_events;
  const char* scroll;
  const char* query_required;
};

constexpr SearchTexts kZh = {
    "搜索",
    "棋手姓名或比赛名称",
    "搜索",
    "棋手请输入完整的姓名，或完整的拼音/外文名（不分大小写，空格和连字符可有可"
    "无）；比赛可输入名称中的任意部分。",
    "棋手",
    "姓名相符的棋手",
    "姓名",
    "拼音/外文名",
    "所属单位",
    "围棋段位",
    "没有找到这个姓名的棋手。",
    "为保护个人信息，棋手只能按完整姓名查找，最多显示20人。",
    "比赛",
    "名称相符的比赛（由近到远）",
    "开始日期",
    "比赛",
    "主办单位",
    "没有找到名称相符的比赛。",
    "只列出最近的20项比赛，请输入更完整的名称。",
    "可横向滚动的表格",
    "请输入要搜索的姓名或比赛名称（参数 q）"};

constexpr SearchTexts kEn = {
    "Search",
    "Player name or event name",
    "Search",
    "Players: enter a whole name, or a whole Latin name (any case, with or "
    "without spaces and hyphens). Events: any part of the name.",
    "Players",
    "Players of this name",
    "Name",
    "Latin name",
    "Agency",
    "Go rank",
    "No player of this name was found.",
    "To protect personal data, players are found by their whole name only, "
    "20 at most.",
    "Events",
    "Events whose name matches, newest first",
    "Start",
    "Event",
    "Organiser",
    "No event of this name was found.",
    "Only the 20 newest events are listed; give more of the name.",
    "Scrollable table",
    "give a name or an event name to search for (parameter q)"};

const SearchTexts& T(Lang lang) { return lang == Lang::kEn ? kEn : kZh; }

std::string Day(const v1::Date& d) {
  if (d.year() == 0) return "-";
  return IsoDay(d.year(), d.month(), d.day());
}

std::string Trim(const std::string& s) {
  const size_t a = s.find_first_not_of(" \t\r\n");
  if (a == std::string::npos) return "";
  const size_t b = s.find_last_not_of(" \t\r\n");
  return s.substr(a, b - a + 1);
}

std::string Scroll(Lang lang, const std::string& id,
                   const std::string& table_html) {
  return "<div class=\"scroll\" id=\"" + id +
         "-box\" tabindex=\"0\" role=\"region\" aria-label=\"" +
         E(T(lang).scroll) + "\" style=\"overflow-x:auto\">" + table_html +
         "</div>";
}

std::string Th(const char* text) {
  return std::string("<th scope=\"col\">") + E(text) + "</th>";
}

std::string AgencyOf(Lang lang, const std::map<std::string, v1::Agency>& all,
                     const std::string& prefix) {
  const auto it = all.find(prefix);
  if (it == all.end()) return prefix;
  return AgencyName(lang, it->second) + " (" + prefix + ")";
}

std::string PlayersSection(Lang lang, const SearchView& v,
                           const std::map<std::string, v1::Agency>& agencies) {
  const SearchTexts& t = T(lang);
  std::string out =
      "<section id=\"search-players\"><h3>" + E(t.players) + "</h3>";
  if (v.players.empty()) {
    out += "<p id=\"players-none\">" + E(t.no_players) + "</p>";
  } else {
    std::string table = std::string("<table id=\"players-table\"><caption>") +
                        E(t.players_caption) + "</caption><tr>" + Th(t.name) +
                        Th(t.latin_name) + Th(t.agency) + Th(t.rank) + "</tr>";
    for (const v1::Player& p : v.players) {
      const std::string rank =
          p.has_rank() ? RankLabel(lang, p.rank().ladder(), p.rank().level(),
                                   p.rank().notation())
                       : "-";
      table += "<tr class=\"found-player\" data-player=\"" +
               std::to_string(p.id()) + "\"><td><a href=\"" +
               E(WithLang("/players/" + std::to_string(p.id()), lang)) + "\">" +
               E(p.name()) + "</a></td><td lang=\"zh-Latn\">" +
               E(p.latin_name()) + "</td><td>" +
               E(AgencyOf(lang, agencies, p.agency_prefix())) + "</td><td>" +
               E(rank) + "</td></tr>";
    }
    out += Scroll(lang, "players", table + "</table>");
  }
  return out + "<p id=\"whole-names\">" + E(t.whole_names) + "</p></section>";
}

std::string EventsSection(Lang lang, const SearchView& v,
                          const std::map<std::string, v1::Agency>& agencies) {
  const SearchTexts& t = T(lang);
  std::string out =
      "<section id=\"search-events\"><h3>" + E(t.events) + "</h3>";
  if (v.events.empty())
    return out + "<p id=\"events-none\">" + E(t.no_events) + "</p></section>";
  std::string table = std::string("<table id=\"found-events\"><caption>") +
                      E(t.events_caption) + "</caption><tr>" + Th(t.start) +
                      Th(t.event) + Th(t.organiser) + "</tr>";
  for (const v1::Event& e : v.events) {
    table += "<tr class=\"found-event\" data-event=\"" +
             std::to_string(e.id()) + "\"><td>" + Day(e.start()) +
             "</td><td><a href=\"" +
             E(WithLang("/events/" + std::to_string(e.id()), lang)) + "\">" +
             E(e.name()) + "</a></td><td>" +
             E(AgencyOf(lang, agencies, e.organiser_prefix())) + "</td></tr>";
  }
  out += Scroll(lang, "found-events", table + "</table>");
  if (v.more_events)
    out += "<p id=\"events-more\">" + E(t.more_events) + "</p>";
  return out + "</section>";
}

nlohmann::json ToJson(const google::protobuf::Message& m) {
  google::protobuf::util::JsonPrintOptions opts;
  opts.preserve_proto_field_names = true;
  std::string out;
  (void)google::protobuf::util::MessageToJsonString(m, &out, opts);
  return nlohmann::json::parse(out, nullptr, false);
}

struct Stubs {
  std::unique_ptr<v1::PlayerRegistry::Stub> players;
  std::unique_ptr<v1::AgencyService::Stub> agencies;
  std::unique_ptr<v1::TournamentService::Stub> events;
};

Refusal Load(const Site& site, const Stubs& s, const Request& req,
             SearchView* v) {
  v->query = Trim(req.get_param_value("q"));
  if (v->query.empty()) return Refusal{};
  v1::SearchPlayersRequest search;
  search.set_name_prefix(v->query);
  v1::SearchPlayersResponse players;
  Refusal r =
      site.Call(req, s.players.get(), &v1::PlayerRegistry::Stub::SearchPlayers,
                search, &players);
  if (!r.ok()) return r;
  v->players.assign(players.players().begin(), players.players().end());
  v1::ListEventsRequest list;
  list.set_name_contains(v->query);
  list.set_newest_first(true);
  list.set_page_size(kSearchEvents);
  v1::ListEventsResponse events;
  r = site.Call(req, s.events.get(), &v1::TournamentService::Stub::ListEvents,
                list, &events);
  if (!r.ok()) return r;
  v->events.assign(events.events().begin(), events.events().end());
  v->more_events = !events.next_page_token().empty();
  if (v->players.empty() && v->events.empty()) return Refusal{};
  v1::ListAgenciesResponse agencies;
  r = site.Call(req, s.agencies.get(), &v1::AgencyService::Stub::ListAgencies,
                v1::ListAgenciesRequest(), &agencies);
  if (!r.ok()) return r;
  v->agencies.assign(agencies.agencies().begin(), agencies.agencies().end());
  return Refusal{};
}

}  // namespace

std::string SearchForm(Lang lang, std::string_view query,
                       std::string_view field_id) {
  const SearchTexts& t = T(lang);
  std::string out =
      "<form class=\"search-form\" role=\"search\" "
      "action=\"/search\" method=\"get\"><label for=\"" +
      E(field_id) + "\">" + E(t.label) +
      "</label><input type=\"search\" id=\"" + E(field_id) +
      "\" name=\"q\" value=\"" + E(query) +
      "\" maxlength=\"100\" autocomplete=\"off\">";
  if (lang == Lang::kEn)
    out += "<input type=\"hidden\" name=\"lang\" value=\"en\">";
  return out + " <button type=\"submit\">" + E(t.button) + "</button></form>";
}

std::string SearchBody(Lang lang, const SearchView& v) {
  const SearchTexts& t = T(lang);
  std::string out = "<section id=\"search\"><h2>" + E(t.heading) + "</h2>" +
                    SearchForm(lang, v.query) + "<p id=\"search-hint\">" +
                    E(t.hint) + "</p>";
  if (v.query.empty()) return out + "</section>";
  std::map<std::string, v1::Agency> agencies;
  for (const v1::Agency& a : v.agencies) agencies[a.prefix()] = a;
  return out + PlayersSection(lang, v, agencies) +
         EventsSection(lang, v, agencies) + "</section>";
}

std::string SearchJson(const SearchView& v) {
  nlohmann::json j = {{"query", v.query},
                      {"players", nlohmann::json::array()},
                      {"events", nlohmann::json::array()},
                      {"more_events", v.more_events}};
  for (v1::Player p : v.players) {
    p.clear_has_resident_id();
    p.clear_resident_id();
    p.clear_birth_date();
    p.clear_external_id();
    j["players"].push_back(ToJson(p));
  }
  for (const v1::Event& e : v.events) {
    j["events"].push_back({{"id", e.id()},
                           {"name", e.name()},
                           {"start", ToJson(e.start())},
                           {"end", ToJson(e.end())},
                           {"organiser_prefix", e.organiser_prefix()},
                           {"closed", e.closed()}});
  }
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void InstallSearchPages(httplib::Server& http, Site& site) {
  auto stubs = std::make_shared<Stubs>();
  stubs->players = v1::PlayerRegistry::NewStub(site.channel());
  stubs->agencies = v1::AgencyService::NewStub(site.channel());
  stubs->events = v1::TournamentService::NewStub(site.channel());
  http.Get("/search", [&site, stubs](const Request& req, Response& res) {
    SearchView v;
    if (Refusal r = Load(site, *stubs, req, &v); !r.ok())
      return site.Refuse(req, res, r);
    site.Html(req, res, 200, T(LangOf(req)).heading,
              SearchBody(LangOf(req), v));
  });
  http.Get("/api/v1/search", [&site, stubs](const Request& req, Response& res) {
    SearchView v;
    Refusal r = Load(site, *stubs, req, &v);
    if (r.ok() && v.query.empty()) {
      r = Refusal{absl::StatusCode::kInvalidArgument,
                  T(LangOf(req)).query_required, 0};
    }
    if (!r.ok()) return site.Refuse(req, res, r);
    site.JsonText(res, SearchJson(v));
  });
}

}  // namespace gorank::web
