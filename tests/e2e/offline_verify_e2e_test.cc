// Acceptance test of certificates anyone can check offline (issue #21 item
// 5) with the real rankd (gRPC and the web page on ports it picks) and the
// real rankctl: a certificate issued and printed to PDF, the PDF rendered
// with pdftoppm (PNG kept in <build>/test-artifacts/), its QR code decoded
// with zbarimg and with `cert verify-offline --image`, checked offline with
// the federation key fetched from /.well-known/gorank/federation.pub; a
// tampered statement (one character changed), a wrong key and a revoked
// certificate (the signed revocation list from rankctl and from the web)
// each fail with their exit status and reason; the verify page for the
// statement says "signature valid", and for the revoked one, revoked with
// its date. Without poppler-utils, zbar-tools or curl the test fails when CI
// is set and is skipped otherwise.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "services/audit/certificate_statement.h"
#include "services/audit/signing_key.h"
#include "services/common/date.h"
#include "tests/testing/rankd_cli_fixture.h"

namespace gorank {
namespace {

using testing::Has;
using testing::ReadFile;
using testing::RunResult;

constexpr char kHolder[] = "张三";

class OfflineVerifyTest : public testing::RankdCliTest {
 protected:
  void SetUp() override {
    for (const char* tool : {"/usr/bin/pdftoppm", "/usr/bin/pdftotext",
                             "/usr/bin/zbarimg", "/usr/bin/curl"}) {
      if (::access(tool, X_OK) == 0) continue;
      if (std::getenv("CI") != nullptr) {
        FAIL() << tool
               << " is missing (apt-get install poppler-utils zbar-tools "
                  "curl)";
      }
      GTEST_SKIP() << tool
                   << " is missing; the offline check test needs "
                      "poppler-utils, zbar-tools and curl";
    }
    RankdCliTest::SetUp();
    ASSERT_GT(rankd_.http_port(), 0) << rankd_.output();
    base_ = "http://127.0.0.1:" + std::to_string(rankd_.http_port());
    ASSERT_NO_FATAL_FAILURE(IssueCertificate());
  }

  RunResult Tool(std::vector<std::string> argv) {
    return testing::RunProgram(argv,
                               dir_.File("tool" + std::to_string(++calls_)));
  }

  // GET base_ + path with curl; the body, and the status in *status.
  std::string Get(const std::string& path, int* status) {
    const std::string body = dir_.File("body" + std::to_string(++calls_));
    RunResult r = Tool({"/usr/bin/curl", "-sS", "-o", body, "-w",
                        "%{http_code}", base_ + path});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    *status = std::atoi(r.out.c_str());
    return ReadFile(body);
  }
  std::string Get200(const std::string& path) {
    int status = 0;
    std::string body = Get(path, &status);
    EXPECT_EQ(status, 200) << path << ":\n" << body;
    return body;
  }

  std::string Write(const std::string& name, const std::string& bytes) {
    const std::string path = dir_.File(name);
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }

  void IssueCertificate() {
    RunResult r = Ctl({"player", "register", "--name", kHolder, "--latin-name",
                       "Zhang San", "--gender", "male", "--agency", "000",
                       "--birth-date", "1990-05-01", "--rank", "1k"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    r = Ctl({"--json", "cert", "issue", "--player", "1", "--grade", "3d",
             "--agency", "000", "--reference", "全国围棋锦标赛 第三名"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto issued = nlohmann::json::parse(r.out, nullptr, false);
    ASSERT_FALSE(issued.is_discarded()) << r.out;
    number_ = issued["certificate"]["number"].get<std::string>();
    ASSERT_EQ(number_.size(), 9u) << r.out;
  }

  // The certificate printed with the QR code pointing at this rankd's web
  // page, rendered at 150 dpi into the artifact folder: the PNG's path.
  std::string PrintAndRender(const std::string& name) {
    const std::string pdf = dir_.File(name + ".pdf");
    RunResult r =
        Ctl({"cert", "print", number_, "--out", pdf, "--verify-base", base_});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::filesystem::create_directories(GORANK_ARTIFACT_DIR);
    const std::string stem = std::string(GORANK_ARTIFACT_DIR) + "/" + name;
    std::filesystem::remove(stem + ".png");
    r = Tool(
        {"/usr/bin/pdftoppm", "-png", "-r", "150", "-singlefile", pdf, stem});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(ReadFile(stem + ".png").substr(0, 4), "\x89PNG") << r.err;
    return stem + ".png";
  }

  // The federation key as the web page publishes it, saved to a file.
  std::string FetchKey() {
    const std::string pem = Get200("/.well-known/gorank/federation.pub");
    EXPECT_TRUE(pem.starts_with("-----BEGIN PUBLIC KEY-----")) << pem;
    return Write("federation.pub", pem);
  }

  // rankctl cert verify-offline ARGS (no server, no token: offline).
  RunResult Offline(std::vector<std::string> args) {
    std::vector<std::string> argv = {RANKCTL_PATH, "cert", "verify-offline"};
    argv.insert(argv.end(), args.begin(), args.end());
    return Tool(argv);
  }

  // The statement as `rankctl cert statement` prints it.
  std::string Statement() {
    RunResult r = Ctl({"cert", "statement", number_});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    while (!r.out.empty() && r.out.back() == '\n') r.out.pop_back();
    EXPECT_TRUE(r.out.starts_with("GR1.")) << r.out;
    return r.out;
  }

  std::string base_;
  std::string number_;
};

// One character of the statement's signature changed.
std::string Tampered(const std::string& statement) {
  std::string t = statement;
  char& c = t[t.size() - 10];
  c = c == 'A' ? 'B' : 'A';
  return t;
}

TEST_F(OfflineVerifyTest, PrintedQrCodeVerifiesOfflineWithThePublishedKey) {
  const std::string png = PrintAndRender("offline_verify");
  const std::string key = FetchKey();

  // zbarimg reads the verify URL with the statement.
  RunResult r = Tool({"/usr/bin/zbarimg", "-q", "--raw", png});
  ASSERT_EQ(r.exit_code, 0) << "zbarimg found no code in " << png << r.err;
  std::string url = r.out;
  while (!url.empty() && url.back() == '\n') url.pop_back();
  const std::string prefix = base_ + "/verify?number=" + number_ + "&s=";
  ASSERT_TRUE(url.starts_with(prefix)) << url;
  const std::string statement = url.substr(prefix.size());
  EXPECT_EQ(statement, Statement()) << "the QR code carries the statement";

  // Under the code the short URL is printed (the statement is for scanners).
  r = Tool({"/usr/bin/pdftotext", "-enc", "UTF-8",
            dir_.File("offline_verify.pdf"), "-"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Has(r.out, base_ + "/verify?number=" + number_)) << r.out;
  EXPECT_FALSE(Has(r.out, "GR1.")) << r.out;

  // rankctl reads the same code from the picture, and checks it.
  r = Offline({"--key", key, "--image", png});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Has(r.out, "signature valid")) << r.out;
  EXPECT_TRUE(Has(r.out, number_)) << r.out;
  EXPECT_TRUE(Has(r.out, "3d")) << r.out;

  // The URL as zbarimg printed it, or the statement alone; the name.
  r = Offline({"--key", key, url, "--name", kHolder});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Has(r.out, "holder's name matches")) << r.out;
  r = Offline({"--key", key, statement, "--name", "李四"});
  EXPECT_EQ(r.exit_code, 9) << r.out << r.err;
  EXPECT_TRUE(Has(r.err, "name mismatch")) << r.err;

  // Not revoked, by the signed list rankctl fetches (public: no token).
  const std::string list = dir_.File("revocations.json");
  r = Ctl({"cert", "revocations", "--out", list}, /*admin=*/false);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = Offline({"--key", key, "--revocations", list, statement});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Has(r.out, "not revoked as of")) << r.out;

  // Tampered: one character changed.
  r = Offline({"--key", key, Tampered(statement)});
  EXPECT_EQ(r.exit_code, 5) << r.out << r.err;
  EXPECT_TRUE(Has(r.err, "tampered")) << r.err;
  EXPECT_TRUE(Has(r.err, "altered")) << r.err;
  EXPECT_FALSE(Has(r.out, "signature valid"));

  // A wrong key: another federation's.
  const audit::SigningKey other =
      *audit::SigningKey::FromSeed(std::string(32, 'x'));
  r = Offline(
      {"--key", Write("other.pub", other.public_key().Pem()), statement});
  EXPECT_EQ(r.exit_code, 6) << r.out << r.err;
  EXPECT_TRUE(Has(r.err, "wrong key")) << r.err;
  EXPECT_TRUE(Has(r.err, other.KeyId())) << r.err;

  // Malformed: not a statement; a picture without a code (the page's top
  // left corner).
  r = Offline({"--key", key, "hello"});
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_TRUE(Has(r.err, "malformed")) << r.err;
  const std::string pdf = dir_.File("offline_verify.pdf");
  const std::string corner = dir_.File("corner");
  r = Tool({"/usr/bin/pdftoppm", "-png", "-r", "72", "-singlefile", "-x", "0",
            "-y", "0", "-W", "120", "-H", "120", pdf, corner});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = Offline({"--key", key, "--image", corner + ".png"});
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_TRUE(Has(r.err, "no QR code")) << r.err;

  // Usage: no key file, both a text and a picture.
  r = Offline({"--key", dir_.File("missing.pub"), statement});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(Has(r.err, "missing.pub")) << r.err;
  r = Offline({"--key", key, "--image", png, statement});
  EXPECT_EQ(r.exit_code, 2) << r.err;
}

TEST_F(OfflineVerifyTest, TheVerifyPageSaysSignatureValidWithItsProof) {
  const std::string statement = Statement();
  std::string page = Get200("/verify?lang=en&s=" + statement);
  EXPECT_TRUE(Has(page, "data-signature=\"valid\"")) << page;
  EXPECT_TRUE(Has(page, "Signature valid")) << page;
  EXPECT_TRUE(Has(page, "data-included=\"true\"")) << page;
  EXPECT_TRUE(Has(page, "data-revoked=\"false\"")) << page;
  EXPECT_TRUE(Has(page, number_)) << page;
  EXPECT_FALSE(Has(page, kHolder)) << "the page shows no holder's name";
  page = Get200("/verify?s=" + statement);  // Chinese first
  EXPECT_TRUE(Has(page, "签名有效")) << page;

  // With the holder's name (张三, percent-encoded): the name and the state.
  page = Get200("/verify?lang=en&s=" + statement + "&name=%E5%BC%A0%E4%B8%89");
  EXPECT_TRUE(Has(page, "id=\"name-check\" data-matches=\"true\"")) << page;
  EXPECT_TRUE(Has(page, "data-outcome=\"VALID\"")) << page;
  page = Get200("/verify?lang=en&s=" + statement + "&name=%E6%9D%8E%E5%9B%9B");
  EXPECT_TRUE(Has(page, "data-matches=\"false\"")) << page;

  // The QR code's URL itself (number and s), and its JSON twin.
  page = Get200("/verify?number=" + number_ + "&s=" + statement);
  EXPECT_TRUE(Has(page, "data-signature=\"valid\"")) << page;
  const auto j = nlohmann::json::parse(Get200("/api/v1/verify?s=" + statement),
                                       nullptr, false);
  ASSERT_FALSE(j.is_discarded());
  EXPECT_EQ(j["signature"], "valid") << j.dump();
  EXPECT_EQ(j["inclusion"]["included"], true) << j.dump();
  EXPECT_EQ(j["statement"]["number"], number_) << j.dump();

  // Tampered: the page says so, and shows none of the statement's claims.
  page = Get200("/verify?lang=en&s=" + Tampered(statement));
  EXPECT_TRUE(Has(page, "data-signature=\"invalid\"")) << page;
  EXPECT_FALSE(Has(page, "Signature valid")) << page;
  EXPECT_FALSE(Has(page, "id=\"statement\"")) << page;

  // The same statement signed by another federation's key: wrong key.
  absl::StatusOr<audit::ParsedStatement> parsed =
      audit::ParseStatement(statement);
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  const absl::StatusOr<std::string> foreign = audit::SignStatement(
      parsed->statement, *audit::SigningKey::FromSeed(std::string(32, 'x')));
  ASSERT_TRUE(foreign.ok()) << foreign.status();
  page = Get200("/verify?lang=en&s=" + *foreign);
  EXPECT_TRUE(Has(page, "data-signature=\"wrong-key\"")) << page;
  EXPECT_FALSE(Has(page, "Signature valid")) << page;

  // The checkpoint and the key at their stable addresses.
  const auto cp = nlohmann::json::parse(
      Get200("/.well-known/gorank/checkpoint.json"), nullptr, false);
  ASSERT_FALSE(cp.is_discarded());
  EXPECT_GT(cp["tree_size"].get<int64_t>(), 0) << cp.dump();
  EXPECT_EQ(Get200("/api/v1/checkpoint").empty(), false);
}

TEST_F(OfflineVerifyTest, RevokedCertificateFailsWithItsDate) {
  const std::string key = FetchKey();
  // The statement printed before the revocation.
  const std::string statement = Statement();
  RunResult r = Ctl({"cert", "revoke", number_, "--reason", "result annulled"});
  ASSERT_EQ(r.exit_code, 0) << r.err;

  // The signed list, from rankctl and from the web page's stable address.
  const std::string list = dir_.File("revocations.json");
  r = Ctl({"cert", "revocations", "--out", list}, /*admin=*/false);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Has(r.out, "1 revoked")) << r.out;
  const auto j = nlohmann::json::parse(ReadFile(list), nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << ReadFile(list);
  ASSERT_EQ(j["revoked"].size(), 1u) << j.dump();
  EXPECT_EQ(j["revoked"][0]["number"], number_);
  const std::string date =
      ShanghaiDate(j["revoked"][0]["revoked_unix"].get<int64_t>()).ToString();
  const std::string web_list = Write(
      "web-revocations.json", Get200("/.well-known/gorank/revocations.json"));

  for (const std::string& file : {list, web_list}) {
    r = Offline({"--key", key, "--revocations", file, statement});
    EXPECT_EQ(r.exit_code, 7) << file << ": " << r.out << r.err;
    EXPECT_TRUE(Has(
        r.err, "revoked: certificate " + number_ + " was revoked on " + date))
        << r.err;
  }
  // Without the list the signature alone still verifies (offline cannot
  // know); a list with the revocation cut out is not the signed list.
  r = Offline({"--key", key, statement});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json cut = j;
  cut["revoked"] = nlohmann::json::array();
  r = Offline({"--key", key, "--revocations", Write("cut.json", cut.dump()),
               statement});
  EXPECT_EQ(r.exit_code, 8) << r.out << r.err;
  EXPECT_TRUE(Has(r.err, "bad revocation list")) << r.err;

  // The verify page: the signature is the federation's, and revoked on DATE.
  std::string page = Get200("/verify?lang=en&s=" + statement);
  EXPECT_TRUE(Has(page, "data-signature=\"valid\"")) << page;
  EXPECT_TRUE(Has(page, "data-revoked=\"true\"")) << page;
  EXPECT_TRUE(Has(page, "Revoked on <span id=\"revoked-date\">" + date))
      << page;
  page = Get200("/verify?s=" + statement);
  EXPECT_TRUE(Has(page, "已撤销，撤销日期 <span id=\"revoked-date\">" + date))
      << page;

  // The verify page by number and name (a QR code printed without a
  // statement, or typed in) says revoked with the date too.
  page =
      Get200("/verify?lang=en&number=" + number_ + "&name=%E5%BC%A0%E4%B8%89");
  EXPECT_TRUE(Has(page, "data-outcome=\"REVOKED\"")) << page;
  EXPECT_TRUE(Has(page, "Revoked on <span id=\"revoked-date\">" + date))
      << page;

  // A revoked certificate gets no new statement.
  r = Ctl({"cert", "statement", number_});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(Has(r.err, "FAILED_PRECONDITION")) << r.err;
  EXPECT_TRUE(Has(r.err, "revoked")) << r.err;
}

TEST_F(OfflineVerifyTest, HelpListsTheExitStatuses) {
  RunResult r = Offline({"--help"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  for (const char* want :
       {"--key", "--image", "--revocations", "--name", "Exit status",
        "0  valid", "2  usage", "4  malformed", "5  tampered", "6  wrong key",
        "7  revoked", "8  bad revocation list", "9  name mismatch"}) {
    EXPECT_TRUE(Has(r.out, want)) << want << " not in:\n" << r.out;
  }
}

}  // namespace
}  // namespace gorank
