// BuildAnnualReport on constructed inputs: a year with one of each anomaly
// (serial gap, duplicate serial, stock exceeded, incomplete 1d+ holder,
// under-18 appraisal, revocation, months without issuance) and the 4d+
// notice outcomes, each reported once with its details; a clean agency's
// year with none; the months counted for the current and future years.
#include "services/audit/annual_report.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace gorank::audit {
namespace {

using certificates::Appraisal;
using certificates::AppraisalState;
using certificates::Basis;
using certificates::Certificate;
using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::Pair;
using ::testing::UnorderedElementsAre;

int64_t At(int y, int m, int d) {
  return ShanghaiMidnight(Date{y, m, d}) + 10 * 3600;
}

Certificate Cert(const std::string& prefix, int serial,
                 const std::string& grade, Date issued, int64_t player,
                 Basis basis = Basis::kTournament) {
  Certificate c;
  c.number = {prefix, issued.year % 100, serial};
  c.year = issued.year;
  c.player_id = registry::PlayerId{player};
  c.grade = registry::Rank::FromString(grade);
  c.issue_date = issued;
  c.basis = basis;
  c.basis_reference = "event";
  c.issued_unix = At(issued.year, issued.month, issued.day);
  return c;
}

registry::Player Holder(int64_t id, std::optional<Date> birth,
                        registry::Gender gender = registry::Gender::kMale) {
  registry::Player p;
  p.id = registry::PlayerId{id};
  p.name = "选手" + std::to_string(id);
  p.gender = gender;
  p.birth_date = birth;
  p.agency_prefix = "110";
  return p;
}

Appraisal Approved(int64_t player, const std::string& grade, Date decided,
                   const std::string& number) {
  Appraisal a;
  a.player_id = registry::PlayerId{player};
  a.grade = registry::Rank::FromString(grade);
  a.agency_prefix = "110";
  a.state = AppraisalState::kApproved;
  a.decided_unix = At(decided.year, decided.month, decided.day);
  a.certificate_number = number;
  return a;
}

// Agency 110's 2023, seen on 2024-03-01: every kind of anomaly once.
ReportInputs AnomalousYear() {
  ReportInputs in;
  in.prefix = "110";
  in.agency_name = "北京市围棋协会";
  in.year = 2023;
  in.now_unix = At(2024, 3, 1);
  // Player 1 complete; 2 without birth date; 3 born 2007 (16 in 2023); 4 adult.
  in.holders[1] = Holder(1, Date{1990, 1, 1});
  in.holders[2] = Holder(2, std::nullopt);
  in.holders[3] = Holder(3, Date{2007, 3, 1}, registry::Gender::kFemale);
  in.holders[4] = Holder(4, Date{1983, 9, 2});
  in.certificates = {
      Cert("110", 1, "3k", {2023, 1, 10},
           2),  // kyu: an incomplete record is fine
      Cert("110", 2, "2d", {2023, 2, 5}, 2),  // 1d+: birth date missing
      // serial 3 never issued
      Cert("110", 4, "1d", {2023, 4, 1}, 1),
      Cert("110", 5, "5d", {2023, 5, 20}, 4, Basis::kRatingPromotion),
      Cert("110", 6, "4d", {2023, 6, 30}, 1),
      Cert("110", 7, "1k", {2023, 7, 1}, 1),
      Cert("110", 7, "2k", {2023, 7, 2}, 4),  // duplicate serial
      Cert("110", 8, "2d", {2023, 8, 15}, 3, Basis::kAppraisal),
  };
  in.certificates[2].revoked_unix = At(2023, 10, 1);
  in.certificates[2].revoke_reason = "tournament result forged";
  in.certificates[3].notice_until_unix =
      At(2023, 5, 27);  // ended, no objection
  in.certificates[4].notice_until_unix = At(2023, 7, 7);
  in.certificates[4].has_open_objection = true;
  in.stock = certificates::StockOrder{"110",
                                      2023,
                                      5,
                                      At(2022, 12, 5),
                                      "agency:110/token:2",
                                      At(2023, 1, 2),
                                      "national/token:1",
                                      8};
  in.appraisals = {
      Approved(3, "2d", {2023, 8, 15}, "110230008"),  // holder aged 16
      Approved(4, "3d", {2023, 9, 1}, "000230012"),   // adult
      Approved(4, "2d", {2022, 9, 1}, "000220003"),   // another year
  };
  Appraisal pending;
  pending.player_id = registry::PlayerId{3};
  pending.state = AppraisalState::kPending;
  in.appraisals.push_back(pending);
  return in;
}

TEST(AnnualReportTest, EachAnomalyAppearsOnceWithItsDetails) {
  const AnnualReport r = BuildAnnualReport(AnomalousYear());
  EXPECT_EQ(r.prefix, "110");
  EXPECT_EQ(r.agency_name, "北京市围棋协会");
  EXPECT_EQ(r.year, 2023);
  EXPECT_EQ(r.issued, 8);
  EXPECT_THAT(r.by_grade,
              UnorderedElementsAre(Pair("3k", 1), Pair("2k", 1), Pair("1k", 1),
                                   Pair("1d", 1), Pair("2d", 2), Pair("4d", 1),
                                   Pair("5d", 1)));
  EXPECT_THAT(r.by_basis,
              UnorderedElementsAre(Pair("tournament", 6), Pair("appraisal", 1),
                                   Pair("rating_promotion", 1)));
  // Serials.
  EXPECT_EQ(r.max_serial, 8);
  EXPECT_THAT(r.missing_serials, ElementsAre(3));
  EXPECT_THAT(r.duplicate_serials, ElementsAre(7));
  // Stock: 5 ordered and released, 8 used.
  EXPECT_EQ(r.stock_ordered, 5);
  EXPECT_TRUE(r.stock_released);
  EXPECT_EQ(r.stock_used, 8);
  EXPECT_TRUE(r.stock_exceeded);
  // 4d+ with their notice outcome (not anomalies in themselves).
  ASSERT_EQ(r.high_grades.size(), 2u);
  EXPECT_EQ(r.high_grades[0].number, "110230005");
  EXPECT_EQ(r.high_grades[0].grade, "5d");
  EXPECT_EQ(r.high_grades[0].detail, "notice ended, effective");
  EXPECT_EQ(r.high_grades[1].number, "110230006");
  EXPECT_EQ(r.high_grades[1].detail, "under notice, objection open");
  // The 2d of a holder without birth date; not the 3k of the same holder.
  ASSERT_EQ(r.incomplete_holders.size(), 1u);
  EXPECT_EQ(r.incomplete_holders[0].number, "110230002");
  EXPECT_EQ(r.incomplete_holders[0].grade, "2d");
  EXPECT_EQ(r.incomplete_holders[0].detail, "missing birth date");
  // Approved appraisals of the year, with ages.
  ASSERT_EQ(r.appraisals.size(), 2u);
  EXPECT_EQ(r.appraisals[0].number, "110230008");
  EXPECT_EQ(r.appraisals[0].detail,
            "approved 2023-08-15, holder aged 16 (UNDER 18)");
  EXPECT_EQ(r.appraisals[1].number, "000230012");
  EXPECT_EQ(r.appraisals[1].detail, "approved 2023-09-01, holder aged 39");
  EXPECT_EQ(r.appraisals_under_18, 1);
  // The revocation with its reason.
  ASSERT_EQ(r.revocations.size(), 1u);
  EXPECT_EQ(r.revocations[0].number, "110230004");
  EXPECT_EQ(r.revocations[0].grade, "1d");
  EXPECT_EQ(r.revocations[0].detail, "tournament result forged");
  // Issued in months 1, 2, 4, 5, 6, 7, 8.
  EXPECT_THAT(r.inactive_months, ElementsAre(3, 9, 10, 11, 12));
  // gap + duplicate + stock + incomplete + under 18 + revocation + 5 months.
  EXPECT_EQ(r.AnomalyCount(), 11);
}

TEST(AnnualReportTest, ARevoked4dCertificateShowsTheReasonInBothLists) {
  ReportInputs in = AnomalousYear();
  in.certificates[3].revoked_unix = At(2023, 5, 25);
  in.certificates[3].revoke_reason = "objection upheld";
  const AnnualReport r = BuildAnnualReport(in);
  EXPECT_EQ(r.high_grades[0].detail, "revoked: objection upheld");
  ASSERT_EQ(r.revocations.size(), 2u);
  EXPECT_EQ(r.revocations[1].number, "110230005");
  EXPECT_EQ(r.AnomalyCount(), 12);
}

TEST(AnnualReportTest, AHolderRecordNotFoundIsIncompleteFor1dAndAbove) {
  ReportInputs in = AnomalousYear();
  in.holders.erase(2);
  const AnnualReport r = BuildAnnualReport(in);
  ASSERT_EQ(r.incomplete_holders.size(), 1u);  // the 2d, not the 3k
  EXPECT_EQ(r.incomplete_holders[0].number, "110230002");
  EXPECT_EQ(r.incomplete_holders[0].detail, "holder record missing");
}

// Agency 130 issued once every month of 2023, within its released stock.
ReportInputs CleanYear() {
  ReportInputs in;
  in.prefix = "130";
  in.agency_name = "河北省围棋协会";
  in.year = 2023;
  in.now_unix = At(2024, 3, 1);
  for (int m = 1; m <= 12; ++m) {
    in.holders[m] = Holder(m, Date{2000, 1, m});
    in.certificates.push_back(
        Cert("130", m, m % 2 ? "3d" : "5k", {2023, m, 3}, m));
  }
  in.stock = certificates::StockOrder{"130",
                                      2023,
                                      12,
                                      At(2022, 12, 1),
                                      "agency:130/token:3",
                                      At(2022, 12, 20),
                                      "national/token:1",
                                      12};
  return in;
}

TEST(AnnualReportTest, ACleanAgencyHasNoAnomaly) {
  const AnnualReport r = BuildAnnualReport(CleanYear());
  EXPECT_EQ(r.issued, 12);
  EXPECT_EQ(r.max_serial, 12);
  EXPECT_THAT(r.missing_serials, IsEmpty());
  EXPECT_THAT(r.duplicate_serials, IsEmpty());
  EXPECT_FALSE(r.stock_exceeded);
  EXPECT_THAT(r.high_grades, IsEmpty());
  EXPECT_THAT(r.incomplete_holders, IsEmpty());
  EXPECT_THAT(r.appraisals, IsEmpty());
  EXPECT_THAT(r.revocations, IsEmpty());
  EXPECT_THAT(r.inactive_months, IsEmpty());
  EXPECT_THAT(r.by_grade, UnorderedElementsAre(Pair("3d", 6), Pair("5k", 6)));
  EXPECT_EQ(r.AnomalyCount(), 0);
}

TEST(AnnualReportTest, StockIsExceededBeyondTheReleasedQuantityOnly) {
  struct Case {
    const char* name;
    std::string prefix;
    std::optional<int> quantity;
    bool released;
    bool exceeded;
  };
  for (const Case& c : std::vector<Case>{
           {"exactly the released stock", "130", 12, true, false},
           {"one more than released", "130", 11, true, true},
           {"ordered, never released", "130", 20, false, true},
           {"no order at all", "130", std::nullopt, false, true},
           {"the national body needs no stock", "000", std::nullopt, false,
            false},
       }) {
    ReportInputs in = CleanYear();
    in.prefix = c.prefix;
    in.stock.reset();
    if (c.quantity) {
      in.stock = certificates::StockOrder{
          c.prefix,    2023,
          *c.quantity, At(2022, 12, 1),
          "x",         c.released ? At(2022, 12, 20) : 0,
          "",          0};
    }
    const AnnualReport r = BuildAnnualReport(in);
    EXPECT_EQ(r.stock_exceeded, c.exceeded) << c.name;
    EXPECT_EQ(r.stock_used, 12) << c.name;
    EXPECT_EQ(r.stock_ordered, c.quantity) << c.name;
    EXPECT_EQ(r.AnomalyCount(), c.exceeded ? 1 : 0) << c.name;
  }
}

TEST(AnnualReportTest, MonthsAreCountedUpToToday) {
  struct Case {
    Date today;
    std::vector<int> inactive;
  };
  // 130 issued in January and March 2024 only.
  for (const Case& c : std::vector<Case>{
           {{2024, 1, 20}, {}},
           {{2024, 4, 1}, {2, 4}},
           {{2024, 12, 31}, {2, 4, 5, 6, 7, 8, 9, 10, 11, 12}},
           {{2025, 2, 1}, {2, 4, 5, 6, 7, 8, 9, 10, 11, 12}},
           {{2023, 12, 31}, {}},  // a year not yet begun
       }) {
    ReportInputs in;
    in.prefix = "000";
    in.year = 2024;
    in.now_unix = At(c.today.year, c.today.month, c.today.day);
    in.certificates = {Cert("000", 1, "1d", {2024, 1, 5}, 1),
                       Cert("000", 2, "1d", {2024, 3, 5}, 1)};
    in.holders[1] = Holder(1, Date{1990, 1, 1});
    EXPECT_EQ(BuildAnnualReport(in).inactive_months, c.inactive)
        << c.today.ToString();
  }
}

TEST(AnnualReportTest, AnEmptyYearIsInactiveEveryMonthWithNoSerials) {
  ReportInputs in;
  in.prefix = "650";
  in.year = 2023;
  in.now_unix = At(2024, 1, 10);
  const AnnualReport r = BuildAnnualReport(in);
  EXPECT_EQ(r.issued, 0);
  EXPECT_EQ(r.max_serial, 0);
  EXPECT_THAT(r.missing_serials, IsEmpty());
  EXPECT_FALSE(r.stock_exceeded);
  EXPECT_EQ(r.inactive_months.size(), 12u);
  EXPECT_EQ(r.AnomalyCount(), 12);
}

}  // namespace
}  // namespace gorank::audit
