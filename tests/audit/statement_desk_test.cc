// StatementDesk (statement_desk.h) over the certificate office and the SQL
// repositories on a temp database (as rankd wires it): a statement states
// the stored certificate and names its issuance entry, is deterministic and
// verifies with the federation key; revoked certificates get none; access
// is Certification::Get's; FindIssuance finds an issuance among many
// entries by its time and nothing outside the window; the revocation list
// names every revocation with its time, signed, and follows the log.
#include "services/audit/statement_desk.h"

#include <memory>
#include <string>

#include "services/audit/audit_entry.h"
#include "storage/sql_audit_repository.h"
#include "tests/certificates/certification_fixture.h"

namespace gorank::audit {
namespace {

using certificates::Certificate;
using certificates::CertificationFixture;

class StatementDeskTest : public CertificationFixture {
 protected:
  StatementDeskTest()
      : audit_repo_(std::make_unique<storage::SqlAuditRepository>(db_.get())),
        key_(*SigningKey::FromSeed(std::string(32, 'k'))),
        desk_(office_.get(), registry_repo_.get(), audit_repo_.get(), &key_,
              &clock_) {}

  void SetUp() override { GiveStock("110", 2025, 50); }

  // The audit entry at `index` (fails the test when it cannot be read).
  AuditEntry EntryAt(int64_t index) {
    auto bytes = audit_repo_->Entries(index, index + 1);
    EXPECT_TRUE(bytes.ok()) << bytes.status();
    if (!bytes.ok() || bytes->size() != 1) return {};
    auto e = AuditEntry::Decode((*bytes)[0]);
    EXPECT_TRUE(e.ok()) << e.status();
    return e.ok() ? *e : AuditEntry{};
  }

  int64_t LogSize() { return *audit_repo_->LogSize(); }

  std::unique_ptr<storage::SqlAuditRepository> audit_repo_;
  SigningKey key_;
  StatementDesk desk_;
};

TEST_F(StatementDeskTest, StatesTheCertificateAndNamesItsIssuanceEntry) {
  const auto p = MustRegister("张三", "110", certificates::R("1k"));
  const Certificate c = MustIssue(op110_, Request(p, "3d"));
  absl::StatusOr<SignedStatement> s =
      desk_.Statement(op110_, c.number.ToString());
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->statement.number, c.number.ToString());
  EXPECT_EQ(s->statement.discipline, "go");
  EXPECT_EQ(s->statement.grade, "3d");
  EXPECT_EQ(s->statement.issue_date, "2025-06-02");
  EXPECT_EQ(s->statement.agency_prefix, "110");
  EXPECT_EQ(s->statement.key_id, key_.KeyId());
  EXPECT_TRUE(NameMatches(s->statement, "张三"));
  EXPECT_FALSE(NameMatches(s->statement, "李四"));

  ASSERT_GE(s->statement.log_index, 0);
  const AuditEntry issue = EntryAt(s->statement.log_index);
  EXPECT_EQ(issue.action, "certificate.issue");
  EXPECT_EQ(issue.subject, "certificate:" + c.number.ToString());

  // The text is the statement, signed by the federation key.
  absl::StatusOr<ParsedStatement> parsed = ParseStatement(s->text);
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(parsed->statement, s->statement);
  EXPECT_EQ(CheckStatement(*parsed, key_.public_key()), StatementCheck::kValid);
}

TEST_F(StatementDeskTest, IsDeterministic) {
  const auto p = MustRegister("张三", "110", certificates::R("1k"));
  const Certificate c = MustIssue(op110_, Request(p, "2d"));
  const std::string number = c.number.ToString();
  absl::StatusOr<SignedStatement> first = desk_.Statement(op110_, number);
  ASSERT_TRUE(first.ok()) << first.status();
  // Later, after other entries, and asked by someone else: the same text.
  clock_.Advance(3 * 86400);
  MustRegister("李四", "110");
  MustIssue(op110_, Request(p, "3d"));
  for (const auth::Caller& caller : {national_, auditor_, op110_}) {
    absl::StatusOr<SignedStatement> again = desk_.Statement(caller, number);
    ASSERT_TRUE(again.ok()) << again.status();
    EXPECT_EQ(again->text, first->text);
  }
}

TEST_F(StatementDeskTest, RevokedCertificateGetsNoStatement) {
  const auto p = MustRegister("张三", "110", certificates::R("1k"));
  const Certificate c = MustIssue(op110_, Request(p, "1d"));
  ASSERT_TRUE(office_->Revoke(op110_, c.number.ToString(), "forged").ok());
  absl::StatusOr<SignedStatement> s =
      desk_.Statement(national_, c.number.ToString());
  EXPECT_EQ(s.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(s.status().message().find("revoked"), std::string::npos)
      << s.status();
  EXPECT_NE(s.status().message().find(c.number.ToString()), std::string::npos)
      << s.status();
}

TEST_F(StatementDeskTest, AccessIsCertificationGets) {
  const auto p = MustRegister("张三", "110", certificates::R("1k"));
  const std::string number =
      MustIssue(op110_, Request(p, "1d")).number.ToString();
  EXPECT_EQ(desk_.Statement(op120_, number).status().code(),
            absl::StatusCode::kNotFound);
  EXPECT_EQ(desk_.Statement(national_, "110259999").status().code(),
            absl::StatusCode::kNotFound);
  EXPECT_EQ(desk_.Statement(national_, "12345").status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(desk_.Statement(public_, number).status().code(),
            absl::StatusCode::kPermissionDenied);
}

TEST_F(StatementDeskTest, FindIssuanceFindsEachAmongManyEntriesByTime) {
  std::vector<Certificate> issued;
  for (int day = 0; day < 5; ++day) {
    // Entries before and after each issuance, at the same second and later.
    for (int i = 0; i < 30; ++i) {
      MustRegister("选手" + std::to_string(day * 100 + i), "110");
    }
    const auto p = MustRegister("持证" + std::to_string(day), "110",
                                certificates::R("1k"));
    issued.push_back(MustIssue(op110_, Request(p, "1d")));
    for (int i = 0; i < 10; ++i) {
      MustRegister("后来" + std::to_string(day * 100 + i), "110");
      clock_.Advance(60);
    }
    clock_.Advance(86400);
  }
  ASSERT_GT(LogSize(), 200);
  for (const Certificate& c : issued) {
    absl::StatusOr<int64_t> at =
        desk_.FindIssuance(c.number.ToString(), c.issued_unix);
    ASSERT_TRUE(at.ok()) << at.status();
    ASSERT_GE(*at, 0) << c.number.ToString();
    EXPECT_EQ(EntryAt(*at).subject, "certificate:" + c.number.ToString());
    EXPECT_EQ(EntryAt(*at).action, "certificate.issue");
    // Within the slack the same entry is found; a day off, none.
    EXPECT_EQ(*desk_.FindIssuance(c.number.ToString(),
                                  c.issued_unix + kIssuanceSlackSeconds),
              *at);
    EXPECT_EQ(*desk_.FindIssuance(c.number.ToString(), c.issued_unix - 86400),
              -1);
    EXPECT_EQ(*desk_.FindIssuance(c.number.ToString(), c.issued_unix + 86400),
              -1);
  }
  EXPECT_EQ(*desk_.FindIssuance("110259999", issued[2].issued_unix), -1);
  EXPECT_EQ(*desk_.FindIssuance(issued[0].number.ToString(), 0), -1);
}

TEST_F(StatementDeskTest, RevocationListNamesEachRevocationSignedAndFollows) {
  absl::StatusOr<RevocationList> empty = desk_.Revocations();
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_TRUE(empty->revoked.empty());
  EXPECT_EQ(empty->tree_size, LogSize());
  EXPECT_TRUE(VerifyRevocationList(*empty, key_.public_key()).ok);

  const auto p = MustRegister("张三", "110", certificates::R("1k"));
  const Certificate one = MustIssue(op110_, Request(p, "1d"));
  const Certificate two = MustIssue(op110_, Request(p, "2d"));
  const Certificate kept = MustIssue(op110_, Request(p, "3d"));
  clock_.Advance(86400);
  const int64_t first_revoked = clock_.NowSeconds();
  ASSERT_TRUE(office_->Revoke(op110_, two.number.ToString(), "annulled").ok());

  absl::StatusOr<RevocationList> list = desk_.Revocations();
  ASSERT_TRUE(list.ok()) << list.status();
  ASSERT_EQ(list->revoked.size(), 1u);
  EXPECT_EQ(list->revoked[0],
            (Revocation{two.number.ToString(), first_revoked}));
  EXPECT_EQ(list->tree_size, LogSize());
  EXPECT_EQ(list->time_unix, clock_.NowSeconds());
  EXPECT_TRUE(VerifyRevocationList(*list, key_.public_key()).ok);

  clock_.Advance(86400);
  const int64_t second_revoked = clock_.NowSeconds();
  ASSERT_TRUE(office_->Revoke(national_, one.number.ToString(), "forged").ok());
  list = desk_.Revocations();
  ASSERT_TRUE(list.ok()) << list.status();
  ASSERT_EQ(list->revoked.size(), 2u);
  EXPECT_EQ(list->Find(one.number.ToString())->revoked_unix, second_revoked);
  EXPECT_EQ(list->Find(two.number.ToString())->revoked_unix, first_revoked);
  EXPECT_FALSE(list->Find(kept.number.ToString()).has_value());
  EXPECT_EQ(list->tree_size, LogSize());
  EXPECT_TRUE(VerifyRevocationList(*list, key_.public_key()).ok);

  // A desk started afresh over the same log reads the same list.
  StatementDesk fresh(office_.get(), registry_repo_.get(), audit_repo_.get(),
                      &key_, &clock_);
  absl::StatusOr<RevocationList> again = fresh.Revocations();
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->revoked, list->revoked);
}

}  // namespace
}  // namespace gorank::audit
