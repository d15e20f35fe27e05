// RatingLists (services/ratings/rating_lists.h) over an in-memory fake of
// the monthly part of RatingRepository, with a FakeClock:
//   - the month helpers (MonthOf, ParseMonth, NextMonth, LastDayOfMonth,
//     MonthsBefore), table-driven;
//   - a month ends at midnight Asia/Shanghai (16:00 UTC the day before): its
//     list is kept at the first KeepEndedMonths from then on, not a second
//     earlier;
//   - every ended month since the first watched one is kept once and never
//     asked for again (nor by a second RatingLists on the same store), and
//     the first call of all only records the first watched month;
//   - List: filter checks, the months it refuses, the reference day of
//     active_months (today, or a kept month's last day), places and tokens.
#include "services/ratings/rating_lists.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "services/common/clock.h"

namespace gorank::ratings {
namespace {

using absl::StatusCode;
using registry::Rank;

// The monthly lists in memory, as the SQL repository keeps them: KeepMonths
// copies the current table for each month not kept yet. Counts the calls.
class FakeListRepository : public RatingRepository {
 public:
  std::vector<RatingListRow> table;  // the current table, any order
  std::map<std::string, std::vector<RatingListRow>> kept;
  std::map<std::string, int64_t> taken;
  std::optional<std::string> first;
  std::vector<std::vector<std::string>> keep_calls;  // months asked for
  mutable int reads = 0;  // FirstWatchedMonth and KeptMonths calls
  absl::Status keep_error;
  mutable std::optional<RatingListQuery> last_query;

  absl::StatusOr<std::vector<RatingListRow>> ListRatingRows(
      const RatingListQuery& q) const override {
    last_query = q;
    std::vector<RatingListRow> rows;
    if (q.month.empty()) {
      rows = table;
    } else if (auto it = kept.find(q.month); it != kept.end()) {
      rows = it->second;
    }
    const auto rating = [&](const RatingListRow& r) {
      return q.pro_list ? r.rating.pro_elo.value_or(0) : r.rating.gor;
    };
    std::erase_if(rows, [&](const RatingListRow& r) {
      if (q.pro_list && !r.rating.pro_elo) return true;
      if (!q.agency_prefix.empty() && r.agency_prefix != q.agency_prefix)
        return true;
      if (q.min_rank_ordinal &&
          (!r.rank_ordinal || *r.rank_ordinal < *q.min_rank_ordinal))
        return true;
      if (q.max_rank_ordinal &&
          (!r.rank_ordinal || *r.rank_ordinal > *q.max_rank_ordinal))
        return true;
      if (q.active_since && (!r.last_rated || *r.last_rated < *q.active_since))
        return true;
      if (q.after) {
        const double v = rating(r);
        if (v > q.after->rating) return true;
        if (v == q.after->rating &&
            r.rating.player.value <= q.after->player.value)
          return true;
      }
      return false;
    });
    std::sort(rows.begin(), rows.end(), [&](const auto& a, const auto& b) {
      return rating(a) != rating(b)
                 ? rating(a) > rating(b)
                 : a.rating.player.value < b.rating.player.value;
    });
    if (rows.size() > static_cast<size_t>(q.limit)) {
      rows.resize(static_cast<size_t>(q.limit));
    }
    return rows;
  }
  absl::StatusOr<std::vector<KeptMonth>> KeptMonths() const override {
    ++reads;
    std::vector<KeptMonth> out;
    for (const auto& [month, rows] : kept) {
      int64_t pro = 0;
      for (const RatingListRow& r : rows) pro += r.rating.pro_elo ? 1 : 0;
      out.push_back(KeptMonth{month, static_cast<int64_t>(rows.size()), pro,
                              taken.at(month)});
    }
    std::reverse(out.begin(), out.end());  // newest first
    return out;
  }
  absl::StatusOr<std::optional<std::string>> FirstWatchedMonth()
      const override {
    ++reads;
    return first;
  }
  absl::StatusOr<std::vector<std::string>> KeepMonths(
      const std::vector<std::string>& months, const std::string& first_month,
      int64_t now_unix, const ChangeRecord& audit) override {
    (void)audit;
    keep_calls.push_back(months);
    if (!keep_error.ok()) return keep_error;
    if (!first) first = first_month;
    std::vector<std::string> out;
    for (const std::string& m : months) {
      if (kept.count(m)) continue;
      kept[m] = table;
      taken[m] = now_unix;
      out.push_back(m);
    }
    return out;
  }

  // Not used by RatingLists.
  absl::Status ReplaceAll(const RatingSnapshot&, const ChangeRecord&) override {
    return absl::UnimplementedError("fake");
  }
  absl::Status AppendEvent(const RatingDelta&, const ChangeRecord&) override {
    return absl::UnimplementedError("fake");
  }
  absl::StatusOr<RatingState> State() const override { return RatingState{}; }
  absl::StatusOr<PlayerRating> GetRating(PlayerId) const override {
    return absl::UnimplementedError("fake");
  }
  absl::StatusOr<std::vector<RatingChange>> History(PlayerId) const override {
    return absl::UnimplementedError("fake");
  }
  absl::StatusOr<std::vector<PlayerRating>> ListRatings(bool, int64_t,
                                                        int) const override {
    return absl::UnimplementedError("fake");
  }
  absl::StatusOr<std::vector<PlayerRating>> ListRatingsAfter(
      bool, const std::optional<RatingListPosition>&, int) const override {
    return absl::UnimplementedError("fake");
  }
  absl::StatusOr<std::vector<PlayerId>> RatedPlayers() const override {
    return absl::UnimplementedError("fake");
  }
  absl::StatusOr<StoredProposal> AddProposal(const StoredProposal&,
                                             const ChangeRecord&) override {
    return absl::UnimplementedError("fake");
  }
  absl::StatusOr<StoredProposal> GetProposal(int64_t) const override {
    return absl::UnimplementedError("fake");
  }
  absl::StatusOr<std::vector<StoredProposal>> ListProposals(
      const ProposalFilter&) const override {
    return absl::UnimplementedError("fake");
  }
  absl::Status DecideProposal(const StoredProposal&,
                              const ChangeRecord&) override {
    return absl::UnimplementedError("fake");
  }
};

RatingListRow Row(int64_t id, double gor, const std::string& agency = "110",
                  std::optional<Date> last = std::nullopt) {
  RatingListRow r;
  r.rating.player = PlayerId{id};
  r.rating.gor = gor;
  r.agency_prefix = agency;
  r.rank_ordinal = Rank::FromString("1d").Ordinal();
  r.last_rated = last;
  return r;
}

// 00:00 Asia/Shanghai on the first of `month` of `year`.
int64_t MonthStart(int year, int month) {
  return ShanghaiMidnight(Date{year, month, 1});
}

TEST(MonthHelpers, FormatParseAndStep) {
  EXPECT_EQ(MonthOf(Date{2025, 3, 31}), "2025-03");
  EXPECT_EQ(MonthOf(Date{987, 12, 1}), "0987-12");
  EXPECT_EQ(*ParseMonth("2027-03", "month"), (Date{2027, 3, 1}));
  EXPECT_EQ(*ParseMonth("0001-01", "month"), (Date{1, 1, 1}));
  for (const char* bad :
       {"", "2025", "2025-1", "2025-001", "2025-00", "2025-13", "2025/03",
        "20a5-03", "0000-01", "2025-03-01", " 2025-03", "+025-03"}) {
    const absl::Status s = ParseMonth(bad, "month").status();
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << bad;
    EXPECT_NE(s.message().find("month must be a month as YYYY-MM"),
              std::string::npos)
        << s;
  }
  EXPECT_NE(ParseMonth("x", "from").status().message().find("from must"),
            std::string::npos);
  EXPECT_EQ(NextMonth("2025-01"), "2025-02");
  EXPECT_EQ(NextMonth("2025-12"), "2026-01");
  EXPECT_EQ(NextMonth("0999-12"), "1000-01");
}

TEST(MonthHelpers, LastDaysAndMonthsBefore) {
  struct Case {
    Date d;
    Date last;
  };
  for (const Case& c :
       {Case{{2024, 2, 10}, {2024, 2, 29}}, Case{{2025, 2, 1}, {2025, 2, 28}},
        Case{{2100, 2, 1}, {2100, 2, 28}}, Case{{2000, 2, 1}, {2000, 2, 29}},
        Case{{2025, 4, 30}, {2025, 4, 30}},
        Case{{2025, 12, 5}, {2025, 12, 31}}}) {
    EXPECT_EQ(LastDayOfMonth(c.d), c.last) << c.d.ToString();
  }
  struct Back {
    Date d;
    int n;
    Date want;
  };
  for (const Back& b : {Back{{2025, 3, 31}, 1, {2025, 2, 28}},
                        Back{{2024, 3, 31}, 1, {2024, 2, 29}},
                        Back{{2026, 1, 15}, 1, {2025, 12, 15}},
                        Back{{2026, 1, 15}, 12, {2025, 1, 15}},
                        Back{{2025, 12, 31}, 6, {2025, 6, 30}},
                        Back{{2025, 12, 10}, 0, {2025, 12, 10}},
                        Back{{2025, 12, 10}, 600, {1975, 12, 10}}}) {
    EXPECT_EQ(MonthsBefore(b.d, b.n), b.want) << b.d.ToString() << " - " << b.n;
  }
}

class RatingListsTest : public ::testing::Test {
 protected:
  FakeListRepository repo_;
  FakeClock clock_;
};

// The very first call records the current month as the first watched one
// and keeps nothing: the months before cannot be known exactly.
TEST_F(RatingListsTest, TheFirstCallOnlyRecordsTheFirstWatchedMonth) {
  clock_.SetDate(Date{2025, 11, 15});
  repo_.table = {Row(1, 2000)};
  RatingLists lists(&repo_, &clock_);
  ASSERT_TRUE(lists.KeepEndedMonths().ok());
  ASSERT_EQ(repo_.keep_calls.size(), 1u);
  EXPECT_TRUE(repo_.keep_calls[0].empty());
  EXPECT_EQ(repo_.first, "2025-11");
  EXPECT_TRUE(repo_.kept.empty());
  EXPECT_TRUE(lists.Months()->empty());
}

// A month ends at 00:00 Asia/Shanghai on the 1st (16:00 UTC on the last
// day): one second before, nothing is due; from then on its list is the
// table as the first call after the end finds it.
TEST_F(RatingListsTest, AMonthEndsAtShanghaiMidnight) {
  clock_.SetDate(Date{2025, 11, 2});
  repo_.table = {Row(1, 2000), Row(2, 1900)};
  RatingLists lists(&repo_, &clock_);
  ASSERT_TRUE(lists.KeepEndedMonths().ok());

  const int64_t end = MonthStart(2025, 12);
  EXPECT_EQ(end % 86400, 16 * 3600);  // 16:00 UTC
  clock_.Set(end - 1);
  ASSERT_TRUE(lists.KeepEndedMonths().ok());
  EXPECT_TRUE(repo_.kept.empty());
  EXPECT_EQ(repo_.keep_calls.size(), 1u);  // only the first call's

  repo_.table.push_back(Row(3, 2500));  // rated in the month's last second
  clock_.Set(end);
  ASSERT_TRUE(lists.KeepEndedMonths().ok());
  ASSERT_EQ(repo_.keep_calls.size(), 2u);
  EXPECT_EQ(repo_.keep_calls[1], (std::vector<std::string>{"2025-11"}));
  ASSERT_EQ(repo_.kept.count("2025-11"), 1u);
  EXPECT_EQ(repo_.kept["2025-11"].size(), 3u);
  EXPECT_EQ(repo_.taken["2025-11"], end);
}

// Once kept, a month is not asked for again: not later in the month, not
// in later months, not by a second RatingLists (another rankd, a restart);
// and its list stays what it was whatever the table becomes.
TEST_F(RatingListsTest, KeepsEachMonthOnceAndNeverAgain) {
  clock_.SetDate(Date{2025, 10, 20});
  repo_.table = {Row(1, 2000), Row(2, 1900)};
  RatingLists lists(&repo_, &clock_);
  ASSERT_TRUE(lists.KeepEndedMonths().ok());
  clock_.SetDate(Date{2025, 11, 1});
  ASSERT_TRUE(lists.KeepEndedMonths().ok());
  const std::vector<RatingListRow> october = repo_.kept.at("2025-10");

  repo_.table = {Row(1, 100), Row(7, 3000)};
  const int reads = repo_.reads;
  for (int day = 1; day <= 30; ++day) {
    clock_.SetDate(Date{2025, 11, day});
    ASSERT_TRUE(lists.KeepEndedMonths().ok());
  }
  // The month it last found nothing due: no read at all.
  EXPECT_EQ(repo_.reads, reads);
  EXPECT_EQ(repo_.keep_calls.size(), 2u);

  clock_.SetDate(Date{2025, 12, 1});
  ASSERT_TRUE(lists.KeepEndedMonths().ok());
  ASSERT_EQ(repo_.keep_calls.size(), 3u);
  EXPECT_EQ(repo_.keep_calls[2], (std::vector<std::string>{"2025-11"}));

  RatingLists restarted(&repo_, &clock_);
  ASSERT_TRUE(restarted.KeepEndedMonths().ok());
  EXPECT_EQ(repo_.keep_calls.size(), 3u);  // nothing due: no write
  ASSERT_EQ(repo_.kept.at("2025-10").size(), october.size());
  for (size_t i = 0; i < october.size(); ++i) {
    EXPECT_EQ(repo_.kept.at("2025-10")[i].rating, october[i].rating);
  }
  auto months = restarted.Months();
  ASSERT_TRUE(months.ok()) << months.status();
  ASSERT_EQ(months->size(), 2u);
  EXPECT_EQ((*months)[0].month, "2025-11");  // newest first
  EXPECT_EQ((*months)[1].month, "2025-10");
}

// Months that ended while rankd was not running are all kept at the next
// call, across the year's end, oldest first.
TEST_F(RatingListsTest, EveryMonthMissedIsKeptAtTheNextCall) {
  clock_.SetDate(Date{2025, 9, 3});
  repo_.table = {Row(1, 2000)};
  {
    RatingLists lists(&repo_, &clock_);
    ASSERT_TRUE(lists.KeepEndedMonths().ok());
  }
  clock_.SetDate(Date{2026, 1, 5});
  RatingLists lists(&repo_, &clock_);
  ASSERT_TRUE(lists.KeepEndedMonths().ok());
  ASSERT_EQ(repo_.keep_calls.size(), 2u);
  EXPECT_EQ(
      repo_.keep_calls[1],
      (std::vector<std::string>{"2025-09", "2025-10", "2025-11", "2025-12"}));
}

// A failed keep is returned and tried again at the next call (the month is
// not taken as settled).
TEST_F(RatingListsTest, AFailedKeepIsTriedAgain) {
  clock_.SetDate(Date{2025, 10, 20});
  RatingLists lists(&repo_, &clock_);
  ASSERT_TRUE(lists.KeepEndedMonths().ok());
  clock_.SetDate(Date{2025, 11, 3});
  repo_.keep_error = absl::UnavailableError("database gone");
  EXPECT_EQ(lists.KeepEndedMonths().code(), StatusCode::kUnavailable);
  repo_.keep_error = absl::OkStatus();
  ASSERT_TRUE(lists.KeepEndedMonths().ok());
  EXPECT_EQ(repo_.keep_calls.back(), (std::vector<std::string>{"2025-10"}));
  EXPECT_EQ(repo_.kept.count("2025-10"), 1u);
}

TEST_F(RatingListsTest, ListRefusesBadFiltersWithTheirReason) {
  clock_.SetDate(Date{2025, 12, 10});
  RatingLists lists(&repo_, &clock_);
  struct Bad {
    RatingListFilter f;
    const char* says;
  };
  std::vector<Bad> cases;
  RatingListFilter f;
  f.agency_prefix = "11";
  cases.push_back({f, "3-digit prefix"});
  f.agency_prefix = "11a";
  cases.push_back({f, "3-digit prefix"});
  f = RatingListFilter{};
  f.active_months = -1;
  cases.push_back({f, "active_months must be 0"});
  f.active_months = kMaxActiveMonths + 1;
  cases.push_back({f, "active_months must be 0"});
  f = RatingListFilter{};
  f.min_rank = Rank::FromString("3d");
  f.max_rank = Rank::FromString("5k");
  cases.push_back({f, "min_rank 3d is above max_rank 5k"});
  f = RatingListFilter{};
  f.max_rank = *Rank::Parse("3d", registry::Discipline::kGomoku);
  cases.push_back({f, "Gomoku has no rating system"});
  f = RatingListFilter{};
  f.month = "2025-1";
  cases.push_back({f, "YYYY-MM"});
  for (const Bad& b : cases) {
    const absl::Status s = lists.List(b.f, PageArgs{}).status();
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << s;
    EXPECT_NE(s.message().find(b.says), std::string::npos) << s;
  }
  RatingListFilter ok;
  ok.active_months = kMaxActiveMonths;
  ok.min_rank = ok.max_rank = Rank::FromString("2d");
  EXPECT_TRUE(lists.List(ok, PageArgs{}).ok());
  EXPECT_EQ(lists.List(RatingListFilter{}, PageArgs{501, ""}).status().code(),
            StatusCode::kInvalidArgument);
}

// The current list is active relative to today; a kept month's list
// relative to the month's last day, from that month's rows.
TEST_F(RatingListsTest, ActiveMonthsCountFromTodayOrTheMonthsLastDay) {
  clock_.SetDate(Date{2025, 10, 20});
  repo_.table = {Row(1, 2000, "110", Date{2025, 9, 29}),
                 Row(2, 1900, "110", Date{2025, 10, 1})};
  RatingLists lists(&repo_, &clock_);
  ASSERT_TRUE(lists.KeepEndedMonths().ok());
  clock_.SetDate(Date{2025, 11, 1});
  ASSERT_TRUE(lists.KeepEndedMonths().ok());  // October kept
  repo_.table = {Row(3, 1500, "110", Date{2025, 12, 1})};
  clock_.SetDate(Date{2025, 12, 10});

  RatingListFilter f;
  f.active_months = 1;
  auto now = lists.List(f, PageArgs{});
  ASSERT_TRUE(now.ok()) << now.status();
  ASSERT_TRUE(repo_.last_query);
  EXPECT_EQ(repo_.last_query->active_since, (Date{2025, 11, 10}));
  EXPECT_EQ(repo_.last_query->month, "");
  ASSERT_EQ(now->rows.size(), 1u);

  f.month = "2025-10";
  auto october = lists.List(f, PageArgs{});
  ASSERT_TRUE(october.ok()) << october.status();
  EXPECT_EQ(repo_.last_query->month, "2025-10");
  EXPECT_EQ(repo_.last_query->active_since, (Date{2025, 9, 30}));
  ASSERT_EQ(october->rows.size(), 1u);
  EXPECT_EQ(october->rows[0].rating.player.value, 2);

  f.active_months = 0;
  auto whole = lists.List(f, PageArgs{});
  ASSERT_TRUE(whole.ok()) << whole.status();
  EXPECT_EQ(repo_.last_query->active_since, std::nullopt);
  EXPECT_EQ(whole->rows.size(), 2u);
}

TEST_F(RatingListsTest, MonthsNotEndedOrNotKeptAreNotFound) {
  clock_.SetDate(Date{2025, 10, 20});
  RatingLists lists(&repo_, &clock_);
  clock_.SetDate(Date{2025, 12, 10});
  RatingListFilter f;
  f.month = "2025-12";
  absl::Status s = lists.List(f, PageArgs{}).status();
  EXPECT_EQ(s.code(), StatusCode::kNotFound);
  EXPECT_NE(s.message().find("once the month has ended (after 2025-12-31"),
            std::string::npos)
      << s;
  f.month = "2026-04";
  EXPECT_EQ(lists.List(f, PageArgs{}).status().code(), StatusCode::kNotFound);
  // The first call of all was this month's: nothing before is kept.
  f.month = "2025-11";
  s = lists.List(f, PageArgs{}).status();
  EXPECT_EQ(s.code(), StatusCode::kNotFound);
  EXPECT_NE(s.message().find("none is kept yet"), std::string::npos) << s;
  EXPECT_EQ(repo_.first, "2025-12");
}

// Pages of the filtered list: places count on from page to page, equal
// ratings split by id, the last page has no token, and a token of another
// filter is refused.
TEST_F(RatingListsTest, PagesNumberTheirRowsAndBindTheirFilter) {
  clock_.SetDate(Date{2025, 12, 10});
  for (int64_t id = 1; id <= 9; ++id) {
    repo_.table.push_back(
        Row(id, 2000.0 - (id / 3) * 100, id % 4 ? "110" : "120"));
  }
  RatingLists lists(&repo_, &clock_);
  RatingListFilter f;
  f.agency_prefix = "110";  // ids 1 2 3 5 6 7 9
  std::vector<int64_t> ids, firsts;
  PageArgs page{2, ""};
  for (int n = 0; n < 10; ++n) {
    auto got = lists.List(f, page);
    ASSERT_TRUE(got.ok()) << got.status();
    firsts.push_back(got->first_position);
    for (const RatingListRow& r : got->rows) {
      ids.push_back(r.rating.player.value);
    }
    if (got->next_page_token.empty()) break;
    page.page_token = got->next_page_token;
  }
  EXPECT_EQ(ids, (std::vector<int64_t>{1, 2, 3, 5, 6, 7, 9}));
  EXPECT_EQ(firsts, (std::vector<int64_t>{1, 3, 5, 7}));

  auto first = lists.List(f, PageArgs{2, ""});
  ASSERT_TRUE(first.ok());
  RatingListFilter pro = f;
  pro.pro_list = true;
  EXPECT_EQ(
      lists.List(pro, PageArgs{2, first->next_page_token}).status().code(),
      StatusCode::kInvalidArgument);
  EXPECT_EQ(
      lists.List(f, PageArgs{2, first->next_page_token + "x"}).status().code(),
      StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace gorank::ratings
