#include "services/web/rating_graph.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace gorank::web {
namespace {

// The drawing, in viewBox units: small enough that 12-unit text stays
// readable when a 360 px phone shows the graph about 330 px wide.
constexpr double kWidth = 400;
constexpr double kHeight = 240;
constexpr double kLeft = 46;
constexpr double kRight = 58;
constexpr double kTop = 10;
constexpr double kBottom = 34;
constexpr double kBand = 100;       // GoR points a grade
constexpr double kDanStart = 2050;  // the 1k/1d boundary
constexpr int kMaxLabels = 10;      // band labels at most

std::string Num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

std::string Gor(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f", v);
  return buf;
}

// Inverse of DaysFromCivil (H. Hinnant's algorithm).
std::string CivilFromDays(long long z) {
  z += 719468;
  const long long era = (z >= 0 ? z : z - 146096) / 146097;
  const long long doe = z - era * 146097;
  const long long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const long long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const long long mp = (5 * doy + 2) / 153;
  const long long d = doy - (153 * mp + 2) / 5 + 1;
  const long long m = mp < 10 ? mp + 3 : mp - 9;
  const long long y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%04lld-%02lld-%02lld", y, m, d);
  return buf;
}

long long DaysOf(const v1::Date& d) {
  return DaysFromCivil(d.year(), d.month(), d.day());
}

std::string BandLabel(Lang lang, double lower_edge) {
  const GradeBand g = GradeOfRating(lower_edge);
  return RankLabel(lang, g.ladder, g.level, "");
}

}  // namespace

GradeBand GradeOfRating(double gor) {
  if (gor >= kDanStart) {
    const int dan = static_cast<int>(std::floor((gor - kDanStart) / kBand)) + 1;
    return GradeBand{2, std::min(dan, 7)};
  }
  const int kyu = static_cast<int>(std::ceil((kDanStart - gor) / kBand));
  return GradeBand{1, std::clamp(kyu, 1, 30)};
}

long long DaysFromCivil(int year, int month, int day) {
  const long long y = month <= 2 ? year - 1 : year;
  const long long era = (y >= 0 ? y : y - 399) / 400;
  const long long yoe = y - era * 400;
  const long long mp = month > 2 ? month - 3 : month + 9;
  const long long doy = (153 * mp + 2) / 5 + day - 1;
  const long long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

std::string RatingGraphSvg(Lang lang,
                           const std::vector<v1::RatingChange>& changes) {
  if (changes.empty()) return "";
  const bool zh = lang == Lang::kZh;
  double lo = changes.front().gor_after();
  double hi = lo;
  long long d0 = DaysOf(changes.front().event_date());
  long long d1 = d0;
  for (const v1::RatingChange& c : changes) {
    lo = std::min(lo, c.gor_after());
    hi = std::max(hi, c.gor_after());
    d0 = std::min(d0, DaysOf(c.event_date()));
    d1 = std::max(d1, DaysOf(c.event_date()));
  }
  // Whole bands from the one holding the lowest point to the one holding
  // the highest.
  const double band_lo =
      kDanStart + std::floor((lo - kDanStart) / kBand) * kBand;
  const double band_hi =
      kDanStart + (std::floor((hi - kDanStart) / kBand) + 1) * kBand;
  const int bands = static_cast<int>(std::lround((band_hi - band_lo) / kBand));
  const int label_every = (bands + kMaxLabels - 1) / kMaxLabels;
  const double pw = kWidth - kLeft - kRight;
  const double ph = kHeight - kTop - kBottom;
  const auto y_of = [&](double g) {
    return kTop + ph * (band_hi - g) / (band_hi - band_lo);
  };
  const auto x_of = [&](long long d) {
    if (d1 == d0) return kLeft + pw / 2;
    return kLeft +
           pw * static_cast<double>(d - d0) / static_cast<double>(d1 - d0);
  };

  const std::string title = zh ? "等级分（GoR）变化" : "GoR rating over time";
  const v1::RatingChange& first = changes.front();
  const v1::RatingChange& last = changes.back();
  const std::string summary =
      zh ? title + "：" + CivilFromDays(DaysOf(first.event_date())) + " " +
               Gor(first.gor_after()) + "，" +
               CivilFromDays(DaysOf(last.event_date())) + " " +
               Gor(last.gor_after()) + "（共" + std::to_string(changes.size()) +
               "次比赛）"
         : title + ": " + Gor(first.gor_after()) + " on " +
               CivilFromDays(DaysOf(first.event_date())) + ", " +
               Gor(last.gor_after()) + " on " +
               CivilFromDays(DaysOf(last.event_date())) + " (" +
               std::to_string(changes.size()) + " events)";
  std::string svg =
      "<svg id=\"rating-graph\" xmlns=\"http://www.w3.org/2000/svg\" "
      "viewBox=\"0 0 " +
      Num(kWidth) + " " + Num(kHeight) +
      "\" width=\"100%\" style=\"max-width:40em;height:auto\" role=\"img\" "
      "aria-labelledby=\"rating-graph-title\" aria-label=\"" +
      HtmlEscape(summary) +
      "\" font-size=\"12\" "
      "font-family=\"sans-serif\"><title id=\"rating-graph-title\">" +
      HtmlEscape(summary) + "</title>";

  // The grade bands, shaded in turn and labelled on the right.
  for (int i = 0; i < bands; ++i) {
    const double edge = band_lo + i * kBand;
    const double top = y_of(edge + kBand);
    svg += "<rect class=\"band\" x=\"" + Num(kLeft) + "\" y=\"" + Num(top) +
           "\" width=\"" + Num(pw) + "\" height=\"" + Num(y_of(edge) - top) +
           "\" fill=\"" + (i % 2 == 0 ? "#e3ebf6" : "#f5f7fb") + "\"/>";
    if (i % label_every == 0) {
      svg += "<text class=\"band-label\" x=\"" + Num(kLeft + pw + 4) +
             "\" y=\"" + Num((top + y_of(edge)) / 2 + 4) + "\" fill=\"#222\">" +
             HtmlEscape(BandLabel(lang, edge)) + "</text>";
    }
  }
  // The y axis: band edges.
  for (int i = 0; i <= bands; i += label_every) {
    const double edge = band_lo + i * kBand;
    svg += "<text class=\"y-tick\" x=\"" + Num(kLeft - 4) + "\" y=\"" +
           Num(y_of(edge) + 4) + "\" text-anchor=\"end\" fill=\"#222\">" +
           Gor(edge) + "</text>";
  }
  svg += "<line x1=\"" + Num(kLeft) + "\" y1=\"" + Num(kTop) + "\" x2=\"" +
         Num(kLeft) + "\" y2=\"" + Num(kTop + ph) +
         "\" stroke=\"#444\"/><line x1=\"" + Num(kLeft) + "\" y1=\"" +
         Num(kTop + ph) + "\" x2=\"" + Num(kLeft + pw) + "\" y2=\"" +
         Num(kTop + ph) + "\" stroke=\"#444\"/>";
  // The x axis: the first and last dates and two between.
  const int ticks = d1 == d0 ? 1 : 3;
  for (int i = 0; i < ticks; ++i) {
    const long long d = d1 == d0 ? d0 : d0 + (d1 - d0) * i / (ticks - 1);
    const char* anchor = ticks == 1       ? "middle"
                         : i == 0         ? "start"
                         : i == ticks - 1 ? "end"
                                          : "middle";
    svg += "<line x1=\"" + Num(x_of(d)) + "\" y1=\"" + Num(kTop + ph) +
           "\" x2=\"" + Num(x_of(d)) + "\" y2=\"" + Num(kTop + ph + 4) +
           "\" stroke=\"#444\"/><text class=\"x-tick\" x=\"" + Num(x_of(d)) +
           "\" y=\"" + Num(kTop + ph + 17) + "\" text-anchor=\"" + anchor +
           "\" fill=\"#222\">" + CivilFromDays(d) + "</text>";
  }
  svg += "<text x=\"" + Num(kLeft + pw / 2) + "\" y=\"" + Num(kHeight - 2) +
         "\" text-anchor=\"middle\" fill=\"#222\">" + (zh ? "日期" : "Date") +
         "</text>";
  // The line and its points.
  std::string points;
  for (const v1::RatingChange& c : changes) {
    points += (points.empty() ? "" : " ") + Num(x_of(DaysOf(c.event_date()))) +
              "," + Num(y_of(c.gor_after()));
  }
  svg +=
      "<polyline class=\"rating-line\" fill=\"none\" stroke=\"#1f4e9a\" "
      "stroke-width=\"2\" points=\"" +
      points + "\"/>";
  for (const v1::RatingChange& c : changes) {
    const std::string day = CivilFromDays(DaysOf(c.event_date()));
    svg += "<circle class=\"point\" data-gor=\"" + Num(c.gor_after()) +
           "\" cx=\"" + Num(x_of(DaysOf(c.event_date()))) + "\" cy=\"" +
           Num(y_of(c.gor_after())) + "\" r=\"3\" fill=\"#1f4e9a\"><title>" +
           day + ": " + Gor(c.gor_after()) + "</title></circle>";
  }
  return svg + "</svg>";
}

}  // namespace gorank::web
