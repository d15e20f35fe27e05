// The pure certificate rules (certificate_rules.h): numbering, the issuing
// authority as a table, the notice state at its boundary, the stock window,
// the appraisal age, holder completeness, the revocation fallback, masking.
#include "services/certificates/certificate_rules.h"

#include <optional>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace gorank::certificates {
namespace {

using registry::Rank;

Rank R(const char* text) { return Rank::FromString(text); }

registry::Agency MakeAgency(const std::string& prefix) {
  registry::Agency a;
  a.prefix = prefix;
  a.name = "agency " + prefix;
  a.level = prefix == registry::kNationalPrefix
                ? registry::AgencyLevel::kNational
                : registry::AgencyLevel::kFirstLevel;
  return a;
}

TEST(CertificateNumberTest, ParsesNineDigitsWithOptionalSeparators) {
  for (const char* text :
       {"610140001", "610 14 0001", "610-14-0001", "61014 0001"}) {
    auto n = CertificateNumber::Parse(text);
    ASSERT_TRUE(n.ok()) << text << ": " << n.status();
    EXPECT_EQ(n->prefix, "610");
    EXPECT_EQ(n->yy, 14);
    EXPECT_EQ(n->serial, 1);
    EXPECT_EQ(n->ToString(), "610140001");
  }
}

TEST(CertificateNumberTest, RejectsMalformedNumbers) {
  for (const char* text : {"", "61014000", "6101400011", "610140000",
                           "61014000a", "610/14/0001", "610１40001"}) {
    EXPECT_EQ(CertificateNumber::Parse(text).status().code(),
              absl::StatusCode::kInvalidArgument)
        << text;
  }
}

TEST(CertificateNumberTest, FormatsWithLeadingZeros) {
  EXPECT_EQ((CertificateNumber{"000", 5, 7}).ToString(), "000050007");
  EXPECT_EQ((CertificateNumber{"110", 26, 9999}).ToString(), "110269999");
}

TEST(NextNumberTest, FirstOfTheYearIsSerialOne) {
  auto n = NextNumber("110", 2026, 0);
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(n->ToString(), "110260001");
}

TEST(NextNumberTest, CountsUpToNineThousandNineHundredNinetyNine) {
  auto n = NextNumber("440", 2025, 9998);
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(n->ToString(), "440259999");
}

TEST(NextNumberTest, TheTenThousandthIsResourceExhausted) {
  auto n = NextNumber("440", 2025, 9999);
  EXPECT_EQ(n.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_NE(n.status().message().find("440"), std::string::npos) << n.status();
  EXPECT_NE(n.status().message().find("2025"), std::string::npos) << n.status();
}

TEST(GradeTest, CertifiableGradesAndPublicNotice) {
  struct Row {
    const char* grade;
    bool certifiable;
    bool notice;
  };
  const Row rows[] = {
      {"30k", false, false}, {"11k", false, false}, {"10k", true, false},
      {"1k", true, false},   {"1d", true, false},   {"3d", true, false},
      {"4d", true, true},    {"7d", true, true},    {"8d", true, false},
      {"1p", false, false},  {"9p", false, false}};
  for (const Row& row : rows) {
    EXPECT_EQ(IsCertifiableGrade(R(row.grade)), row.certifiable) << row.grade;
    EXPECT_EQ(NeedsPublicNotice(R(row.grade)), row.notice) << row.grade;
  }
}

// Role x grade x prefix x basis -> code.
TEST(CheckIssueAuthorityTest, Table) {
  using auth::Caller;
  using auth::Role;
  const Caller op110{Role::kAgencyOperator, "110", 2};
  const Caller national{Role::kNationalAdmin, "", 1};
  const Caller auditor{Role::kAuditor, "", 3};
  const Caller anyone = Caller::Public();
  const registry::Agency a000 = MakeAgency("000");
  const registry::Agency a110 = MakeAgency("110");
  const registry::Agency a120 = MakeAgency("120");
  using C = absl::StatusCode;
  const Basis T = Basis::kTournament;
  const Basis H = Basis::kHonoraryAward;
  struct Row {
    const Caller* caller;
    const registry::Agency* agency;
    const char* grade;
    Basis basis;
    C code;
  };
  const Row rows[] = {
      {&op110, &a110, "10k", T, C::kOk},
      {&op110, &a110, "1k", T, C::kOk},
      {&op110, &a110, "1d", T, C::kOk},
      {&op110, &a110, "3d", T, C::kOk},
      {&op110, &a110, "3d", Basis::kRatingPromotion, C::kOk},
      {&op110, &a110, "4d", T, C::kPermissionDenied},
      {&op110, &a110, "7d", T, C::kPermissionDenied},
      {&op110, &a110, "8d", H, C::kPermissionDenied},
      {&op110, &a110, "8d", T, C::kInvalidArgument},
      {&op110, &a110, "11k", T, C::kInvalidArgument},
      {&op110, &a120, "1k", T, C::kPermissionDenied},
      {&op110, &a120, "3d", T, C::kPermissionDenied},
      {&op110, &a000, "1d", T, C::kPermissionDenied},
      {&national, &a000, "10k", T, C::kOk},
      {&national, &a000, "3d", T, C::kOk},
      {&national, &a000, "4d", T, C::kOk},
      {&national, &a000, "7d", T, C::kOk},
      {&national, &a000, "8d", H, C::kOk},
      {&national, &a000, "8d", T, C::kInvalidArgument},
      {&national, &a000, "7d", H, C::kInvalidArgument},
      {&national, &a000, "11k", T, C::kInvalidArgument},
      {&national, &a000, "1p", T, C::kInvalidArgument},
      {&national, &a110, "3d", T, C::kOk},
      {&national, &a110, "4d", T, C::kPermissionDenied},
      {&auditor, &a000, "1d", T, C::kPermissionDenied},
      {&auditor, &a110, "1k", T, C::kPermissionDenied},
      {&anyone, &a110, "1k", T, C::kPermissionDenied},
      {&anyone, &a000, "4d", T, C::kPermissionDenied},
  };
  for (const Row& row : rows) {
    const absl::Status s =
        CheckIssueAuthority(*row.caller, *row.agency, R(row.grade), row.basis);
    EXPECT_EQ(s.code(), row.code)
        << row.caller->Describe() << " under " << row.agency->prefix
        << " grade " << row.grade << " basis " << BasisName(row.basis) << ": "
        << s;
    if (!s.ok()) {
      EXPECT_FALSE(s.message().empty());
    }
  }
}

TEST(CheckIssueAuthorityTest, SuspendedAgencyIsFailedPrecondition) {
  registry::Agency a110 = MakeAgency("110");
  a110.status = registry::AgencyStatus::kSuspended;
  a110.status_reason = "annual review failed";
  const auth::Caller op110{auth::Role::kAgencyOperator, "110", 2};
  const absl::Status s =
      CheckIssueAuthority(op110, a110, R("1d"), Basis::kTournament);
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << s;
  EXPECT_NE(s.message().find("annual review failed"), std::string::npos) << s;
  // The authority rules come first: a grade above the agency's authority is
  // still PERMISSION_DENIED for a suspended agency.
  EXPECT_EQ(
      CheckIssueAuthority(op110, a110, R("5d"), Basis::kTournament).code(),
      absl::StatusCode::kPermissionDenied);
}

TEST(StateAtTest, UnderNoticeUntilTheExactSecond) {
  Certificate c;
  c.grade = R("4d");
  c.notice_until_unix = 1'000'000;
  EXPECT_EQ(StateAt(c, 999'999), CertificateState::kUnderNotice);
  EXPECT_EQ(StateAt(c, 1'000'000), CertificateState::kEffective);
  c.has_open_objection = true;
  EXPECT_EQ(StateAt(c, 2'000'000), CertificateState::kUnderNotice);
  c.revoked_unix = 1'500'000;
  EXPECT_EQ(StateAt(c, 2'000'000), CertificateState::kRevoked);
  Certificate kyu;
  EXPECT_EQ(StateAt(kyu, 0), CertificateState::kEffective);
}

TEST(CheckStockWindowTest, FirstToThirtyFirstDecemberOfThePreviousYear) {
  struct Row {
    Date today;
    bool ok;
  };
  const Row rows[] = {{{2025, 11, 30}, false}, {{2025, 12, 1}, true},
                      {{2025, 12, 15}, true},  {{2025, 12, 31}, true},
                      {{2026, 1, 1}, false},   {{2024, 12, 15}, false},
                      {{2026, 12, 1}, false}};
  for (const Row& row : rows) {
    const absl::Status s = CheckStockWindow(2026, row.today);
    EXPECT_EQ(s.ok(), row.ok) << row.today.ToString() << ": " << s;
    if (!row.ok) {
      EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
      EXPECT_NE(s.message().find("2025-12-01"), std::string::npos) << s;
    }
  }
}

TEST(CheckAppraisalAgeTest, EighteenOnTheBirthday) {
  const Date birth{2007, 3, 15};
  EXPECT_EQ(CheckAppraisalAge(birth, {2025, 3, 14}).code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_TRUE(CheckAppraisalAge(birth, {2025, 3, 15}).ok());
  EXPECT_TRUE(CheckAppraisalAge(birth, {2040, 1, 1}).ok());
  EXPECT_EQ(CheckAppraisalAge(std::nullopt, {2025, 3, 15}).code(),
            absl::StatusCode::kFailedPrecondition);
  // 29 February: 18 on 1 March of a common year.
  EXPECT_FALSE(CheckAppraisalAge(Date{2008, 2, 29}, {2026, 2, 28}).ok());
  EXPECT_TRUE(CheckAppraisalAge(Date{2008, 2, 29}, {2026, 3, 1}).ok());
}

TEST(MissingHolderFieldsTest, OnlyOneDanAndAboveNeedAFullRecord) {
  registry::Player p;
  p.name = "张三";
  p.agency_prefix = "110";
  EXPECT_TRUE(MissingHolderFields(p, R("1k")).empty());
  EXPECT_EQ(MissingHolderFields(p, R("1d")),
            (std::vector<std::string>{"gender", "birth date"}));
  p.gender = registry::Gender::kFemale;
  EXPECT_EQ(MissingHolderFields(p, R("4d")),
            (std::vector<std::string>{"birth date"}));
  p.birth_date = Date{1990, 1, 1};
  EXPECT_TRUE(MissingHolderFields(p, R("8d")).empty());
}

TEST(FallbackRankTest, Cases) {
  Certificate three;
  three.grade = R("3d");
  three.rank_applied = true;
  three.rank_before = R("1d");
  // The certificate gave the current rank: the best other effective grade,
  // else the rank before it.
  EXPECT_EQ(FallbackRank(three, R("3d"), {}), R("1d"));
  EXPECT_EQ(FallbackRank(three, R("3d"), {R("1k"), R("2d")}), R("2d"));
  EXPECT_EQ(FallbackRank(three, R("3d"), {R("3d")}), R("3d"));
  // Not what gave the current rank: unchanged.
  EXPECT_EQ(FallbackRank(three, R("5d"), {}), R("5d"));
  Certificate pending = three;
  pending.rank_applied = false;
  EXPECT_EQ(FallbackRank(pending, R("3d"), {}), R("3d"));
  // No rank before and no other certificate: unranked again.
  Certificate first = three;
  first.rank_before.reset();
  EXPECT_EQ(FallbackRank(first, R("3d"), {}), std::nullopt);
}

TEST(FallbackRankTest, SkipsRanksThatRestedOnRevokedCertificates) {
  // 1k -> 1d (certificate A) -> 3d (certificate B); A is revoked first (the
  // rank stays 3d), then B: the rank goes back to 1k, not to A's 1d.
  Certificate a;
  a.grade = R("1d");
  a.rank_applied = true;
  a.rank_before = R("1k");
  a.revoked_unix = 100;
  Certificate b;
  b.grade = R("3d");
  b.rank_applied = true;
  b.rank_before = R("1d");
  EXPECT_EQ(FallbackRank(b, R("3d"), {}, {a}), R("1k"));
  // Without the revoked history the earlier rank is taken as it stands.
  EXPECT_EQ(FallbackRank(b, R("3d"), {}), R("1d"));
  // A still-effective certificate above the walked-back rank wins.
  EXPECT_EQ(FallbackRank(b, R("3d"), {R("2k")}, {a}), R("1k"));
  EXPECT_EQ(FallbackRank(b, R("3d"), {R("2d")}, {a}), R("2d"));
}

TEST(MaskNameTest, FirstCharacterKept) {
  EXPECT_EQ(MaskName("张三"), "张*");
  EXPECT_EQ(MaskName("欧阳锋"), "欧**");
  EXPECT_EQ(MaskName("Li Wei"), "L*****");
  EXPECT_EQ(MaskName("王"), "王");
  EXPECT_EQ(MaskName(""), "");
}

}  // namespace
}  // namespace gorank::certificates
