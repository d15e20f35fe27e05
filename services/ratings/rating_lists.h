// RatingLists: the public rating lists (ListRatings, ListRatingSnapshots):
// the GoR list and the pro list, current or as kept at the end of a month,
// narrowed by agency, registered Go rank and recent activity, keyset-paged
// with each row's place in the (filtered) list.
//
// Monthly lists: the list of a month is the rating table as it stood when
// the month ended (Asia/Shanghai), kept once and never changed. rankd keeps
// a month lazily but exactly: KeepEndedMonths runs before every write of the
// rating table (RatingLedger::SetBeforeWrite), at start and before every
// monthly read, so no rating can change between a month's end and the
// keeping of its list (up to the instant between the check and the write
// that follows it). Months before the first one rankd watched (the month of
// its first start with this schema) are not kept: their table cannot be
// known exactly.
//
// Ratings are Go ratings: Gomoku has no rating system, so the lists have no
// Gomoku variant (the handler refuses discipline GOMOKU).
#ifndef GORANK_SERVICES_RATINGS_RATING_LISTS_H_
#define GORANK_SERVICES_RATINGS_RATING_LISTS_H_

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "services/common/clock.h"
#include "services/common/date.h"
#include "services/common/paging.h"
#include "services/ratings/rating_repository.h"
#include "services/registry/rank.h"

namespace gorank::ratings {

// "YYYY-MM" of `d`.
std::string MonthOf(const Date& d);
// The first day of a "YYYY-MM" month; INVALID_ARGUMENT naming `field` for
// anything else (year 1..9999, month 01..12).
absl::StatusOr<Date> ParseMonth(const std::string& text,
                                const std::string& field);
// The month after `month` ("2025-12" -> "2026-01"). REQUIRES: ParseMonth ok.
std::string NextMonth(const std::string& month);
// The last day of the month of `d`.
Date LastDayOfMonth(const Date& d);
// The day `n` months before `d` (the month's last day when `d`'s day is not
// in that month: 31 Mar - 1 -> 28/29 Feb).
Date MonthsBefore(const Date& d, int n);

struct RatingListFilter {
  bool pro_list = false;
  std::string month;          // "" the current list, else "YYYY-MM"
  std::string agency_prefix;  // "" every agency, else 3 digits
  std::optional<registry::Rank> min_rank;  // Go ranks
  std::optional<registry::Rank> max_rank;
  int active_months = 0;  // 0: every player; 1..kMaxActiveMonths
};
inline constexpr int kMaxActiveMonths = 600;

struct RatingListPage {
  std::vector<RatingListRow> rows;
  std::string next_page_token;  // "" on the last page
  int64_t first_position = 1;   // rows[0]'s place in the filtered list
};

// Thread-safe. Does not own its collaborators.
class RatingLists {
 public:
  RatingLists(RatingRepository* repo, const Clock* clock)
      : repo_(repo), clock_(clock) {}

  // Keeps the list of every month that has ended since the first watched
  // month and is not kept yet (the first call records the current month as
  // the first watched). Remembers the month it last found nothing due, so
  // later calls in the same month read nothing. Errors of the repository.
  absl::Status KeepEndedMonths();

  // One page of `filter`'s list (page sizes kRatingPage). INVALID_ARGUMENT:
  // agency_prefix not 3 digits, active_months outside 0..kMaxActiveMonths,
  // a Gomoku rank, min_rank above max_rank, a malformed month, a bad page
  // (paging.h). NOT_FOUND: a month that has not ended, or one not kept
  // (before the first watched month). Errors of the repository.
  absl::StatusOr<RatingListPage> List(const RatingListFilter& filter,
                                      const PageArgs& page);

  // The kept months, newest first (after KeepEndedMonths).
  absl::StatusOr<std::vector<KeptMonth>> Months();

 private:
  RatingRepository* repo_;
  const Clock* clock_;
  std::mutex mu_;
  std::string settled_month_;  // guarded by mu_
};

}  // namespace gorank::ratings

#endif  // GORANK_SERVICES_RATINGS_RATING_LISTS_H_
