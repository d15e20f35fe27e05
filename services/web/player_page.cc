#include "services/web/player_page.h"

#include <charconv>
#include <cstdio>
#include <map>
#include <memory>

#include "google/protobuf/util/json_util.h"
#include "gorank/v1/ratings.grpc.pb.h"
#include "gorank/v1/registry.grpc.pb.h"
#include "gorank/v1/tournaments.grpc.pb.h"
#include "nlohmann/json.hpp"
#include "services/web/rating_graph.h"

namespace gorank::web {
namespace {

using httplib::Request;
using httplib::Response;

std::string E(const std::string& s) { return HtmlEscape(s); }

struct PlayerTexts {
  const char* ranks;
  const char* agency;
  const char* go_rank;
  const char* gomoku_rank;
  const char* none;
  const char* history;
  const char* history_caption;
  const char* date;
  const char* discipline;
  const char* go;
  const char* gomoku;
  const char* change;
  const char* reason;
  const char* basis;
  const char* no_history;
  const char* reasons[9];  // by RankChangeReason
  const char* rating;
  const char* gor;
  const char* maps_to;
  const char* rated_games;
  const char* rated_events;
  const char* pro_rating;
  const char* pro_games;
  const char* no_rating;
  const char* points_caption;
  const char* event;
  const char* games;
  const char* before;
  const char* after;
  const char* events;
  const char* events_caption;
  const char* start;
  const char* place;
  const char* no_place;
  const char* no_events;
  const char* more_events;
  const char* scroll;  // the label of a table's scroll box
  const char* bad_id;
  const char* unknown_player;
};

constexpr PlayerTexts kZh = {"段位",
                             "所属单位",
                             "围棋段位",
                             "五子棋段位",
                             "无",
                             "段位记录",
                             "段位变化记录（由早到晚）",
                             "日期",
                             "项目",
                             "围棋",
                             "五子棋",
                             "段位变化",
                             "原因",
                             "依据",
                             "暂无段位记录。",
                             {"未注明", "登记", "证书", "鉴定", "晋升",
                              "比赛授予", "更正", "撤销", "导入"},
                             "等级分",
                             "等级分（GoR）",
                             "对应段位",
                             "计分对局",
                             "计分比赛",
                             "职业等级分",
                             "职业计分对局",
                             "暂无等级分：尚无计分对局。",
                             "等级分记录（变化图的文字版）",
                             "比赛",
                             "对局数",
                             "赛前",
                             "赛后",
                             "参加的比赛",
                             "参加的比赛与名次（由近到远）",
                             "开始日期",
                             "名次",
                             "无名次（成绩待定或未计名次）",
                             "暂无比赛记录。",
                             "只列出最近的比赛。",
                             "可横向滚动的表格",
                             "棋手编号必须是正整数，收到的是",
                             "没有这个编号的棋手："};

constexpr PlayerTexts kEn = {
    "Ranks",
    "Agency",
    "Go rank",
    "Gomoku rank",
    "none",
    "Rank history",
    "Rank changes, oldest first",
    "Date",
    "Discipline",
    "Go",
    "Gomoku",
    "Change",
    "Reason",
    "Basis",
    "No rank history yet.",
    {"unspecified", "registration", "certificate", "appraisal", "promotion",
     "tournament award", "correction", "revocation", "import"},
    "Rating",
    "Rating (GoR)",
    "Grade of the rating",
    "Rated games",
    "Rated events",
    "Pro rating",
    "Pro rated games",
    "No rating yet: no rated game.",
    "Rating history (the graph as a table)",
    "Event",
    "Games",
    "Before",
    "After",
    "Events played",
    "Events and places, newest first",
    "Start",
    "Place",
    "no place (results pending or unranked)",
    "No events yet.",
    "Only the newest events are listed.",
    "Scrollable table",
    "the player id must be a positive number, got",
    "no player has this id:"};

const PlayerTexts& T(Lang lang) { return lang == Lang::kEn ? kEn : kZh; }

std::string Day(const v1::Date& d) {
  if (d.year() == 0) return "-";
  return IsoDay(d.year(), d.month(), d.day());
}

std::string Fixed1(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

std::string Signed1(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.1f", v);
  return buf;
}

std::string RankText(Lang lang, const v1::Rank& r) {
  return RankLabel(lang, r.ladder(), r.level(), r.notation());
}

std::string Row(const char* head, const std::string& cell_html) {
  return std::string("<tr><th scope=\"row\">") + E(head) + "</th><td>" +
         cell_html + "</td></tr>";
}

// A table inside a box that scrolls sideways on a narrow screen.
std::string Scroll(Lang lang, const std::string& id,
                   const std::string& table_html) {
  return "<div class=\"scroll\" id=\"" + id +
         "-box\" tabindex=\"0\" role=\"region\" aria-label=\"" +
         E(T(lang).scroll) + "\" style=\"overflow-x:auto\">" + table_html +
         "</div>";
}

std::string EventLink(Lang lang, int64_t id, const std::string& name) {
  return "<a href=\"" + E(WithLang("/events/" + std::to_string(id), lang)) +
         "\">" + E(name.empty() ? "#" + std::to_string(id) : name) + "</a>";
}

std::string PlaceText(Lang lang, const v1::PlayerPlace& p) {
  const std::string n = std::to_string(p.place());
  const bool zh = lang == Lang::kZh;
  switch (p.state()) {
    case v1::PLACE_STATE_SHARED:
      return zh ? "并列第" + n + "名" : n + "= (shared)";
    case v1::PLACE_STATE_PENDING_PLAYOFF:
      return zh ? "待附加赛（争第" + n + "名）"
                : "play-off pending (for " + n + ")";
    default:
      return zh ? "第" + n + "名" : n;
  }
}

std::string RanksSection(Lang lang, const PlayerView& v) {
  const PlayerTexts& t = T(lang);
  const v1::Player& p = v.player;
  const std::string agency = AgencyName(lang, v.agency);
  std::string out = "<section id=\"ranks\"><h3>" + E(t.ranks) +
                    "</h3><table id=\"ranks-table\">";
  out += Row(t.agency,
             E(agency.empty() ? p.agency_prefix()
                              : agency + " (" + p.agency_prefix() + ")"));
  out +=
      Row(t.go_rank, "<span id=\"go-rank\">" +
                         E(p.has_rank() ? RankText(lang, p.rank()) : t.none) +
                         "</span>");
  out += Row(
      t.gomoku_rank,
      "<span id=\"gomoku-rank\">" +
          E(p.has_gomoku_rank() ? RankText(lang, p.gomoku_rank()) : t.none) +
          "</span>");
  return out + "</table></section>";
}

std::string HistorySection(Lang lang, const PlayerView& v) {
  const PlayerTexts& t = T(lang);
  std::string out = "<section id=\"history\"><h3>" + E(t.history) + "</h3>";
  if (v.history.empty())
    return out + "<p id=\"history-none\">" + E(t.no_history) + "</p></section>";
  std::string table =
      std::string("<table id=\"history-table\"><caption>") +
      E(t.history_caption) + "</caption><tr><th scope=\"col\">" + E(t.date) +
      "</th><th scope=\"col\">" + E(t.discipline) + "</th><th scope=\"col\">" +
      E(t.change) + "</th><th scope=\"col\">" + E(t.reason) +
      "</th><th scope=\"col\">" + E(t.basis) + "</th></tr>";
  for (const v1::RankHistoryEntry& h : v.history) {
    const int reason = static_cast<int>(h.reason());
    const std::string from =
        h.has_from_rank() ? RankText(lang, h.from_rank()) : t.none;
    const std::string to =
        h.has_to_rank() ? RankText(lang, h.to_rank()) : t.none;
    table += "<tr class=\"rank-change\" data-reason=\"" +
             std::to_string(reason) + "\"><td>" + Day(h.effective_date()) +
             "</td><td>" +
             E(h.discipline() == v1::DISCIPLINE_GOMOKU ? t.gomoku : t.go) +
             "</td><td>" + E(from) + " &rarr; " + E(to) + "</td><td>" +
             E(reason >= 0 && reason < 9 ? t.reasons[reason] : t.reasons[0]) +
             "</td><td class=\"basis\">" + E(h.basis()) + "</td></tr>";
  }
  out += Scroll(lang, "history", table + "</table>");
  // Why the numbers end in ****, as /lookup says it.
  return out + "<p id=\"numbers-masked\">" + E(TextsFor(lang).numbers_masked) +
         "</p></section>";
}

std::string RatingSection(Lang lang, const PlayerView& v,
                          const std::map<int64_t, std::string>& names) {
  const PlayerTexts& t = T(lang);
  std::string out = "<section id=\"rating\"><h3>" + E(t.rating) + "</h3>";
  if (!v.has_rating) {
    return out + "<p id=\"rating-none\">" + E(t.no_rating) + "</p></section>";
  }
  const v1::PlayerRating& r = v.rating;
  out += "<table id=\"rating-table\">";
  out += Row(t.gor, "<span id=\"gor\">" + Fixed1(r.gor()) + "</span>");
  if (r.has_grade()) out += Row(t.maps_to, E(RankText(lang, r.grade())));
  out += Row(t.rated_games, std::to_string(r.rated_games()));
  out += Row(t.rated_events, std::to_string(r.rated_events()));
  if (r.has_pro_rating()) {
    out += Row(t.pro_rating,
               "<span id=\"pro-rating\">" + Fixed1(r.pro_rating()) + "</span>");
    out += Row(t.pro_games, std::to_string(r.pro_games()));
  }
  out += "</table>";
  out += RatingGraphSvg(lang, v.rating_history);
  if (v.rating_history.empty()) return out + "</section>";
  std::string table = std::string("<table id=\"rating-points\"><caption>") +
                      E(t.points_caption) + "</caption><tr><th scope=\"col\">" +
                      E(t.date) + "</th><th scope=\"col\">" + E(t.event) +
                      "</th><th scope=\"col\">" + E(t.games) +
                      "</th><th scope=\"col\">" + E(t.before) +
                      "</th><th scope=\"col\">" + E(t.after) +
                      "</th><th scope=\"col\">" + E(t.change) + "</th></tr>";
  for (const v1::RatingChange& c : v.rating_history) {
    int64_t id = 0;
    const std::string& text = c.event_id();
    auto [end, ec] =
        std::from_chars(text.data(), text.data() + text.size(), id);
    std::string event = E(text);
    if (ec == std::errc() && end == text.data() + text.size() && id > 0) {
      const auto it = names.find(id);
      event = EventLink(lang, id, it != names.end() ? it->second : "");
    }
    table += "<tr class=\"rating-point\"><td>" + Day(c.event_date()) +
             "</td><td>" + event + "</td><td>" + std::to_string(c.games()) +
             "</td><td>" + Fixed1(c.gor_before()) + "</td><td>" +
             Fixed1(c.gor_after()) + "</td><td>" +
             Signed1(c.gor_after() - c.gor_before()) + "</td></tr>";
  }
  return out + Scroll(lang, "rating-points", table + "</table>") + "</section>";
}

std::string EventsSection(Lang lang, const PlayerView& v) {
  const PlayerTexts& t = T(lang);
  std::string out = "<section id=\"events\"><h3>" + E(t.events) + "</h3>";
  if (v.events.empty())
    return out + "<p id=\"events-none\">" + E(t.no_events) + "</p></section>";
  std::map<int64_t, const v1::PlayerPlace*> places;
  for (const v1::PlayerPlace& p : v.places) places[p.event_id()] = &p;
  std::string table = std::string("<table id=\"events-table\"><caption>") +
                      E(t.events_caption) + "</caption><tr><th scope=\"col\">" +
                      E(t.start) + "</th><th scope=\"col\">" + E(t.event) +
                      "</th><th scope=\"col\">" + E(t.place) + "</th></tr>";
  for (const v1::Event& e : v.events) {
    const auto it = places.find(e.id());
    std::string place = E(t.no_place);
    std::string data;
    if (it != places.end()) {
      place = E(PlaceText(lang, *it->second));
      data = " data-place=\"" + std::to_string(it->second->place()) + "\"";
    }
    table += "<tr class=\"event\" data-event=\"" + std::to_string(e.id()) +
             "\"" + data + "><td>" + Day(e.start()) + "</td><td>" +
             EventLink(lang, e.id(), e.name()) + "</td><td>" + place +
             "</td></tr>";
  }
  out += Scroll(lang, "events", table + "</table>");
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

// The id of /players/{id}: a positive number.
bool ParseId(const std::string& text, int64_t* id) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *id);
  return ec == std::errc() && end == text.data() + text.size() && *id > 0;
}

struct Stubs {
  std::unique_ptr<v1::PlayerRegistry::Stub> players;
  std::unique_ptr<v1::AgencyService::Stub> agencies;
  std::unique_ptr<v1::RatingService::Stub> ratings;
  std::unique_ptr<v1::TournamentService::Stub> events;
};

Refusal Load(const Site& site, const Stubs& s, const Request& req,
             PlayerView* v) {
  const Lang lang = LangOf(req);
  const std::string text = req.matches.size() > 1 ? req.matches[1].str() : "";
  int64_t id = 0;
  if (!ParseId(text, &id)) {
    return Refusal{absl::StatusCode::kInvalidArgument,
                   std::string(T(lang).bad_id) + " '" + text + "'", 0, 0,
                   /*localized=*/true};
  }
  v1::GetPlayerRequest get;
  get.set_player_id(id);
  v1::GetPlayerResponse player;
  Refusal r = site.Call(req, s.players.get(),
                        &v1::PlayerRegistry::Stub::GetPlayer, get, &player);
  if (r.code == absl::StatusCode::kNotFound)
    r.message = std::string(T(lang).unknown_player) + " " + text;
  if (!r.ok()) return r;
  v->player = player.player();

  v1::ListAgenciesResponse agencies;
  r = site.Call(req, s.agencies.get(), &v1::AgencyService::Stub::ListAgencies,
                v1::ListAgenciesRequest(), &agencies);
  if (!r.ok()) return r;
  for (const v1::Agency& a : agencies.agencies()) {
    if (a.prefix() == v->player.agency_prefix()) v->agency = a;
  }

  v1::GetRankHistoryRequest hist_req;
  hist_req.set_player_id(id);
  v1::GetRankHistoryResponse hist;
  r = site.Call(req, s.players.get(), &v1::PlayerRegistry::Stub::GetRankHistory,
                hist_req, &hist);
  if (!r.ok()) return r;
  v->history.assign(hist.entries().begin(), hist.entries().end());

  v1::GetRatingRequest rating_req;
  rating_req.set_player_id(id);
  v1::GetRatingResponse rating;
  r = site.Call(req, s.ratings.get(), &v1::RatingService::Stub::GetRating,
                rating_req, &rating);
  if (r.ok()) {
    v->has_rating = true;
    v->rating = rating.rating();
    v1::GetRatingHistoryRequest rh_req;
    rh_req.set_player_id(id);
    v1::GetRatingHistoryResponse rh;
    r = site.Call(req, s.ratings.get(),
                  &v1::RatingService::Stub::GetRatingHistory, rh_req, &rh);
    if (!r.ok()) return r;
    v->rating_history.assign(rh.changes().begin(), rh.changes().end());
  } else if (r.code != absl::StatusCode::kNotFound) {  // NOT_FOUND: no rating
    return r;
  }

  v1::ListEventsRequest list;
  list.set_player_id(id);
  list.set_newest_first(true);
  list.set_page_size(kPlayerPageEvents);
  v1::ListEventsResponse events;
  r = site.Call(req, s.events.get(), &v1::TournamentService::Stub::ListEvents,
                list, &events);
  if (!r.ok()) return r;
  v->events.assign(events.events().begin(), events.events().end());
  v->places.assign(events.places().begin(), events.places().end());
  v->more_events = !events.next_page_token().empty();
  return Refusal{};
}

}  // namespace

std::string AgencyName(Lang lang, const v1::Agency& agency) {
  if (lang == Lang::kEn && !agency.name_en().empty()) return agency.name_en();
  return agency.name();
}

std::string PlayerTitle(const v1::Player& player) { return player.name(); }

std::string PlayerBody(Lang lang, const PlayerView& v) {
  std::map<int64_t, std::string> names;
  for (const v1::Event& e : v.events) names[e.id()] = e.name();
  std::string out = "<article id=\"player\" data-player=\"" +
                    std::to_string(v.player.id()) +
                    "\"><h2 id=\"player-name\">" + E(v.player.name());
  if (!v.player.latin_name().empty()) {
    out += " <span id=\"latin-name\" lang=\"zh-Latn\">" +
           E(v.player.latin_name()) + "</span>";
  }
  out += "</h2>";
  out += RanksSection(lang, v);
  out += HistorySection(lang, v);
  out += RatingSection(lang, v, names);
  out += EventsSection(lang, v);
  return out + "</article>";
}

std::string PlayerJson(const PlayerView& v) {
  v1::Player player = v.player;
  // Only what the public GetPlayer gives, without the flag's name.
  player.clear_has_resident_id();
  player.clear_resident_id();
  player.clear_birth_date();
  player.clear_external_id();
  std::map<int64_t, const v1::PlayerPlace*> places;
  for (const v1::PlayerPlace& p : v.places) places[p.event_id()] = &p;
  nlohmann::json j = {{"player", ToJson(player)}};
  if (!v.agency.prefix().empty()) j["agency"] = ToJson(v.agency);
  j["rank_history"] = nlohmann::json::array();
  for (const auto& h : v.history) j["rank_history"].push_back(ToJson(h));
  if (v.has_rating) j["rating"] = ToJson(v.rating);
  j["rating_history"] = nlohmann::json::array();
  for (const auto& c : v.rating_history)
    j["rating_history"].push_back(ToJson(c));
  j["events"] = nlohmann::json::array();
  for (const v1::Event& e : v.events) {
    nlohmann::json ej = {{"id", e.id()},
                         {"name", e.name()},
                         {"start", ToJson(e.start())},
                         {"end", ToJson(e.end())},
                         {"organiser_prefix", e.organiser_prefix()},
                         {"closed", e.closed()}};
    const auto it = places.find(e.id());
    if (it != places.end()) ej["place"] = ToJson(*it->second);
    j["events"].push_back(std::move(ej));
  }
  j["more_events"] = v.more_events;
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void InstallPlayerPages(httplib::Server& http, Site& site) {
  auto stubs = std::make_shared<Stubs>();
  stubs->players = v1::PlayerRegistry::NewStub(site.channel());
  stubs->agencies = v1::AgencyService::NewStub(site.channel());
  stubs->ratings = v1::RatingService::NewStub(site.channel());
  stubs->events = v1::TournamentService::NewStub(site.channel());
  http.Get(R"(/players/([^/]*))", [&site, stubs](const Request& req,
                                                 Response& res) {
    PlayerView v;
    if (Refusal r = Load(site, *stubs, req, &v); !r.ok())
      return site.Refuse(req, res, r);
    site.Html(req, res, 200, PlayerTitle(v.player), PlayerBody(LangOf(req), v));
  });
  http.Get(R"(/api/v1/players/([^/]*))",
           [&site, stubs](const Request& req, Response& res) {
             PlayerView v;
             if (Refusal r = Load(site, *stubs, req, &v); !r.ok())
               return site.Refuse(req, res, r);
             site.JsonText(res, PlayerJson(v));
           });
}

}  // namespace gorank::web
