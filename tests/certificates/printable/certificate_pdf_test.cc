// The PDF drawing: a complete, deterministic file; texts the fonts cannot
// show are refused with the text named. (The rendered page and its QR code
// are checked with poppler and zbar in certificate_print_e2e_test.)
#include "services/certificates/printable/certificate_pdf.h"

#include <string>

#include "gtest/gtest.h"
#include "services/certificates/printable/certificate_sheet.h"

namespace gorank::certificates::printable {
namespace {

CertificateSheet Sheet(const std::string& name, const std::string& latin) {
  PrintableCertificate c;
  c.number = "000260002";
  c.holder_name = name;
  c.holder_latin_name = latin;
  c.ladder = GradeLadder::kAmateurDan;
  c.level = 5;
  c.year = 2026;
  c.month = 11;
  c.day = 29;
  c.agency_prefix = "000";
  c.agency_name = "中国围棋协会";
  c.agency_name_en = "Chinese Weiqi Association";
  c.notice_until_unix = 1795276800;
  absl::StatusOr<CertificateSheet> s = LayOutCertificate(c);
  EXPECT_TRUE(s.ok()) << s.status();
  return s.ok() ? *s : CertificateSheet{};
}

TEST(RenderCertificatePdfTest, WholeFileAndDeterministic) {
  absl::StatusOr<std::string> a = RenderCertificatePdf(Sheet("李四", "Li Si"));
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->rfind("%PDF-1.", 0), 0u);
  EXPECT_NE(a->find("%%EOF", a->size() - 8), std::string::npos);
  EXPECT_NE(a->find("/SimHei"),
            std::string::npos);  // the CID fonts, not embedded
  EXPECT_NE(a->find("GBK-EUC-H"), std::string::npos);
  EXPECT_GT(a->size(), 2000u);
  absl::StatusOr<std::string> b = RenderCertificatePdf(Sheet("李四", "Li Si"));
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(*a, *b);
  absl::StatusOr<std::string> other =
      RenderCertificatePdf(Sheet("王五", "Wang Wu"));
  ASSERT_TRUE(other.ok()) << other.status();
  EXPECT_NE(*a, *other);
}

TEST(RenderCertificatePdfTest, RefusesANameOutsideGbk) {
  // U+20BB7 (a rare variant of 吉) is in GB 18030 but not in GBK.
  absl::StatusOr<std::string> pdf =
      RenderCertificatePdf(Sheet("\xF0\xA0\xAE\xB7三", "Ji San"));
  ASSERT_FALSE(pdf.ok());
  EXPECT_EQ(pdf.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(pdf.status().message().find("holder name"), std::string::npos)
      << pdf.status().message();
}

TEST(EncodeTextTest, GbkAndWindows1252) {
  EXPECT_EQ(*EncodeText("name", "张三", "GBK"), "\xD5\xC5\xC8\xFD");
  EXPECT_EQ(*EncodeText("name", "《》（）", "GBK"),
            "\xA1\xB6\xA1\xB7\xA3\xA8\xA3\xA9");
  EXPECT_EQ(*EncodeText("name", "Zoë", "CP1252"), "Zo\xEB");
  const struct {
    const char* text;
    const char* charset;
  } bad[] = {{"\xFF", "GBK"},
             {"\xE5\xBC", "GBK"},
             {"Zh\xC4\x81ng", "CP1252"},
             {"张", "CP1252"}};
  for (const auto& t : bad) {
    absl::StatusOr<std::string> r = EncodeText("Latin name", t.text, t.charset);
    ASSERT_FALSE(r.ok()) << t.text;
    EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument) << t.text;
    EXPECT_NE(r.status().message().find("Latin name"), std::string::npos);
  }
}

}  // namespace
}  // namespace gorank::certificates::printable
