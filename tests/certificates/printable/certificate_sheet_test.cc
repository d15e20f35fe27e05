// The printed certificate's texts and QR matrix (pure: no PDF, no server).
#include "services/certificates/printable/certificate_sheet.h"

#include <string>

#include "gtest/gtest.h"
#include "services/certificates/printable/qr_matrix.h"

namespace gorank::certificates::printable {
namespace {

PrintableCertificate ThreeDan() {
  PrintableCertificate c;
  c.number = "110260001";
  c.holder_name = "张三";
  c.holder_latin_name = "Zhang San";
  c.ladder = GradeLadder::kAmateurDan;
  c.level = 3;
  c.year = 2026;
  c.month = 3;
  c.day = 5;
  c.agency_prefix = "110";
  c.agency_name = "北京市围棋协会";
  c.agency_name_en = "Beijing Weiqi Association";
  return c;
}

TEST(GradeChineseTest, EveryLadderInChineseNumerals) {
  const struct {
    GradeLadder ladder;
    int level;
    const char* want;
  } cases[] = {
      {GradeLadder::kKyu, 1, "业余一级"},
      {GradeLadder::kKyu, 10, "业余十级"},
      {GradeLadder::kKyu, 12, "业余十二级"},
      {GradeLadder::kKyu, 20, "业余二十级"},
      {GradeLadder::kKyu, 30, "业余三十级"},
      {GradeLadder::kAmateurDan, 1, "业余初段"},
      {GradeLadder::kAmateurDan, 3, "业余三段"},
      {GradeLadder::kAmateurDan, 7, "业余七段"},
      {GradeLadder::kAmateurDan, 8, "业余八段（荣誉）"},
      {GradeLadder::kProDan, 1, "职业初段"},
      {GradeLadder::kProDan, 9, "职业九段"},
      {GradeLadder::kGomokuKyu, 10, "五子棋十级"},
      {GradeLadder::kGomokuDan, 1, "五子棋初段"},
      {GradeLadder::kGomokuDan, 6, "五子棋六段"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(GradeChinese(c.ladder, c.level), c.want) << c.level;
  }
}

TEST(LayOutCertificateTest, AmateurDanSheet) {
  absl::StatusOr<CertificateSheet> s = LayOutCertificate(ThreeDan());
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->federation_zh, "中国围棋协会");
  EXPECT_EQ(s->title_zh, "围棋业余段位证书");
  EXPECT_EQ(s->title_en, "Certificate of Amateur Dan Grade");
  EXPECT_EQ(s->grade_zh, "业余三段");
  EXPECT_EQ(s->grade_en, "Amateur 3 Dan");
  EXPECT_EQ(s->grade_code, "3d");
  EXPECT_EQ(s->body_zh[0], "经审核，符合《中国围棋业余段位制》的规定，");
  EXPECT_EQ(s->body_zh[1], "授予围棋业余三段，特发此证。");
  EXPECT_NE(s->body_en[1].find("Amateur 3 Dan (3d)"), std::string::npos)
      << s->body_en[1];
  EXPECT_EQ(s->holder_name, "张三");
  EXPECT_EQ(s->holder_latin_name, "Zhang San");
  EXPECT_EQ(s->number, "110260001");
  EXPECT_EQ(s->date_zh, "2026年3月5日");
  EXPECT_EQ(s->date_en, "5 March 2026");
  EXPECT_EQ(s->agency_zh, "北京市围棋协会");
  EXPECT_EQ(s->agency_en, "Beijing Weiqi Association (110)");
  EXPECT_EQ(s->verify_url, "http://127.0.0.1:8080/verify?number=110260001");
  EXPECT_TRUE(s->notice_zh.empty());
  EXPECT_TRUE(s->notice_en.empty());
}

TEST(LayOutCertificateTest, KyuProHonoraryAndMissingAgencyName) {
  PrintableCertificate c = ThreeDan();
  c.ladder = GradeLadder::kKyu;
  c.level = 5;
  c.agency_name.clear();
  c.agency_name_en.clear();
  absl::StatusOr<CertificateSheet> s = LayOutCertificate(c);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->title_zh, "围棋业余级位证书");
  EXPECT_EQ(s->title_en, "Certificate of Amateur Kyu Grade");
  EXPECT_EQ(s->grade_en, "Amateur 5 Kyu");
  EXPECT_EQ(s->grade_code, "5k");
  EXPECT_EQ(s->agency_zh, "代码 110");
  EXPECT_EQ(s->agency_en, "(110)");

  c.ladder = GradeLadder::kProDan;
  c.level = 9;
  s = LayOutCertificate(c);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->title_zh, "围棋职业段位证书");
  EXPECT_EQ(s->body_zh[1], "授予围棋职业九段，特发此证。");
  EXPECT_EQ(s->grade_code, "9p");

  c.ladder = GradeLadder::kAmateurDan;
  c.level = 8;
  s = LayOutCertificate(c);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->grade_en, "Honorary Amateur 8 Dan");
}

TEST(LayOutCertificateTest, GomokuSheet) {
  PrintableCertificate c = ThreeDan();
  c.ladder = GradeLadder::kGomokuDan;
  c.level = 2;
  absl::StatusOr<CertificateSheet> s = LayOutCertificate(c);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_TRUE(s->gomoku);
  EXPECT_EQ(s->title_zh, "五子棋段位证书");
  EXPECT_EQ(s->title_en, "Certificate of Gomoku Dan Grade");
  EXPECT_EQ(s->grade_zh, "五子棋二段");
  EXPECT_EQ(s->grade_en, "Gomoku 2 Dan");
  EXPECT_EQ(s->grade_code, "2d");
  EXPECT_EQ(s->body_zh[1], "授予五子棋二段，特发此证。");

  c.ladder = GradeLadder::kGomokuKyu;
  c.level = 10;
  s = LayOutCertificate(c);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->title_zh, "五子棋级位证书");
  EXPECT_EQ(s->grade_code, "10k");
  c.level = 11;
  EXPECT_EQ(LayOutCertificate(c).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(LayOutCertificateTest, NoticeDateIsTheShanghaiDate) {
  PrintableCertificate c = ThreeDan();
  c.level = 5;
  c.notice_until_unix =
      1773417600;  // 2026-03-13 16:00 UTC = 3-14 00:00 Shanghai
  absl::StatusOr<CertificateSheet> s = LayOutCertificate(c);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->notice_zh, "公示期至2026年3月14日，期满无异议后生效");
  EXPECT_EQ(s->notice_en,
            "Under public notice until 14 March 2026; effective when no "
            "objection is upheld");
  c.notice_until_unix = 1773417599;  // one second earlier: still the 13th
  s = LayOutCertificate(c);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->notice_zh, "公示期至2026年3月13日，期满无异议后生效");
}

TEST(LayOutCertificateTest, RejectsBadFacts) {
  const struct {
    const char* what;
    void (*edit)(PrintableCertificate&);
    const char* message_has;
  } cases[] = {
      {"8 digits", [](PrintableCertificate& c) { c.number = "11026000"; },
       "nine digits"},
      {"letter", [](PrintableCertificate& c) { c.number = "11026000a"; },
       "nine digits"},
      {"no name", [](PrintableCertificate& c) { c.holder_name.clear(); },
       "holder name"},
      {"dan 0", [](PrintableCertificate& c) { c.level = 0; }, "ladder"},
      {"dan 9", [](PrintableCertificate& c) { c.level = 9; }, "ladder"},
      {"kyu 31",
       [](PrintableCertificate& c) {
         c.ladder = GradeLadder::kKyu;
         c.level = 31;
       },
       "ladder"},
      {"pro 10",
       [](PrintableCertificate& c) {
         c.ladder = GradeLadder::kProDan;
         c.level = 10;
       },
       "ladder"},
      {"29 Feb 2026", [](PrintableCertificate& c) { c.month = 2, c.day = 29; },
       "calendar"},
      {"month 13", [](PrintableCertificate& c) { c.month = 13; }, "calendar"},
      {"ftp base",
       [](PrintableCertificate& c) { c.verify_base = "ftp://x.org"; }, "http"},
      {"no host", [](PrintableCertificate& c) { c.verify_base = "http://"; },
       "host"},
      {"empty host",
       [](PrintableCertificate& c) { c.verify_base = "https:///x"; }, "host"},
      {"space",
       [](PrintableCertificate& c) { c.verify_base = "http://a b.org"; },
       "ASCII"},
      {"query",
       [](PrintableCertificate& c) { c.verify_base = "http://a.org/?x=1"; },
       "'?'"},
      {"quote",
       [](PrintableCertificate& c) { c.verify_base = "http://a.org/\"x"; },
       "quotes"},
      {"long",
       [](PrintableCertificate& c) {
         c.verify_base = "http://" + std::string(200, 'a');
       },
       "200"},
  };
  for (const auto& t : cases) {
    PrintableCertificate c = ThreeDan();
    t.edit(c);
    absl::StatusOr<CertificateSheet> s = LayOutCertificate(c);
    ASSERT_FALSE(s.ok()) << t.what;
    EXPECT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument) << t.what;
    EXPECT_NE(s.status().message().find(t.message_has), std::string::npos)
        << t.what << ": " << s.status().message();
  }
  PrintableCertificate leap = ThreeDan();
  leap.year = 2024, leap.month = 2, leap.day = 29;
  EXPECT_TRUE(LayOutCertificate(leap).ok());
}

TEST(VerifyUrlTest, DropsOneTrailingSlashAndKeepsAPath) {
  EXPECT_EQ(*VerifyUrl("https://rank.example.org/", "000260002"),
            "https://rank.example.org/verify?number=000260002");
  EXPECT_EQ(*VerifyUrl("http://127.0.0.1:8080/weiqi", "110260001"),
            "http://127.0.0.1:8080/weiqi/verify?number=110260001");
}

// Finder pattern at (x0, y0): dark 7x7 ring, light ring, dark 3x3 centre.
void ExpectFinder(const QrMatrix& m, int x0, int y0) {
  for (int y = 0; y < 7; ++y) {
    for (int x = 0; x < 7; ++x) {
      const bool ring = x == 0 || y == 0 || x == 6 || y == 6;
      const bool centre = x >= 2 && x <= 4 && y >= 2 && y <= 4;
      EXPECT_EQ(m.dark(x0 + x, y0 + y), ring || centre)
          << x0 + x << "," << y0 + y;
    }
  }
}

TEST(QrMatrixTest, SizeFollowsTheVersionAndFinderPatternsSit) {
  // 45 bytes: more than version 3-M holds (42), so version 4, 33 modules.
  absl::StatusOr<QrMatrix> m =
      QrMatrix::Encode("http://127.0.0.1:8080/verify?number=110260001");
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->version(), 4);
  EXPECT_EQ(m->size(), 33);
  ExpectFinder(*m, 0, 0);
  ExpectFinder(*m, m->size() - 7, 0);
  ExpectFinder(*m, 0, m->size() - 7);
  EXPECT_FALSE(m->dark(7, 7));  // separator

  for (const size_t bytes : {10u, 42u, 43u, 200u, 1000u}) {
    absl::StatusOr<QrMatrix> q = QrMatrix::Encode(std::string(bytes, 'x'));
    ASSERT_TRUE(q.ok()) << bytes;
    EXPECT_EQ(q->size(), 17 + 4 * q->version()) << bytes;
  }
  EXPECT_EQ(QrMatrix::Encode(std::string(42, 'x'))->version(), 3);
  EXPECT_EQ(QrMatrix::Encode(std::string(43, 'x'))->version(), 4);
}

TEST(QrMatrixTest, RejectsEmptyAndTooLongText) {
  EXPECT_EQ(QrMatrix::Encode("").status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(QrMatrix::Encode(std::string("a\0b", 3)).status().code(),
            absl::StatusCode::kInvalidArgument);
  absl::StatusOr<QrMatrix> big = QrMatrix::Encode(std::string(3000, 'x'));
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(big.status().message().find("too long"), std::string::npos);
}

}  // namespace
}  // namespace gorank::certificates::printable
