// The contract of the rating lists in RatingRepository
// (services/ratings/rating_repository.h: ListRatingRows, KeepMonths,
// KeptMonths, FirstWatchedMonth), run against the SQL repository on SQLite
// and on PostgreSQL, and RatingLists (services/ratings/rating_lists.h) over
// it for what the SQL and the page tokens do together:
//   - every filter (agency, Go rank range, last rated event on or after a
//     day) narrows the list, in the list's order, and only registered
//     players are listed, with what the public sees of them;
//   - keyset paging with filters sees every row of the filtered list once;
//   - the places (first_position) count the filtered list across pages;
//   - a kept month's list is the table as it was kept, unchanged by later
//     rating writes and registry changes, and kept once;
//   - a month before the first watched one has no list (NOT_FOUND through
//     RatingLists), nor has a month not yet ended.
#include <algorithm>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "services/common/clock.h"
#include "services/ratings/rating_lists.h"
#include "services/ratings/rating_repository.h"
#include "storage/database.h"
#include "storage/sql_rating_repository.h"
#include "storage/sql_registry_repository.h"
#include "tests/storage/repository_backends.h"
#include "tests/testing/database_snapshot.h"
#include "tests/testing/temp_dir.h"

namespace gorank::storage_test {
namespace {

using absl::StatusCode;
using ratings::EventKey;
using ratings::KeptMonth;
using ratings::PlayerId;
using ratings::PlayerRating;
using ratings::RatingChange;
using ratings::RatingListQuery;
using ratings::RatingListRow;
using ratings::RatingSnapshot;
using registry::Rank;

ChangeRecord Change(const std::string& action) {
  return ChangeRecord{1717200000, "system", action, "ratings", "", "{}"};
}

// One seeded player: who they are in the registry and their rating.
struct Seeded {
  std::string agency;
  std::optional<std::string> rank;  // Go rank notation; none: no rank
  double gor = 0;
  std::optional<double> pro;
  std::optional<Date> last_event;  // none: no rated event (an import)
  int64_t id = 0;                  // set by Seed()
};
Seeded S(std::string agency, std::optional<std::string> rank, double gor,
         std::optional<double> pro, std::optional<Date> last_event) {
  return Seeded{std::move(agency), std::move(rank), gor, pro, last_event, 0};
}

const EventKey kOct{Date{2025, 10, 5}, 1, "e-oct"};
const EventKey kNov{Date{2025, 11, 20}, 1, "e-nov"};
const EventKey kDec{Date{2025, 12, 3}, 1, "e-dec"};

const EventKey& EventOn(const Date& d) {
  for (const EventKey* e : {&kOct, &kNov, &kDec}) {
    if (e->date == d) return *e;
  }
  ADD_FAILURE() << "no event on " << d.ToString();
  return kOct;
}

class RatingListContract : public ::testing::TestWithParam<SqlEngine> {
 protected:
  void SetUp() override {
    const std::string why = EngineUnavailable(GetParam().engine);
    if (!why.empty()) GTEST_SKIP() << why;
    auto db = storage::Database::Open(
        EngineAddress(GetParam().engine, dir_, "lists.db"));
    ASSERT_TRUE(db.ok()) << db.status();
    db_ = std::move(*db);
    repo_ = std::make_unique<storage::SqlRatingRepository>(db_.get());
    registry_ = std::make_unique<storage::SqlRegistryRepository>(db_.get());
  }

  int64_t AuditRows() { return testing::CountAuditRows(db_.get()).value(); }

  int64_t Register(const std::string& name, const std::string& agency,
                   const std::optional<std::string>& rank) {
    registry::Player p;
    p.name = name;
    p.latin_name = "Latin " + name;
    p.agency_prefix = agency;
    p.created_unix = p.updated_unix = 1717200000;
    std::optional<registry::RankHistoryEntry> initial;
    if (rank) {
      p.rank = Rank::FromString(*rank);
      initial.emplace();
      initial->to_rank = p.rank;
      initial->effective_date = Date{2024, 1, 1};
      initial->reason = registry::RankChangeReason::kRegistration;
      initial->basis = "registration";
      initial->actor = "test";
      initial->recorded_unix = 1717200000;
    }
    auto id = registry_->InsertPlayer(p, initial, Change("player.register"));
    EXPECT_TRUE(id.ok()) << id.status();
    return id.ok() ? id->value : 0;
  }

  // Registers every player of `players` (ids set) and stores their ratings
  // as one full recompute; a player's last_event is their one rated event.
  void Seed(std::vector<Seeded>& players) {
    RatingSnapshot s;
    s.events = {kOct, kNov, kDec};
    for (size_t i = 0; i < players.size(); ++i) {
      Seeded& p = players[i];
      p.id = Register("棋手" + std::to_string(i), p.agency, p.rank);
      PlayerRating r;
      r.player = PlayerId{p.id};
      r.gor = p.gor;
      r.rated_games = p.last_event ? 3 : 0;
      r.rated_events = p.last_event ? 1 : 0;
      r.pro_elo = p.pro;
      r.pro_games = p.pro ? 2 : 0;
      s.players.push_back(r);
      if (p.last_event) {
        RatingChange c;
        c.event = EventOn(*p.last_event);
        c.gor_before = p.gor - 10;
        c.gor_after = p.gor;
        c.games = 3;
        s.history.push_back({r.player, c});
      }
    }
    std::sort(s.history.begin(), s.history.end(),
              [](const auto& a, const auto& b) {
                return a.first.value < b.first.value;
              });
    s.table_sha256 = "sha-seed";
    ASSERT_TRUE(repo_->ReplaceAll(s, Change("ratings.recompute")).ok());
  }

  std::vector<RatingListRow> Rows(const RatingListQuery& q) {
    auto rows = repo_->ListRatingRows(q);
    EXPECT_TRUE(rows.ok()) << rows.status();
    return rows.ok() ? *rows : std::vector<RatingListRow>{};
  }
  std::vector<int64_t> Ids(const RatingListQuery& q) {
    std::vector<int64_t> out;
    for (const RatingListRow& r : Rows(q)) out.push_back(r.rating.player.value);
    return out;
  }

  // The ids of `players` passing `keep`, in the list's order (descending
  // rating, ties by ascending id), computed here independently of the SQL.
  static std::vector<int64_t> Expected(
      const std::vector<Seeded>& players, bool pro,
      const std::function<bool(const Seeded&)>& keep) {
    std::vector<const Seeded*> in;
    for (const Seeded& p : players) {
      if ((!pro || p.pro) && keep(p)) in.push_back(&p);
    }
    std::sort(in.begin(), in.end(), [pro](const Seeded* a, const Seeded* b) {
      const double ra = pro ? *a->pro : a->gor;
      const double rb = pro ? *b->pro : b->gor;
      return ra != rb ? ra > rb : a->id < b->id;
    });
    std::vector<int64_t> out;
    for (const Seeded* p : in) out.push_back(p->id);
    return out;
  }

  static int Ordinal(const std::string& rank) {
    return Rank::FromString(rank).Ordinal();
  }

  testing::TempDir dir_;
  std::unique_ptr<storage::Database> db_;
  std::unique_ptr<storage::SqlRatingRepository> repo_;
  std::unique_ptr<storage::SqlRegistryRepository> registry_;
};

// Two agencies, kyu, dan and pro ranks and players without a rank, equal
// ratings, pro ratings for some, last rated events in three months and an
// imported start without any.
std::vector<Seeded> Field() {
  return {
      S("110", "3d", 2300.0, 2500.0, Date{2025, 12, 3}),
      S("120", "1k", 2100.0, std::nullopt, Date{2025, 10, 5}),
      S("110", "5k", 1500.5, std::nullopt, Date{2025, 11, 20}),
      S("120", "3d", 2300.0, 2400.0, Date{2025, 11, 20}),  // ties the first
      S("110", std::nullopt, 1800.0, std::nullopt, Date{2025, 12, 3}),
      S("120", "2p", 2700.25, 2650.0, std::nullopt),  // an imported start
      S("110", "1d", 2100.0, 2000.0, Date{2025, 10, 5}),
      S("130", "10k", 900.0, std::nullopt, Date{2025, 12, 3}),
  };
}

TEST_P(RatingListContract, FiltersNarrowTheListInItsOrder) {
  std::vector<Seeded> f = Field();
  ASSERT_NO_FATAL_FAILURE(Seed(f));
  const auto all = [](const Seeded&) { return true; };
  RatingListQuery q;
  q.limit = 100;
  EXPECT_EQ(Ids(q), Expected(f, false, all));
  q.pro_list = true;
  EXPECT_EQ(Ids(q), Expected(f, true, all));
  EXPECT_EQ(Ids(q).size(), 4u);

  RatingListQuery agency;
  agency.agency_prefix = "110";
  agency.limit = 100;
  EXPECT_EQ(Ids(agency), Expected(f, false, [](const Seeded& p) {
              return p.agency == "110";
            }));
  EXPECT_EQ(Ids(agency).size(), 4u);

  // The bounds are inclusive; a player without a Go rank is outside any
  // bound.
  RatingListQuery ranks;
  ranks.min_rank_ordinal = Ordinal("1k");
  ranks.max_rank_ordinal = Ordinal("3d");
  ranks.limit = 100;
  const auto in_1k_3d = [](const Seeded& p) {
    return p.rank && Ordinal(*p.rank) >= Ordinal("1k") &&
           Ordinal(*p.rank) <= Ordinal("3d");
  };
  EXPECT_EQ(Ids(ranks), Expected(f, false, in_1k_3d));
  EXPECT_EQ(Ids(ranks).size(), 4u);
  RatingListQuery low;
  low.max_rank_ordinal = Ordinal("1k");
  low.limit = 100;
  EXPECT_EQ(Ids(low), Expected(f, false, [](const Seeded& p) {
              return p.rank && Ordinal(*p.rank) <= Ordinal("1k");
            }));
  RatingListQuery high;
  high.min_rank_ordinal = Ordinal("1p");
  high.limit = 100;
  EXPECT_EQ(Ids(high), (std::vector<int64_t>{f[5].id}));

  // Active: a rated event on or after the day (the day itself counts); an
  // imported start alone is no rated event.
  RatingListQuery active;
  active.active_since = Date{2025, 11, 20};
  active.limit = 100;
  const auto since_nov20 = [](const Seeded& p) {
    return p.last_event && *p.last_event >= Date{2025, 11, 20};
  };
  EXPECT_EQ(Ids(active), Expected(f, false, since_nov20));
  EXPECT_EQ(Ids(active).size(), 5u);

  // Every filter at once, on the pro list.
  RatingListQuery both;
  both.pro_list = true;
  both.agency_prefix = "110";
  both.min_rank_ordinal = Ordinal("1d");
  both.active_since = Date{2025, 11, 1};
  both.limit = 100;
  EXPECT_EQ(Ids(both), (std::vector<int64_t>{f[0].id}));
  both.agency_prefix = "999";
  EXPECT_TRUE(Ids(both).empty());
}

// A row carries what the public sees of the player: name, Latin name,
// agency, registered Go rank and the date of the last rated event, and the
// rating bit for bit. A rating of someone not in the registry is not
// listed.
TEST_P(RatingListContract, RowsCarryThePlayerAndOnlyRegisteredPlayers) {
  const int64_t a = Register("王一", "110", "2d");
  const int64_t b = Register("王二", "120", std::nullopt);
  RatingSnapshot s;
  s.events = {kOct, kNov};
  PlayerRating ra;
  ra.player = PlayerId{a};
  ra.gor = 2150.0 + 1.0 / 3;
  ra.rated_games = 7;
  ra.rated_events = 2;
  ra.pro_elo = 2222.125;
  ra.pro_games = 1;
  PlayerRating rb = ra;
  rb.player = PlayerId{b};
  rb.gor = 1000.0;
  rb.pro_elo.reset();
  rb.pro_games = 0;
  PlayerRating ghost = rb;
  ghost.player = PlayerId{b + 1000};
  ghost.gor = 3000.0;
  s.players = {ra, rb, ghost};
  RatingChange c1;
  c1.event = kOct;
  c1.gor_before = 2100.0;
  c1.gor_after = 2120.0;
  c1.games = 3;
  RatingChange c2 = c1;
  c2.event = kNov;
  c2.gor_before = 2120.0;
  c2.gor_after = ra.gor;
  s.history = {{ra.player, c1}, {ra.player, c2}};
  s.table_sha256 = "sha";
  ASSERT_TRUE(repo_->ReplaceAll(s, Change("ratings.recompute")).ok());

  RatingListQuery q;
  const std::vector<RatingListRow> rows = Rows(q);
  ASSERT_EQ(rows.size(), 2u);  // the ghost's 3000 is not listed
  EXPECT_EQ(rows[0].rating, ra);
  EXPECT_EQ(rows[0].name, "王一");
  EXPECT_EQ(rows[0].latin_name, "Latin 王一");
  EXPECT_EQ(rows[0].agency_prefix, "110");
  EXPECT_EQ(rows[0].rank_ordinal, Ordinal("2d"));
  EXPECT_EQ(rows[0].last_rated, kNov.date);  // the later of two events
  EXPECT_EQ(rows[1].rating, rb);
  EXPECT_EQ(rows[1].rank_ordinal, std::nullopt);
  EXPECT_EQ(rows[1].last_rated, std::nullopt);
}

// Keyset pages of a filtered list, small and with equal ratings split
// between pages: every row of the list once, in order.
TEST_P(RatingListContract, KeysetPagesOfAFilteredListSeeEveryRowOnce) {
  std::vector<Seeded> f;
  for (int i = 0; i < 23; ++i) {
    const std::optional<Date> when = i % 3 == 0
                                         ? std::optional<Date>()
                                         : (i % 3 == 1 ? kNov.date : kDec.date);
    f.push_back(S(
        i % 2 ? "110" : "120", i % 5 ? "2d" : "3k",
        1800.0 + (i % 4) * 50.0,  // many equal ratings
        i % 3 ? std::optional<double>(2100.0 + (i % 2)) : std::nullopt, when));
  }
  ASSERT_NO_FATAL_FAILURE(Seed(f));
  for (const bool pro : {false, true}) {
    for (const int limit : {1, 2, 4, 7}) {
      RatingListQuery q;
      q.pro_list = pro;
      q.agency_prefix = "110";
      q.min_rank_ordinal = Ordinal("1d");
      q.limit = limit;
      std::vector<int64_t> paged;
      for (int pages = 0; pages < 40; ++pages) {
        const std::vector<RatingListRow> rows = Rows(q);
        ASSERT_LE(rows.size(), static_cast<size_t>(limit));
        for (const RatingListRow& r : rows) {
          paged.push_back(r.rating.player.value);
        }
        if (rows.size() < static_cast<size_t>(limit)) break;
        const PlayerRating& last = rows.back().rating;
        q.after = ratings::RatingListPosition{pro ? *last.pro_elo : last.gor,
                                              last.player};
      }
      const std::vector<int64_t> want = Expected(f, pro, [](const Seeded& p) {
        return p.agency == "110" && *p.rank == "2d";
      });
      EXPECT_GT(want.size(), 4u);
      EXPECT_EQ(paged, want) << "pro " << pro << " limit " << limit;
    }
  }
}

// RatingLists over the SQL repository: pages of a filtered list through the
// page token, places counted across pages (1, 4, 7, ...), the token bound
// to its filters.
TEST_P(RatingListContract, PlacesCountTheFilteredListAcrossPages) {
  std::vector<Seeded> f;
  for (int i = 0; i < 11; ++i) {
    f.push_back(S(i % 3 ? "110" : "120", "1d", 2000.0 - (i % 5) * 10.0 + 0.1,
                  std::nullopt, kDec.date));
  }
  ASSERT_NO_FATAL_FAILURE(Seed(f));
  FakeClock clock;
  clock.SetDate(Date{2025, 12, 10});
  ratings::RatingLists lists(repo_.get(), &clock);
  ratings::RatingListFilter filter;
  filter.agency_prefix = "110";
  filter.active_months = 1;
  PageArgs page{3, ""};
  std::vector<int64_t> ids;
  std::vector<int64_t> firsts;
  for (int n = 0; n < 10; ++n) {
    auto got = lists.List(filter, page);
    ASSERT_TRUE(got.ok()) << got.status();
    firsts.push_back(got->first_position);
    EXPECT_EQ(got->first_position, static_cast<int64_t>(ids.size()) + 1);
    for (const RatingListRow& r : got->rows) {
      ids.push_back(r.rating.player.value);
    }
    if (got->next_page_token.empty()) break;
    page.page_token = got->next_page_token;
  }
  const std::vector<int64_t> want =
      Expected(f, false, [](const Seeded& p) { return p.agency == "110"; });
  ASSERT_EQ(want.size(), 7u);
  EXPECT_EQ(ids, want);
  EXPECT_EQ(firsts, (std::vector<int64_t>{1, 4, 7}));

  // The token of one filter is refused for another.
  auto first = lists.List(filter, PageArgs{3, ""});
  ASSERT_TRUE(first.ok()) << first.status();
  ratings::RatingListFilter other = filter;
  other.agency_prefix = "120";
  EXPECT_EQ(
      lists.List(other, PageArgs{3, first->next_page_token}).status().code(),
      StatusCode::kInvalidArgument);
}

// A kept month is the table as KeepMonths found it: later rating writes
// (an event, a whole recompute) and registry changes (agency, rank) leave
// it as it was; its filters read the agency, rank and last rated date of
// then. Keeping it again writes nothing.
TEST_P(RatingListContract, AKeptMonthStaysAsKept) {
  std::vector<Seeded> f = Field();
  ASSERT_NO_FATAL_FAILURE(Seed(f));
  EXPECT_EQ(*repo_->FirstWatchedMonth(), std::nullopt);
  const int64_t audit = AuditRows();
  auto kept = repo_->KeepMonths({"2025-11"}, "2025-11", 1764518400,
                                Change("ratings.keep_month"));
  ASSERT_TRUE(kept.ok()) << kept.status();
  EXPECT_EQ(*kept, (std::vector<std::string>{"2025-11"}));
  EXPECT_EQ(AuditRows(), audit + 1);
  EXPECT_EQ(*repo_->FirstWatchedMonth(), "2025-11");
  EXPECT_EQ(*repo_->KeptMonths(),
            (std::vector<KeptMonth>{{"2025-11", 8, 4, 1764518400}}));

  RatingListQuery gor;
  gor.month = "2025-11";
  gor.limit = 100;
  RatingListQuery pro = gor;
  pro.pro_list = true;
  const std::vector<RatingListRow> gor_then = Rows(gor);
  const std::vector<RatingListRow> pro_then = Rows(pro);
  ASSERT_EQ(gor_then.size(), 8u);
  ASSERT_EQ(pro_then.size(), 4u);
  RatingListQuery live;
  live.limit = 100;
  const std::vector<RatingListRow> live_then = Rows(live);
  for (size_t i = 0; i < gor_then.size(); ++i) {
    EXPECT_EQ(gor_then[i].rating, live_then[i].rating);
    EXPECT_EQ(gor_then[i].name, live_then[i].name);
    EXPECT_EQ(gor_then[i].agency_prefix, live_then[i].agency_prefix);
    EXPECT_EQ(gor_then[i].rank_ordinal, live_then[i].rank_ordinal);
    EXPECT_EQ(gor_then[i].last_rated, live_then[i].last_rated);
  }

  // Later: an event changes two players, the first moves to agency 130 and
  // is promoted, then a recompute replaces the whole table.
  ratings::RatingDelta delta;
  delta.event = EventKey{Date{2025, 12, 20}, 1, "e-later"};
  PlayerRating up;
  up.player = PlayerId{f[7].id};
  up.gor = 3100.0;
  up.rated_games = 5;
  up.rated_events = 2;
  delta.players = {up};
  RatingChange c;
  c.event = delta.event;
  c.gor_before = 900.0;
  c.gor_after = 3100.0;
  c.games = 2;
  delta.changes = {{up.player, c}};
  delta.table_sha256 = "sha-later";
  delta.players_total = 8;
  ASSERT_TRUE(repo_->AppendEvent(delta, Change("ratings.event")).ok());
  auto moved = registry_->GetPlayer(registry::PlayerId{f[0].id});
  ASSERT_TRUE(moved.ok()) << moved.status();
  moved->agency_prefix = "130";
  ASSERT_TRUE(registry_->UpdatePlayer(*moved, Change("player.update")).ok());
  registry::RankHistoryEntry promote;
  promote.player_id = registry::PlayerId{f[0].id};
  promote.from_rank = Rank::FromString("3d");
  promote.to_rank = Rank::FromString("4d");
  promote.effective_date = Date{2025, 12, 21};
  promote.reason = registry::RankChangeReason::kPromotion;
  promote.basis = "test";
  promote.actor = "test";
  promote.recorded_unix = 1717200000;
  ASSERT_TRUE(registry_->ApplyRankChange(promote, Change("rank.change")).ok());
  EXPECT_EQ(Ids(live).front(), f[7].id);  // the live list changed

  const auto same = [](const std::vector<RatingListRow>& a,
                       const std::vector<RatingListRow>& b) {
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) {
      EXPECT_EQ(a[i].rating, b[i].rating) << i;
      EXPECT_EQ(a[i].name, b[i].name) << i;
      EXPECT_EQ(a[i].latin_name, b[i].latin_name) << i;
      EXPECT_EQ(a[i].agency_prefix, b[i].agency_prefix) << i;
      EXPECT_EQ(a[i].rank_ordinal, b[i].rank_ordinal) << i;
      EXPECT_EQ(a[i].last_rated, b[i].last_rated) << i;
    }
  };
  same(Rows(gor), gor_then);
  same(Rows(pro), pro_then);
  // The month's filters read the player as they were then.
  RatingListQuery then_110 = gor;
  then_110.agency_prefix = "110";
  then_110.max_rank_ordinal = Ordinal("3d");
  then_110.active_since = Date{2025, 11, 1};
  // f[4] has no rank, f[6] was last rated in October.
  EXPECT_EQ(Ids(then_110), (std::vector<int64_t>{f[0].id, f[2].id}));
  then_110.max_rank_ordinal.reset();
  EXPECT_EQ(Ids(then_110), (std::vector<int64_t>{f[0].id, f[4].id, f[2].id}));

  RatingSnapshot again;
  again.events = {kOct};
  again.players = {};
  again.table_sha256 = "sha-empty";
  ASSERT_TRUE(repo_->ReplaceAll(again, Change("ratings.recompute")).ok());
  EXPECT_TRUE(Rows(live).empty());
  same(Rows(gor), gor_then);

  // Keeping it again (another rankd racing): nothing written.
  const int64_t before = AuditRows();
  auto twice = repo_->KeepMonths({"2025-11"}, "2025-12", 1764600000,
                                 Change("ratings.keep_month"));
  ASSERT_TRUE(twice.ok()) << twice.status();
  EXPECT_TRUE(twice->empty());
  EXPECT_EQ(AuditRows(), before);
  EXPECT_EQ(*repo_->FirstWatchedMonth(), "2025-11");  // not moved
  EXPECT_EQ(*repo_->KeptMonths(),
            (std::vector<KeptMonth>{{"2025-11", 8, 4, 1764518400}}));
  same(Rows(gor), gor_then);
}

// The first watched month is recorded once; a month before it is never
// kept, so it has no rows, and RatingLists answers NOT_FOUND for it as for
// a month not yet ended. The month ends at midnight Asia/Shanghai.
TEST_P(RatingListContract, MonthsBeforeTheFirstWatchedHaveNoList) {
  std::vector<Seeded> f = Field();
  ASSERT_NO_FATAL_FAILURE(Seed(f));
  FakeClock clock;
  clock.SetDate(Date{2025, 11, 15});
  ratings::RatingLists lists(repo_.get(), &clock);
  ASSERT_TRUE(lists.KeepEndedMonths().ok());
  EXPECT_EQ(*repo_->FirstWatchedMonth(), "2025-11");
  EXPECT_TRUE(lists.Months()->empty());

  ratings::RatingListFilter filter;
  filter.month = "2025-11";
  EXPECT_EQ(lists.List(filter, PageArgs{}).status().code(),
            StatusCode::kNotFound);  // not ended
  clock.Set(ShanghaiMidnight(Date{2025, 12, 1}) - 1);
  EXPECT_EQ(lists.List(filter, PageArgs{}).status().code(),
            StatusCode::kNotFound);  // 23:59:59 on the 30th: not yet
  clock.Set(ShanghaiMidnight(Date{2025, 12, 1}));
  auto nov = lists.List(filter, PageArgs{});
  ASSERT_TRUE(nov.ok()) << nov.status();
  EXPECT_EQ(nov->rows.size(), 8u);
  EXPECT_EQ(nov->first_position, 1);
  ASSERT_EQ(lists.Months()->size(), 1u);
  EXPECT_EQ(lists.Months()->front().month, "2025-11");
  EXPECT_EQ(lists.Months()->front().taken_unix,
            ShanghaiMidnight(Date{2025, 12, 1}));

  filter.month = "2025-10";
  const absl::Status before = lists.List(filter, PageArgs{}).status();
  EXPECT_EQ(before.code(), StatusCode::kNotFound) << before;
  EXPECT_NE(before.message().find("2025-11 to 2025-11"), std::string::npos)
      << before;
  RatingListQuery q;
  q.month = "2025-10";
  EXPECT_TRUE(Rows(q).empty());
  filter.month = "2025-12";
  EXPECT_EQ(lists.List(filter, PageArgs{}).status().code(),
            StatusCode::kNotFound);
  filter.month = "2025-13";
  EXPECT_EQ(lists.List(filter, PageArgs{}).status().code(),
            StatusCode::kInvalidArgument);
}

INSTANTIATE_TEST_SUITE_P(Repositories, RatingListContract,
                         ::testing::ValuesIn(SqlEngines()),
                         [](const ::testing::TestParamInfo<SqlEngine>& info) {
                           return info.param.name;
                         });

}  // namespace
}  // namespace gorank::storage_test
