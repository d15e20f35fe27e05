// Acceptance test of `rankctl cert print`: the real rankd binary on a temp
// database, a real certificate issued with rankctl, the PDF rendered to PNG
// with pdftoppm (kept in <build>/test-artifacts/), its QR code decoded with
// zbarimg and its text read with pdftotext. Without poppler-utils or
// zbar-tools the test fails when CI is set and is skipped otherwise.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/testing/rankd_process.h"
#include "tests/testing/temp_dir.h"

namespace gorank::certificates::printable {
namespace {

using testing::RankdOptions;
using testing::RankdProcess;
using testing::ReadFile;
using testing::RunResult;

constexpr char kResidentId[] = "11010519491231002X";  // born 1949-12-31

bool Has(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

bool Exists(const std::string& path) { return std::filesystem::exists(path); }

class CertificatePrintTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* tool :
         {"/usr/bin/pdftoppm", "/usr/bin/pdftotext", "/usr/bin/zbarimg"}) {
      if (::access(tool, X_OK) == 0) continue;
      if (std::getenv("CI") != nullptr) {
        FAIL() << tool
               << " is missing (apt-get install poppler-utils poppler-data "
                  "zbar-tools)";
      }
      GTEST_SKIP()
          << tool
          << " is missing; the PDF check needs poppler-utils and zbar-tools";
    }
    ASSERT_NO_FATAL_FAILURE(StartRankd());
    ASSERT_NO_FATAL_FAILURE(IssueCertificate());
  }

  void TearDown() override {
    if (rankd_.running()) {
      EXPECT_EQ(rankd_.Stop(), 0) << ReadFile(log_);
    }
  }

  // rankd on a temp database and a port it picks, read from its log.
  void StartRankd() {
    log_ = dir_.File("rankd.log");
    RankdOptions options;
    options.db = dir_.File("rankd.db");
    options.flags = {"--admin-token-file", token_file_};
    options.log_path = log_;
    ASSERT_EQ(rankd_.Start(RANKD_PATH, options), "");
    ASSERT_TRUE(rankd_.running()) << "rankd exited:\n" << ReadFile(log_);
    port_ = rankd_.port();
    ASSERT_GT(port_, 0) << "rankd never logged its port:\n" << ReadFile(log_);
  }

  // rankctl against rankd, with the admin token unless `token` is false.
  RunResult Ctl(std::vector<std::string> args, bool token = true) {
    std::vector<std::string> argv = {RANKCTL_PATH, "--server",
                                     "127.0.0.1:" + std::to_string(port_)};
    if (token) argv.insert(argv.end(), {"--token-file", token_file_});
    argv.insert(argv.end(), args.begin(), args.end());
    return testing::RunProgram(argv,
                               dir_.File("rankctl" + std::to_string(++runs_)));
  }

  RunResult Tool(std::vector<std::string> argv) {
    return testing::RunProgram(argv,
                               dir_.File("tool" + std::to_string(++runs_)));
  }

  void IssueCertificate() {
    RunResult r = Ctl({"player", "register", "--name", "张三", "--latin-name",
                       "Zhang San", "--gender", "male", "--agency", "000",
                       "--resident-id", kResidentId, "--rank", "1k"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    r = Ctl({"--json", "cert", "issue", "--player", "1", "--grade", "3d",
             "--agency", "000", "--reference", "全国围棋锦标赛 第三名"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto issued = nlohmann::json::parse(r.out, nullptr, false);
    ASSERT_FALSE(issued.is_discarded()) << r.out;
    number_ = issued["certificate"]["number"].get<std::string>();
    ASSERT_EQ(number_.size(), 9u) << r.out;
  }

  // pdftoppm at 150 dpi into the artifact folder; returns the PNG's path.
  std::string ToPng(const std::string& pdf, const std::string& name) {
    std::filesystem::create_directories(GORANK_ARTIFACT_DIR);
    const std::string stem = std::string(GORANK_ARTIFACT_DIR) + "/" + name;
    std::filesystem::remove(stem + ".png");
    RunResult r = Tool(
        {"/usr/bin/pdftoppm", "-png", "-r", "150", "-singlefile", pdf, stem});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(ReadFile(stem + ".png").substr(0, 4), "\x89PNG") << r.err;
    return stem + ".png";
  }

  std::string DecodeQr(const std::string& png) {
    RunResult r = Tool({"/usr/bin/zbarimg", "-q", "--raw", png});
    EXPECT_EQ(r.exit_code, 0)
        << "zbarimg found no code in " << png << ": " << r.err;
    return r.out;
  }

  testing::TempDir dir_;
  const std::string token_file_ = dir_.File("admin.token");
  RankdProcess rankd_;
  std::string log_;
  int port_ = 0;
  int runs_ = 0;
  std::string number_;
};

TEST_F(CertificatePrintTest,
       PdfRendersAndItsQrCodeDecodesToTheVerificationUrl) {
  const std::string pdf = dir_.File("certificate.pdf");
  RunResult r = Ctl({"cert", "print", number_, "--out", pdf});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Has(r.out, "wrote " + pdf)) << r.out;
  EXPECT_EQ(ReadFile(pdf).substr(0, 5), "%PDF-");

  const std::string png = ToPng(pdf, "certificate_print");
  // The verify URL, then the signed statement (cert verify-offline).
  EXPECT_TRUE(DecodeQr(png).starts_with(
      "http://127.0.0.1:8080/verify?number=" + number_ + "&s=GR1."));

  r = Tool({"/usr/bin/pdftotext", "-enc", "UTF-8", pdf, "-"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const std::string& want :
       {number_, std::string("张三"), std::string("Zhang San"),
        std::string("中国围棋协会"), std::string("围棋业余段位证书"),
        std::string("业余三段"),
        std::string("Certificate of Amateur Dan Grade"),
        std::string("Amateur 3 Dan")}) {
    EXPECT_TRUE(Has(r.out, want)) << "pdftotext lacks '" << want << "':\n"
                                  << r.out;
  }
}

TEST_F(CertificatePrintTest, VerifyBaseIsTheQrCodesSite) {
  const std::string pdf = dir_.File("public.pdf");
  RunResult r = Ctl({"cert", "print", number_, "--out", pdf, "--verify-base",
                     "https://rank.example.org/"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(DecodeQr(ToPng(pdf, "certificate_print_public_base"))
                  .starts_with("https://rank.example.org/verify?number=" +
                               number_ + "&s=GR1."));

  r = Ctl({"cert", "print", number_, "--out", dir_.File("bad.pdf"),
           "--verify-base", "ftp://rank.example.org"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(Has(r.err, "--verify-base")) << r.err;
  EXPECT_FALSE(Exists(dir_.File("bad.pdf")));
}

TEST_F(CertificatePrintTest, RefusalsWriteNoFile) {
  const std::string pdf = dir_.File("refused.pdf");
  RunResult r = Ctl({"cert", "print", "000269999", "--out", pdf});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(Has(r.err, "NOT_FOUND")) << r.err;
  EXPECT_TRUE(Has(r.err, "000269999")) << r.err;

  r = Ctl({"cert", "print", number_, "--out", pdf}, /*token=*/false);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(Has(r.err, "UNAUTHENTICATED")) << r.err;
  EXPECT_TRUE(Has(r.err, "needs a token")) << r.err;

  r = Ctl({"cert", "print", number_, "--out", dir_.File("no/such/dir/x.pdf")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(Has(r.err, "no/such/dir/x.pdf")) << r.err;

  r = Ctl({"cert", "revoke", number_, "--reason", "result annulled"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = Ctl({"cert", "print", number_, "--out", pdf});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(Has(r.err, "revoked")) << r.err;
  EXPECT_FALSE(Exists(pdf));
  // No temporary file left behind either.
  for (const auto& entry : std::filesystem::directory_iterator(dir_.path())) {
    EXPECT_FALSE(Has(entry.path().filename().string(), ".tmp."))
        << entry.path();
  }
}

}  // namespace
}  // namespace gorank::certificates::printable
