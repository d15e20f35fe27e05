#include "services/web/events_page.h"

#include <charconv>
#include <memory>
#include <string>

#include "google/protobuf/util/json_util.h"
#include "gorank/v1/registry.grpc.pb.h"
#include "gorank/v1/tournaments.grpc.pb.h"
#include "nlohmann/json.hpp"
#include "services/web/event_view.h"

namespace gorank::web {
namespace {

using httplib::Request;
using httplib::Response;
using Events = v1::TournamentService::Stub;

constexpr int kDefaultPageSize = 50;
constexpr int kMaxPageSize = 200;

Refusal Bad(const std::string& message) {
  return Refusal{absl::StatusCode::kInvalidArgument, message, 0, 0,
                 /*localized=*/true};
}

bool En(const Request& req) { return LangOf(req) == Lang::kEn; }

bool AllDigits(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

// A positive event id, or 400.
Refusal ParseId(const Request& req, const std::string& text, int64_t* id) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *id);
  if (AllDigits(text) && ec == std::errc() &&
      end == text.data() + text.size() && *id > 0) {
    return Refusal{};
  }
  return Bad(En(req) ? "an event id is a positive number, got '" + text + "'"
                     : "赛事编号应为正整数，收到的是“" + text + "”");
}

// "YYYY-MM-DD" into *d, or 400 naming the field.
Refusal ParseDate(const Request& req, const std::string& field,
                  const std::string& text, v1::Date* d) {
  int y = 0, m = 0, day = 0;
  const bool shape = text.size() == 10 && text[4] == '-' && text[7] == '-' &&
                     AllDigits(text.substr(0, 4)) &&
                     AllDigits(text.substr(5, 2)) &&
                     AllDigits(text.substr(8, 2));
  if (shape) {
    y = std::stoi(text.substr(0, 4));
    m = std::stoi(text.substr(5, 2));
    day = std::stoi(text.substr(8, 2));
  }
  if (!shape || m < 1 || m > 12 || day < 1 || day > 31) {
    return Bad(En(req)
                   ? field + " must be a date YYYY-MM-DD, got '" + text + "'"
                   : field + " 应为 YYYY-MM-DD 格式的日期，收到的是“" + text +
                         "”");
  }
  d->set_year(y);
  d->set_month(m);
  d->set_day(day);
  return Refusal{};
}

// The list's filters from the query, into the request and *q.
Refusal ListRequest(const Request& req, v1::ListEventsRequest* list,
                    EventListQuery* q) {
  q->agency = req.get_param_value("agency");
  q->year = req.get_param_value("year");
  q->from = req.get_param_value("from");
  q->to = req.get_param_value("to");
  if (!q->agency.empty() && (q->agency.size() != 3 || !AllDigits(q->agency))) {
    return Bad(En(req) ? "agency must be an organiser's three-digit prefix "
                         "(\"000\" national), got '" +
                             q->agency + "'"
                       : "agency 应为主办单位的三位数字代码（全国为 "
                         "000），收到的是“" +
                             q->agency + "”");
  }
  list->set_organiser_prefix(q->agency);
  if (!q->year.empty()) {
    if (q->year.size() != 4 || !AllDigits(q->year)) {
      return Bad(En(req) ? "year must be four digits, got '" + q->year + "'"
                         : "year 应为四位数字年份，收到的是“" + q->year + "”");
    }
    if (!q->from.empty() || !q->to.empty()) {
      return Bad(En(req) ? "give either year or from/to, not both"
                         : "year 与 from/to 只能选其一");
    }
    if (Refusal r = ParseDate(req, "year", q->year + "-01-01",
                              list->mutable_starts_on_or_after());
        !r.ok())
      return r;
    if (Refusal r = ParseDate(req, "year", q->year + "-12-31",
                              list->mutable_starts_on_or_before());
        !r.ok())
      return r;
  }
  if (!q->from.empty()) {
    if (Refusal r =
            ParseDate(req, "from", q->from, list->mutable_starts_on_or_after());
        !r.ok())
      return r;
  }
  if (!q->to.empty()) {
    if (Refusal r =
            ParseDate(req, "to", q->to, list->mutable_starts_on_or_before());
        !r.ok())
      return r;
  }
  const std::string size = req.get_param_value("page_size");
  int n = kDefaultPageSize;
  if (!size.empty()) {
    auto [end, ec] = std::from_chars(size.data(), size.data() + size.size(), n);
    if (ec != std::errc() || end != size.data() + size.size() || n < 1 ||
        n > kMaxPageSize) {
      return Bad(En(req)
                     ? "page_size must be 1.." + std::to_string(kMaxPageSize) +
                           ", got '" + size + "'"
                     : "page_size 应为 1 到 " + std::to_string(kMaxPageSize) +
                           " 之间的整数，收到的是“" + size + "”");
    }
    q->page_size = n;
  }
  list->set_page_size(n);
  list->set_page_token(req.get_param_value("page"));
  list->set_newest_first(true);
  return Refusal{};
}

// The module: the stubs and the handlers.
class EventPages {
 public:
  explicit EventPages(Site& site)
      : site_(site),
        events_(v1::TournamentService::NewStub(site.channel())),
        agencies_(v1::AgencyService::NewStub(site.channel())) {}

  void List(const Request& req, Response& res, bool api) {
    v1::ListEventsRequest list;
    EventListQuery q;
    v1::ListEventsResponse page;
    Refusal r = ListRequest(req, &list, &q);
    if (r.ok())
      r = site_.Call(req, events_.get(), &Events::ListEvents, list, &page);
    if (!r.ok()) return site_.Refuse(req, res, r);
    if (api) return site_.Json(res, page);
    const Lang lang = LangOf(req);
    site_.Html(req, res, 200, EventListTitle(lang),
               EventListBody(lang, q, page, Directory(req)));
  }

  // /events/{id}, /events/{id}.egf, /events/{id}.csv (`api`: the JSON).
  void Event(const Request& req, Response& res, bool api) {
    std::string text = req.matches[1];
    v1::ResultFileFormat file = v1::RESULT_FILE_FORMAT_UNSPECIFIED;
    for (const auto& [suffix, format] :
         {std::pair{".egf", v1::RESULT_FILE_FORMAT_EGF},
          std::pair{".csv", v1::RESULT_FILE_FORMAT_CSV}}) {
      const std::string s = suffix;
      if (!api && text.size() > s.size() &&
          text.compare(text.size() - s.size(), s.size(), s) == 0) {
        text.resize(text.size() - s.size());
        file = format;
      }
    }
    int64_t id = 0;
    if (Refusal r = ParseId(req, text, &id); !r.ok())
      return site_.Refuse(req, res, r);
    if (file != v1::RESULT_FILE_FORMAT_UNSPECIFIED)
      return Download(req, res, id, file);
    v1::GetEventRequest get;
    get.set_event_id(id);
    v1::GetEventResponse event;
    if (Refusal r = Known(
            req, id,
            site_.Call(req, events_.get(), &Events::GetEvent, get, &event));
        !r.ok())
      return site_.Refuse(req, res, r);
    v1::GetResultsRequest rreq;
    rreq.set_event_id(id);
    v1::GetResultsResponse results;
    if (Refusal r = Known(req, id,
                          site_.Call(req, events_.get(), &Events::GetResults,
                                     rreq, &results));
        !r.ok())
      return site_.Refuse(req, res, r);
    v1::GetStandingsRequest sreq;
    sreq.set_event_id(id);
    v1::GetStandingsResponse standings;
    // Results the standings cannot be computed from (a broken team
    // structure) still show the event and its games.
    if (Refusal r = site_.Call(req, events_.get(), &Events::GetStandings, sreq,
                               &standings);
        !r.ok() && (r.code == absl::StatusCode::kResourceExhausted ||
                    r.code == absl::StatusCode::kUnavailable ||
                    r.code == absl::StatusCode::kDeadlineExceeded ||
                    r.code == absl::StatusCode::kNotFound)) {
      return site_.Refuse(req, res, Known(req, id, r));
    }
    if (api) {
      return site_.JsonText(
          res,
          nlohmann::json{{"event", ToJson(event.event())},
                         {"results", ToJson(results.results())},
                         {"standings", ToJson(standings.standings())}}
              .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    }
    const Lang lang = LangOf(req);
    site_.Html(req, res, 200, event.event().name(),
               EventBody(lang, event.event(), results.results(),
                         standings.standings(), Directory(req)));
  }

 private:
  // NOT_FOUND in the page's language.
  static Refusal Known(const Request& req, int64_t id, Refusal r) {
    if (r.code == absl::StatusCode::kNotFound) {
      r.message = En(req) ? "no event with id " + std::to_string(id)
                          : "没有编号为 " + std::to_string(id) + " 的赛事";
      r.localized = true;
    }
    return r;
  }

  void Download(const Request& req, Response& res, int64_t id,
                v1::ResultFileFormat format) {
    v1::ExportResultsRequest ex;
    ex.set_event_id(id);
    ex.set_format(format);
    v1::ExportResultsResponse file;
    Refusal r = Known(
        req, id,
        site_.Call(req, events_.get(), &Events::ExportResults, ex, &file));
    if (r.code == absl::StatusCode::kFailedPrecondition &&
        format == v1::RESULT_FILE_FORMAT_EGF) {
      r.message = En(req)
                      ? "event " + std::to_string(id) +
                            " is a team event: EGF files list players "
                            "(download the CSV file)"
                      : "赛事 " + std::to_string(id) +
                            " 是团体赛，EGF 文件只列棋手（请下载 CSV 文件）";
      r.localized = true;
    }
    if (!r.ok()) return site_.Refuse(req, res, r);
    const bool egf = format == v1::RESULT_FILE_FORMAT_EGF;
    res.status = 200;
    res.set_header("Content-Disposition", "attachment; filename=\"event-" +
                                              std::to_string(id) +
                                              (egf ? ".egf" : ".csv") + "\"");
    // Both writers write UTF-8 (result_file.h).
    res.set_content(file.content(), egf ? "text/plain; charset=utf-8"
                                        : "text/csv; charset=utf-8");
  }

  // Agency and competition names; the codes stand in when they fail.
  EventDirectory Directory(const Request& req) const {
    EventDirectory d;
    (void)site_.Call(req, agencies_.get(),
                     &v1::AgencyService::Stub::ListAgencies,
                     v1::ListAgenciesRequest(), &d.agencies);
    (void)site_.Call(req, events_.get(), &Events::ListCompetitions,
                     v1::ListCompetitionsRequest(), &d.competitions);
    return d;
  }

  static nlohmann::json ToJson(const google::protobuf::Message& m) {
    google::protobuf::util::JsonPrintOptions opts;
    opts.preserve_proto_field_names = true;
    std::string out;
    (void)google::protobuf::util::MessageToJsonString(m, &out, opts);
    return nlohmann::json::parse(out, nullptr, false);
  }

  Site& site_;
  std::unique_ptr<v1::TournamentService::Stub> events_;
  std::unique_ptr<v1::AgencyService::Stub> agencies_;
};

}  // namespace

void InstallEventPages(httplib::Server& http, Site& site) {
  auto pages = std::make_shared<EventPages>(site);
  http.Get("/events", [pages](const Request& req, Response& res) {
    pages->List(req, res, false);
  });
  http.Get("/api/v1/events", [pages](const Request& req, Response& res) {
    pages->List(req, res, true);
  });
  http.Get(R"(/events/([^/]*))", [pages](const Request& req, Response& res) {
    pages->Event(req, res, false);
  });
  http.Get(R"(/api/v1/events/([^/]*))",
           [pages](const Request& req, Response& res) {
             pages->Event(req, res, true);
           });
}

}  // namespace gorank::web
