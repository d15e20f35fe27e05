#include "services/ratings/rating_lists.h"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <utility>

#include "services/common/status_macros.h"

namespace gorank::ratings {
namespace {

int DaysInMonth(int year, int month) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30,
                                  31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : kDays[month - 1];
}

bool IsAgencyPrefix(const std::string& s) {
  return s.size() == 3 && std::all_of(s.begin(), s.end(), [](char c) {
           return c >= '0' && c <= '9';
         });
}

absl::Status CheckFilter(const RatingListFilter& f) {
  if (!f.agency_prefix.empty() && !IsAgencyPrefix(f.agency_prefix)) {
    return absl::InvalidArgumentError(
        "agency_prefix must be an agency's 3-digit prefix (e.g. 110), got '" +
        f.agency_prefix + "'");
  }
  if (f.active_months < 0 || f.active_months > kMaxActiveMonths) {
    return absl::InvalidArgumentError(
        "active_months must be 0 (every player) to " +
        std::to_string(kMaxActiveMonths) + ", got " +
        std::to_string(f.active_months));
  }
  for (const auto& [rank, field] : {std::pair{&f.min_rank, "min_rank"},
                                    std::pair{&f.max_rank, "max_rank"}}) {
    if (rank->has_value() && (*rank)->IsGomoku()) {
      return absl::InvalidArgumentError(
          std::string(field) +
          ": the rating lists are Go ratings; Gomoku has no rating system, "
          "give a Go rank (e.g. 5k, 3d)");
    }
  }
  if (f.min_rank && f.max_rank && *f.min_rank > *f.max_rank) {
    return absl::InvalidArgumentError("min_rank " + f.min_rank->ToString() +
                                      " is above max_rank " +
                                      f.max_rank->ToString());
  }
  return absl::OkStatus();
}

PageQuery QueryOf(const RatingListFilter& f) {
  PageQuery q("ListRatings");
  q.With("pro_list", f.pro_list ? 1 : 0);
  // Only set filters are named, so the whole list keeps its fingerprint.
  if (!f.month.empty()) q.With("month", f.month);
  if (!f.agency_prefix.empty()) q.With("agency", f.agency_prefix);
  if (f.min_rank) q.With("min_rank", f.min_rank->Ordinal());
  if (f.max_rank) q.With("max_rank", f.max_rank->Ordinal());
  if (f.active_months > 0) q.With("active_months", f.active_months);
  return q;
}

}  // namespace

std::string MonthOf(const Date& d) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04d-%02d", d.year, d.month);
  return buf;
}

absl::StatusOr<Date> ParseMonth(const std::string& text,
                                const std::string& field) {
  const auto bad = [&] {
    return absl::InvalidArgumentError(
        field + " must be a month as YYYY-MM (e.g. 2027-03), got '" + text +
        "'");
  };
  if (text.size() != 7 || text[4] != '-') return bad();
  for (size_t i : {0, 1, 2, 3, 5, 6}) {
    if (text[i] < '0' || text[i] > '9') return bad();
  }
  const Date d{std::stoi(text.substr(0, 4)), std::stoi(text.substr(5, 2)), 1};
  if (!d.IsValid()) return bad();
  return d;
}

std::string NextMonth(const std::string& month) {
  const Date d = *ParseMonth(month, "month");
  return MonthOf(d.month == 12 ? Date{d.year + 1, 1, 1}
                               : Date{d.year, d.month + 1, 1});
}

Date LastDayOfMonth(const Date& d) {
  return Date{d.year, d.month, DaysInMonth(d.year, d.month)};
}

Date MonthsBefore(const Date& d, int n) {
  int months = d.year * 12 + (d.month - 1) - n;
  const int year = months / 12;
  const int month = months % 12 + 1;
  return Date{year, month, std::min(d.day, DaysInMonth(year, month))};
}

absl::Status RatingLists::KeepEndedMonths() {
  const std::string current = MonthOf(clock_->Today());
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (settled_month_ == current) return absl::OkStatus();
  }
  GORANK_ASSIGN_OR_RETURN(std::optional<std::string> first,
                          repo_->FirstWatchedMonth());
  std::vector<std::string> due;
  if (first) {
    GORANK_ASSIGN_OR_RETURN(std::vector<KeptMonth> kept, repo_->KeptMonths());
    for (std::string m = *first; m < current; m = NextMonth(m)) {
      const bool is_kept =
          std::any_of(kept.begin(), kept.end(),
                      [&](const KeptMonth& k) { return k.month == m; });
      if (!is_kept) due.push_back(m);
    }
  }
  if (!first || !due.empty()) {
    const int64_t now = clock_->NowSeconds();
    GORANK_RETURN_IF_ERROR(
        repo_
            ->KeepMonths(due, current, now,
                         ChangeRecord{now, "system", "ratings.keep_month",
                                      "rating_snapshots", "", "{}"})
            .status());
  }
  std::lock_guard<std::mutex> lock(mu_);
  settled_month_ = current;
  return absl::OkStatus();
}

absl::StatusOr<RatingListPage> RatingLists::List(const RatingListFilter& filter,
                                                 const PageArgs& page) {
  GORANK_RETURN_IF_ERROR(CheckFilter(filter));
  const PageQuery query = QueryOf(filter);
  // The key: the rating's bits (exact), the player, the row's place.
  GORANK_ASSIGN_OR_RETURN(PageRequest request,
                          ReadPage(kRatingPage, query, "iii", page));
  Date reference = clock_->Today();
  if (!filter.month.empty()) {
    GORANK_ASSIGN_OR_RETURN(Date first_day, ParseMonth(filter.month, "month"));
    if (filter.month >= MonthOf(reference)) {
      return absl::NotFoundError("the rating list of " + filter.month +
                                 " is kept once the month has ended (after " +
                                 LastDayOfMonth(first_day).ToString() +
                                 ", Asia/Shanghai)");
    }
    GORANK_RETURN_IF_ERROR(KeepEndedMonths());
    GORANK_ASSIGN_OR_RETURN(std::vector<KeptMonth> kept, repo_->KeptMonths());
    if (std::none_of(kept.begin(), kept.end(), [&](const KeptMonth& k) {
          return k.month == filter.month;
        })) {
      return absl::NotFoundError(
          "no rating list is kept for " + filter.month +
          (kept.empty() ? std::string("; none is kept yet")
                        : "; the months kept are " + kept.back().month +
                              " to " + kept.front().month));
    }
    reference = LastDayOfMonth(first_day);
  }

  RatingListQuery q;
  q.pro_list = filter.pro_list;
  q.month = filter.month;
  q.agency_prefix = filter.agency_prefix;
  if (filter.min_rank) q.min_rank_ordinal = filter.min_rank->Ordinal();
  if (filter.max_rank) q.max_rank_ordinal = filter.max_rank->Ordinal();
  if (filter.active_months > 0) {
    q.active_since = MonthsBefore(reference, filter.active_months);
  }
  RatingListPage out;
  if (request.after) {
    q.after = RatingListPosition{std::bit_cast<double>(request.after->Int(0)),
                                 PlayerId{request.after->Int(1)}};
    out.first_position = request.after->Int(2) + 1;
  }
  q.limit = request.FetchLimit();
  GORANK_ASSIGN_OR_RETURN(out.rows, repo_->ListRatingRows(q));
  if (out.rows.size() > static_cast<size_t>(request.size)) {
    out.rows.resize(static_cast<size_t>(request.size));
    const PlayerRating& last = out.rows.back().rating;
    const double rating = filter.pro_list ? last.pro_elo.value_or(0) : last.gor;
    out.next_page_token = EncodePageToken(
        query, PageKey()
                   .Add(std::bit_cast<int64_t>(rating))
                   .Add(last.player.value)
                   .Add(out.first_position +
                        static_cast<int64_t>(out.rows.size()) - 1));
  }
  return out;
}

absl::StatusOr<std::vector<KeptMonth>> RatingLists::Months() {
  GORANK_RETURN_IF_ERROR(KeepEndedMonths());
  return repo_->KeptMonths();
}

}  // namespace gorank::ratings
