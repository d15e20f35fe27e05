// ImportCertificates through a real gRPC channel to an in-process rankd
// (clock 2025-12-10 12:00 Asia/Shanghai; also run on PostgreSQL): historic
// numbers stored and verified publicly, the counter moved past them, no
// stock used, notice from the issue date (also for IssueCertificate with a
// past date), ranks raised never lowered, matched re-imports, every refusal
// kind with its line and column, collisions, dry run, skip_bad, operator
// scoping, the stream's own rules, the audit entry and the annual report.
#include <string>
#include <vector>

#include "services/registry/resident_id.h"
#include "storage/database.h"
#include "tests/certificates/integration/grpc_fixture.h"

namespace gorank::certificates {
namespace {

struct Row {
  std::string number, holder, grade, issue_date, issuing_agency, discipline;
};

// A valid resident ID of someone born on 1990-01-01 with sequence `seq`.
std::string ResidentId(int seq) {
  std::string first17 =
      "11010119900101" + std::to_string(100 + seq).substr(0, 3);
  return first17 + registry::ResidentIdCheckChar(first17);
}

struct Options {
  bool dry_run = false;
  bool skip_bad = false;
  std::string file_name = "history.csv";
};

class CertificateImportTest : public GrpcFixture {
 protected:
  // Rows on lines 2, 3, ... (the header is line 1), 1,000 a message.
  grpc::Status Import(const std::string& token, const std::vector<Row>& rows,
                      v1::ImportSummary* out, Options o = Options()) {
    v1::ImportCertificatesResponse resp;
    auto ctx = Context(token);
    auto writer = certs_->ImportCertificates(ctx.get(), &resp);
    v1::ImportCertificatesRequest m;
    m.set_dry_run(o.dry_run);
    m.set_skip_bad(o.skip_bad);
    m.set_file_name(o.file_name);
    m.set_file_sha256(std::string(64, 'a'));
    for (size_t i = 0; i < rows.size(); ++i) {
      auto* r = m.add_rows();
      r->set_line(static_cast<int>(i) + 2);
      r->set_number(rows[i].number);
      r->set_holder(rows[i].holder);
      r->set_grade(rows[i].grade);
      r->set_issue_date(rows[i].issue_date);
      r->set_issuing_agency(rows[i].issuing_agency);
      r->set_discipline(rows[i].discipline);
      if (m.rows_size() == 1000) {
        if (!writer->Write(m)) break;
        m.Clear();
      }
    }
    if (m.rows_size() > 0 || rows.empty()) writer->Write(m);
    writer->WritesDone();
    grpc::Status s = writer->Finish();
    if (out) *out = resp.summary();
    return s;
  }
  v1::ImportSummary MustImport(const std::vector<Row>& rows,
                               Options o = Options()) {
    v1::ImportSummary summary;
    const grpc::Status s = Import(admin_, rows, &summary, o);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return summary;
  }
  grpc::Status Get(const std::string& number, v1::Certificate* out) {
    v1::GetCertificateRequest req;
    req.set_number(number);
    v1::GetCertificateResponse resp;
    grpc::Status s = certs_->GetCertificate(Context(admin_).get(), req, &resp);
    *out = resp.certificate();
    return s;
  }
  v1::VerifyCertificateResponse Verify(const std::string& number,
                                       const std::string& name) {
    v1::VerifyCertificateRequest req;
    req.set_number(number);
    req.set_holder_name(name);
    v1::VerifyCertificateResponse resp;
    const grpc::Status s =
        certs_->VerifyCertificate(Context("").get(), req, &resp);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return resp;
  }
  v1::Player Player(int64_t id) {
    v1::GetPlayerRequest req;
    req.set_player_id(id);
    v1::GetPlayerResponse resp;
    const grpc::Status s =
        players_->GetPlayer(Context(admin_).get(), req, &resp);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return resp.player();
  }
  std::vector<v1::RankHistoryEntry> History(int64_t id) {
    v1::GetRankHistoryRequest req;
    req.set_player_id(id);
    v1::GetRankHistoryResponse resp;
    const grpc::Status s =
        players_->GetRankHistory(Context(admin_).get(), req, &resp);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return {resp.entries().begin(), resp.entries().end()};
  }
  int64_t LogSize() {
    v1::GetCheckpointRequest req;
    v1::GetCheckpointResponse resp;
    const grpc::Status s =
        audit_->GetCheckpoint(Context(admin_).get(), req, &resp);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return resp.checkpoint().tree_size();
  }
  std::string LastEntry() {
    const int64_t size = LogSize();
    v1::GetEntriesRequest req;
    req.set_begin(size - 1);
    req.set_end(size);
    v1::GetEntriesResponse resp;
    const grpc::Status s =
        audit_->GetEntries(Context(admin_).get(), req, &resp);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return resp.entries_size() == 1 ? resp.entries(0).entry() : "";
  }
  // Gives the player `external_id` in `agency` (player import writes these).
  void SetExternalId(int64_t player, const std::string& agency,
                     const std::string& external_id) {
    const absl::Status s =
        server_->database()->Write([&](storage::Connection& c) {
          static constexpr char kSql[] =
              "INSERT INTO player_external_ids(agency_prefix, external_id, "
              "player_id) "
              "VALUES(?1, ?2, ?3)";
          auto st = c.Prepare(kSql);
          if (!st.ok()) return st.status();
          (*st)->Bind(1, agency).Bind(2, external_id).Bind(3, player);
          return (*st)->Run();
        });
    ASSERT_TRUE(s.ok()) << s;
  }
  static const v1::ImportRefusal* RefusalAt(const v1::ImportSummary& s,
                                            int line,
                                            const std::string& column) {
    for (const auto& r : s.refusals()) {
      if (r.line() == line && r.column() == column) return &r;
    }
    return nullptr;
  }
};

TEST_F(CertificateImportTest,
       HistoricNumbersAreStoredVerifyPubliclyAndMoveTheCounter) {
  const v1::Player li = MustRegister("李娜", "110", "1k", ResidentId(1));
  const v1::Player wang = MustRegister("王芳", "110", "2k");
  MustGiveStock("110", 2025, 10);
  const int64_t log_before = LogSize();
  const v1::ImportSummary s = MustImport({
      {"110150001", ResidentId(1), "2d", "2015-03-01", "110", ""},
      {"110 15 0007", "id:" + std::to_string(wang.id()), "业余3段",
       "2015-06-01", "110", "go"},
      {"000240003", std::to_string(li.id()), "6d", "2024-05-01", "000", ""},
      {"110250005", std::to_string(wang.id()), "1k", "2025-02-01", "110",
       "gomoku"},
  });
  EXPECT_EQ(s.rows(), 4);
  EXPECT_EQ(s.added(), 4);
  EXPECT_EQ(s.refused(), 0)
      << (s.refusals_size() ? s.refusals(0).reason() : "");
  EXPECT_TRUE(s.stored());
  ASSERT_EQ(s.outcomes_size(), 4);
  EXPECT_EQ(s.outcomes(1).number(), "110150007");
  EXPECT_EQ(s.outcomes(1).player_id(), wang.id());
  // One audit entry for the whole file, marked as an import.
  EXPECT_EQ(LogSize(), log_before + 1);
  const std::string entry = LastEntry();
  EXPECT_NE(entry.find("certificate.import"), std::string::npos);
  EXPECT_NE(entry.find("110150007"), std::string::npos);

  v1::Certificate c;
  ASSERT_TRUE(Get("110150007", &c).ok());
  EXPECT_TRUE(c.imported());
  EXPECT_EQ(c.state(), v1::CERTIFICATE_STATE_EFFECTIVE);
  EXPECT_EQ(c.player_id(), wang.id());
  EXPECT_EQ(c.basis_reference(), "imported from history.csv, line 3");
  // The 2024 6d's notice ran from its issue date: long over, effective.
  ASSERT_TRUE(Get("000240003", &c).ok());
  EXPECT_EQ(c.state(), v1::CERTIFICATE_STATE_EFFECTIVE);
  EXPECT_EQ(Verify("000240003", "李娜").outcome(), v1::VERIFY_OUTCOME_VALID);
  EXPECT_EQ(Verify("110150001", "李娜").outcome(), v1::VERIFY_OUTCOME_VALID);
  const v1::VerifyCertificateResponse gomoku = Verify("110250005", "王芳");
  EXPECT_EQ(gomoku.outcome(), v1::VERIFY_OUTCOME_VALID);
  EXPECT_EQ(gomoku.discipline(), v1::DISCIPLINE_GOMOKU);

  // Ranks: raised by each effective certificate in date order.
  EXPECT_EQ(Player(li.id()).rank().notation(), "6d");
  EXPECT_EQ(Player(wang.id()).rank().notation(), "3d");
  const auto history = History(li.id());
  ASSERT_EQ(history.size(), 3u);  // registration, 2d, 6d
  EXPECT_EQ(history[1].reason(), v1::RANK_CHANGE_REASON_CERTIFICATE);
  EXPECT_EQ(history[1].to_rank().notation(), "2d");
  EXPECT_EQ(history[1].basis(),
            "certificate 110150001 (imported from history.csv, line 2)");
  EXPECT_EQ(history[2].to_rank().notation(), "6d");
  EXPECT_EQ(history[2].effective_date().year(), 2024);

  // The next issued 2025 number of 110 follows the highest imported serial,
  // and the imported certificate used none of the stock.
  v1::Certificate issued;
  const v1::Player zhao = MustRegister("赵敏", "110", "3k");
  ASSERT_TRUE(
      Issue(admin_, IssueRequest(zhao.id(), "2k", "110"), &issued).ok());
  EXPECT_EQ(issued.number(), "110250006");
  EXPECT_FALSE(issued.imported());
  v1::GetStockRequest stock;
  stock.set_agency_prefix("110");
  stock.set_year(2025);
  v1::GetStockResponse order;
  ASSERT_TRUE(certs_->GetStock(Context(admin_).get(), stock, &order).ok());
  EXPECT_EQ(order.order().used(), 1);
}

TEST_F(CertificateImportTest,
       ReimportingTheSameFileMatchesEveryRowAndChangesNothing) {
  const v1::Player p = MustRegister("李娜", "110", "1k");
  const std::vector<Row> rows = {
      {"110150001", std::to_string(p.id()), "2d", "2015-03-01", "110", ""},
      {"110150002", std::to_string(p.id()), "1d", "2015-01-01", "110", ""},
  };
  EXPECT_EQ(MustImport(rows).added(), 2);
  const int64_t log = LogSize();
  const v1::ImportSummary again = MustImport(rows);
  EXPECT_EQ(again.added(), 0);
  EXPECT_EQ(again.matched(), 2);
  EXPECT_EQ(again.refused(), 0);
  EXPECT_TRUE(again.outcomes(0).matched());
  EXPECT_EQ(LogSize(), log);
  EXPECT_EQ(Player(p.id()).rank().notation(), "2d");
  EXPECT_EQ(History(p.id()).size(), 3u);  // registration, 1d, 2d: never lowered
}

TEST_F(CertificateImportTest,
       ACollisionWithAStoredCertificateIsRefusedNamingBoth) {
  const v1::Player a = MustRegister("李娜", "110", "1k");
  const v1::Player b = MustRegister("王芳", "110", "1k");
  MustGiveStock("110", 2025, 10);
  v1::Certificate issued;
  ASSERT_TRUE(Issue(admin_, IssueRequest(a.id(), "1d", "110"), &issued).ok());
  ASSERT_EQ(issued.number(), "110250001");
  v1::ImportSummary s;
  ASSERT_TRUE(Import(admin_,
                     {{"110250001", std::to_string(b.id()), "2d", "2025-03-01",
                       "110", ""}},
                     &s)
                  .ok());
  EXPECT_FALSE(s.stored());
  const v1::ImportRefusal* r = RefusalAt(s, 2, "number");
  ASSERT_NE(r, nullptr);
  EXPECT_NE(r->reason().find("110250001 is already certificate of player " +
                             std::to_string(a.id()) + " (李娜), 1d"),
            std::string::npos)
      << r->reason();
  EXPECT_NE(r->reason().find("this row is player " + std::to_string(b.id()) +
                             " (王芳), 2d"),
            std::string::npos)
      << r->reason();
}

TEST_F(CertificateImportTest,
       EveryRefusalNamesItsLineAndColumnAndNothingIsStored) {
  const v1::Player p = MustRegister("李娜", "110", "1k");
  const v1::Player q = MustRegister("王芳", "110", "1k");
  const std::string id = std::to_string(p.id());
  const std::string h = "id:" + id;
  // q's external id is p's player id: the bare digits name two players.
  SetExternalId(q.id(), "110", id);
  std::string bad_id = ResidentId(5);
  bad_id[17] = bad_id[17] == '0' ? '1' : '0';
  const int64_t log = LogSize();
  v1::ImportSummary s;
  ASSERT_TRUE(
      Import(
          admin_,
          {
              {"110150001", h, "2d", "2015-03-01", "110", ""},        // 2 good
              {"11015001", h, "2d", "2015-03-01", "110", ""},         // 3
              {"120150001", h, "2d", "2015-03-01", "110", ""},        // 4
              {"110160002", h, "2d", "2015-03-01", "110", ""},        // 5
              {"999150001", h, "2d", "2015-03-01", "999", ""},        // 6
              {"110250003", h, "2d", "2025-12-11", "110", ""},        // 7
              {"110150004", h, "2d", "2015-02-30", "110", ""},        // 8
              {"110150005", h, "2x", "2015-03-01", "110", ""},        // 9
              {"110150006", h, "5d", "2015-03-01", "110", ""},        // 10
              {"000150007", h, "7d", "2015-03-01", "000", "gomoku"},  // 11
              {"110150008", h, "2d", "2015-03-01", "110", "chess"},   // 12
              {"110150009", "", "2d", "2015-03-01", "110", ""},       // 13
              {"110150010", "no-such", "2d", "2015-03-01", "110", ""},   // 14
              {"110150011", id, "2d", "2015-03-01", "110", ""},          // 15
              {"110150001", "id:" + id, "2d", "2015-03-01", "110", ""},  // 16
              {"110150012", bad_id, "2d", "2015-03-01", "110", ""},      // 17
              {"110000000", h, "2d", "2015-03-01", "110", ""},           // 18
          },
          &s)
          .ok());
  EXPECT_EQ(s.rows(), 17);
  EXPECT_FALSE(s.stored());
  struct Expect {
    int line;
    const char* column;
    const char* says;
  };
  const std::vector<Expect> expected = {
      {3, "number", "is not a certificate number: write nine digits PPPYYSSSS"},
      {4, "number", "starts with prefix 120 but issuing_agency is 110"},
      {5, "number", "YY is the last two digits of the year of issue"},
      {6, "issuing_agency", "no agency has the prefix '999'"},
      {7, "issue_date", "is in the future (today is 2025-12-10)"},
      {8, "issue_date", "'2015-02-30' is not a date: write YYYY-MM-DD"},
      {9, "grade", "write a rank such as 3d, 5k or 业余3段"},
      {10, "grade", "issued by the national body (prefix 000) only"},
      {11, "grade", "the highest Gomoku dan awarded for now is 6d"},
      {12, "discipline", "write go or gomoku"},
      {13, "holder", "the holder is missing"},
      {14, "holder", "no player has external id no-such of agency 110"},
      {15, "holder", "names different players"},
      {16, "number", "number 110150001 is also on line 2 of this file"},
      {17, "holder", "check character does not match"},
      {18, "number", "is not a certificate number"},
  };
  for (const Expect& e : expected) {
    const v1::ImportRefusal* r = RefusalAt(s, e.line, e.column);
    ASSERT_NE(r, nullptr) << "line " << e.line << " column " << e.column;
    EXPECT_NE(r->reason().find(e.says), std::string::npos)
        << "line " << e.line << ": " << r->reason();
  }
  EXPECT_EQ(s.refused(), 16);
  EXPECT_EQ(s.added(), 1);  // line 2 would be added, but nothing is stored
  // The ambiguous holder says how to write each reading.
  const v1::ImportRefusal* amb = RefusalAt(s, 15, "holder");
  EXPECT_NE(amb->reason().find("write id:" + id + " or 110:" + id),
            std::string::npos)
      << amb->reason();
  v1::Certificate c;
  EXPECT_EQ(Get("110150001", &c).error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(LogSize(), log);
  EXPECT_EQ(Player(p.id()).rank().notation(), "1k");
}

TEST_F(CertificateImportTest, SkipBadStoresTheGoodRowsAndDryRunStoresNothing) {
  const v1::Player p = MustRegister("李娜", "110", "1k");
  SetExternalId(p.id(), "110", "BJ-0042");
  const std::vector<Row> rows = {
      {"110150001", "BJ-0042", "2d", "2015-03-01", "110", ""},
      {"110150002", "BJ-9999", "2d", "2015-03-01", "110", ""},
      {"110150003", "110:BJ-0042", "3d", "2015-04-01", "110", ""},
  };
  Options dry;
  dry.dry_run = true;
  dry.skip_bad = true;
  const int64_t log = LogSize();
  v1::ImportSummary s = MustImport(rows, dry);
  EXPECT_FALSE(s.stored());
  EXPECT_EQ(s.added(), 2);
  EXPECT_EQ(s.refused(), 1);
  v1::Certificate c;
  EXPECT_EQ(Get("110150001", &c).error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(LogSize(), log);

  Options skip;
  skip.skip_bad = true;
  s = MustImport(rows, skip);
  EXPECT_TRUE(s.stored());
  EXPECT_EQ(s.added(), 2);
  EXPECT_EQ(s.refused(), 1);
  ASSERT_NE(RefusalAt(s, 3, "holder"), nullptr);
  ASSERT_TRUE(Get("110150003", &c).ok());
  EXPECT_EQ(c.player_id(), p.id());
  EXPECT_EQ(Player(p.id()).rank().notation(), "3d");
}

TEST_F(CertificateImportTest, TheNoticeRunsFromTheIssueDate) {
  const v1::Player p = MustRegister("李娜", "110", "3d");
  // Issued 5 days ago: 2 days of the 7-day notice are left.
  const v1::ImportSummary s = MustImport({
      {"000250001", std::to_string(p.id()), "5d", "2025-12-05", "000", ""},
      {"000240001", std::to_string(p.id()), "4d", "2024-06-01", "000", ""},
  });
  ASSERT_TRUE(s.stored());
  EXPECT_NE(s.outcomes(0).note().find("under public notice until 2025-12-12"),
            std::string::npos)
      << s.outcomes(0).note();
  v1::Certificate c;
  ASSERT_TRUE(Get("000250001", &c).ok());
  EXPECT_EQ(c.state(), v1::CERTIFICATE_STATE_UNDER_NOTICE);
  EXPECT_EQ(c.notice_until_unix(), clock_.NowSeconds() + 2 * 86400);
  EXPECT_EQ(Verify("000250001", "李娜").outcome(),
            v1::VERIFY_OUTCOME_UNDER_NOTICE);
  EXPECT_EQ(Player(p.id()).rank().notation(),
            "4d");  // the 2024 4d is effective
  clock_.Advance(2 * 86400);
  EXPECT_EQ(Verify("000250001", "李娜").outcome(), v1::VERIFY_OUTCOME_VALID);
  EXPECT_EQ(Player(p.id()).rank().notation(), "5d");
}

TEST_F(CertificateImportTest, IssuingWithAPastDateFollowsTheSameNoticeRule) {
  const v1::Player p = MustRegister("李娜", "110", "3d");
  const v1::Player q = MustRegister("王芳", "110", "3d");
  v1::IssueCertificateRequest old = IssueRequest(p.id(), "4d", "000");
  old.mutable_issue_date()->set_year(2025);
  old.mutable_issue_date()->set_month(11);
  old.mutable_issue_date()->set_day(1);
  v1::Certificate c;
  ASSERT_TRUE(Issue(admin_, old, &c).ok());
  EXPECT_EQ(c.number(), "000250001");
  EXPECT_EQ(c.state(), v1::CERTIFICATE_STATE_EFFECTIVE);
  EXPECT_LT(c.notice_until_unix(), clock_.NowSeconds());
  EXPECT_EQ(Player(p.id()).rank().notation(), "4d");

  v1::IssueCertificateRequest recent = IssueRequest(q.id(), "4d", "000");
  recent.mutable_issue_date()->set_year(2025);
  recent.mutable_issue_date()->set_month(12);
  recent.mutable_issue_date()->set_day(8);
  ASSERT_TRUE(Issue(admin_, recent, &c).ok());
  EXPECT_EQ(c.state(), v1::CERTIFICATE_STATE_UNDER_NOTICE);
  EXPECT_EQ(c.notice_until_unix(), clock_.NowSeconds() + 5 * 86400);
  EXPECT_EQ(Player(q.id()).rank().notation(), "3d");
  clock_.Advance(5 * 86400);
  EXPECT_EQ(Player(q.id()).rank().notation(), "4d");
}

TEST_F(CertificateImportTest, TheAnnualReportCountsImportedCertificatesApart) {
  const v1::Player p = MustRegister("李娜", "110", "1k");
  MustGiveStock("110", 2025, 1);
  MustImport({
      {"110250001", std::to_string(p.id()), "1d", "2025-01-05", "110", ""},
      {"110250002", std::to_string(p.id()), "2d", "2025-02-05", "110", ""},
  });
  v1::Certificate issued;
  ASSERT_TRUE(Issue(admin_, IssueRequest(p.id(), "3d", "110"), &issued).ok());
  EXPECT_EQ(issued.number(), "110250003");
  v1::GetAnnualReportRequest req;
  req.set_agency_prefix("110");
  req.set_year(2025);
  v1::GetAnnualReportResponse resp;
  const grpc::Status s =
      audit_->GetAnnualReport(Context(admin_).get(), req, &resp);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(resp.report().issued(), 3);
  EXPECT_EQ(resp.report().imported(), 2);
  EXPECT_EQ(resp.report().stock_used(), 1);
  EXPECT_FALSE(resp.report().stock_exceeded());
  EXPECT_TRUE(resp.report().missing_serials().empty());
}

TEST_F(CertificateImportTest,
       AnOperatorImportsOnlyItsOwnAgencysCertificatesOfItsOwnPlayers) {
  const std::string op110 = MustCreateToken(v1::ROLE_AGENCY_OPERATOR, "110");
  const v1::Player mine = MustRegister("李娜", "110", "1k");
  const v1::Player theirs = MustRegister("王芳", "120", "1k");
  v1::ImportSummary s;
  ASSERT_TRUE(Import(op110,
                     {
                         {"110150001", std::to_string(mine.id()), "2d",
                          "2015-03-01", "110", ""},
                         {"120150001", std::to_string(mine.id()), "2d",
                          "2015-03-01", "120", ""},
                         {"110150002", std::to_string(theirs.id()), "2d",
                          "2015-03-01", "110", ""},
                         {"000150001", std::to_string(mine.id()), "5d",
                          "2015-03-01", "000", ""},
                     },
                     &s)
                  .ok());
  EXPECT_FALSE(s.stored());
  EXPECT_EQ(s.refused(), 3);
  ASSERT_NE(RefusalAt(s, 3, "issuing_agency"), nullptr);
  const v1::ImportRefusal* other = RefusalAt(s, 4, "holder");
  ASSERT_NE(other, nullptr);
  // Another agency's player is refused exactly like an unknown one.
  EXPECT_NE(other->reason().find("no player of agency 110 has player id"),
            std::string::npos)
      << other->reason();
  ASSERT_NE(RefusalAt(s, 5, "issuing_agency"), nullptr);

  const std::string auditor = MustCreateToken(v1::ROLE_AUDITOR, "");
  const std::vector<Row> one = {
      {"110150001", std::to_string(mine.id()), "2d", "2015-03-01", "110", ""}};
  EXPECT_EQ(Import(auditor, one, nullptr).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_NE(Import("", one, nullptr).error_code(), grpc::StatusCode::OK);
  ASSERT_TRUE(Import(op110, one, &s).ok());
  EXPECT_TRUE(s.stored());
  EXPECT_EQ(s.added(), 1);
}

TEST_F(CertificateImportTest, TheStreamsOwnRulesAreStatuses) {
  // No rows.
  EXPECT_EQ(Import(admin_, {}, nullptr).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  // Options after the first message.
  const v1::Player p = MustRegister("李娜", "110", "1k");
  v1::ImportCertificatesResponse resp;
  auto ctx = Context(admin_);
  auto writer = certs_->ImportCertificates(ctx.get(), &resp);
  v1::ImportCertificatesRequest m;
  auto* r = m.add_rows();
  r->set_line(2);
  r->set_number("110150001");
  r->set_holder(std::to_string(p.id()));
  r->set_grade("2d");
  r->set_issue_date("2015-03-01");
  r->set_issuing_agency("110");
  writer->Write(m);
  m.set_dry_run(true);
  writer->Write(m);
  writer->WritesDone();
  const grpc::Status s = writer->Finish();
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(s.error_message().find("first message only"), std::string::npos)
      << s.error_message();
  v1::Certificate c;
  EXPECT_EQ(Get("110150001", &c).error_code(), grpc::StatusCode::NOT_FOUND);
  // Over 200,000 rows.
  std::vector<Row> many(200001,
                        Row{"110150001", "1", "2d", "2015-03-01", "110", ""});
  EXPECT_EQ(Import(admin_, many, nullptr).error_code(),
            grpc::StatusCode::RESOURCE_EXHAUSTED);
}

}  // namespace
}  // namespace gorank::certificates
