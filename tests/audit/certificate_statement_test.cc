// The signed certificate statement (certificate_statement.h) and the signed
// revocation list (revocation_list.h): round trips, every field tampered, a
// wrong key, malformed texts, the QR URL form.
#include "services/audit/certificate_statement.h"

#include <string>

#include "gtest/gtest.h"
#include "services/audit/revocation_list.h"

namespace gorank::audit {
namespace {

SigningKey Key(char c) { return *SigningKey::FromSeed(std::string(32, c)); }

CertificateStatement Sample() {
  CertificateStatement s;
  s.number = "110250001";
  s.discipline = "go";
  s.grade = "3d";
  s.issue_date = "2025-12-10";
  s.agency_prefix = "110";
  s.name_digest = HolderNameDigest("张三");
  s.log_index = 17;
  return s;
}

// The text with its payload replaced by `payload`, signature kept.
std::string WithPayload(const std::string& text, const std::string& payload) {
  const size_t a = text.find('.'), b = text.rfind('.');
  return text.substr(0, a + 1) + Base64UrlEncode(payload) + text.substr(b);
}

TEST(CertificateStatementTest, RoundTripVerifiesWithTheSigningKey) {
  const SigningKey key = Key('a');
  absl::StatusOr<std::string> text = SignStatement(Sample(), key);
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_TRUE(text->starts_with("GR1."));
  // Fits a QR code at level M beside the verify URL (version 10: 213 bytes).
  EXPECT_LT(text->size(), 200u) << *text;
  absl::StatusOr<ParsedStatement> p = ParseStatement(*text);
  ASSERT_TRUE(p.ok()) << p.status();
  CertificateStatement want = Sample();
  want.key_id = key.KeyId();
  EXPECT_EQ(p->statement, want);
  EXPECT_EQ(CheckStatement(*p, key.public_key()), StatementCheck::kValid);
  EXPECT_TRUE(NameMatches(p->statement, "张三"));
  EXPECT_TRUE(NameMatches(p->statement, " 张三\t"));
  EXPECT_FALSE(NameMatches(p->statement, "张四"));
  EXPECT_FALSE(NameMatches(p->statement, ""));
  // Deterministic: the same statement signs to the same text.
  EXPECT_EQ(*SignStatement(Sample(), key), *text);
}

TEST(CertificateStatementTest, WithoutLogIndexRoundTrips) {
  CertificateStatement s = Sample();
  s.log_index = -1;
  s.discipline = "gomoku";
  absl::StatusOr<std::string> text = SignStatement(s, Key('a'));
  ASSERT_TRUE(text.ok());
  absl::StatusOr<ParsedStatement> p = ParseStatement(*text);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->statement.log_index, -1);
  EXPECT_EQ(p->statement.discipline, "gomoku");
}

TEST(CertificateStatementTest, EveryTamperedFieldFailsTheSignature) {
  const SigningKey key = Key('a');
  const std::string text = *SignStatement(Sample(), key);
  const std::string payload =
      *Base64UrlDecode(text.substr(4, text.rfind('.') - 4));
  struct Case {
    const char* field;
    std::string from, to;
  } cases[] = {
      {"number", "110250001", "110250002"},
      {"discipline", "|go|", "|gomoku|"},
      {"grade", "|3d|", "|5d|"},
      {"date", "2025-12-10", "2024-12-10"},
      {"agency", "|110|", "|120|"},
      {"name digest", Base64UrlEncode(HolderNameDigest("张三")),
       Base64UrlEncode(HolderNameDigest("李四"))},
      {"log index", "|17", "|18"},
  };
  for (const Case& c : cases) {
    std::string altered = payload;
    const size_t at = altered.find(c.from);
    ASSERT_NE(at, std::string::npos) << c.field;
    altered.replace(at, c.from.size(), c.to);
    absl::StatusOr<ParsedStatement> p =
        ParseStatement(WithPayload(text, altered));
    ASSERT_TRUE(p.ok()) << c.field << ": " << p.status();
    EXPECT_EQ(CheckStatement(*p, key.public_key()),
              StatementCheck::kBadSignature)
        << c.field;
  }
  // The signature itself altered.
  std::string sig_altered = text;
  sig_altered[sig_altered.size() - 3] =
      sig_altered[sig_altered.size() - 3] == 'A' ? 'B' : 'A';
  absl::StatusOr<ParsedStatement> p = ParseStatement(sig_altered);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(CheckStatement(*p, key.public_key()),
            StatementCheck::kBadSignature);
}

TEST(CertificateStatementTest, AnotherKeyIsTheWrongKey) {
  const std::string text = *SignStatement(Sample(), Key('a'));
  absl::StatusOr<ParsedStatement> p = ParseStatement(text);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(CheckStatement(*p, Key('b').public_key()),
            StatementCheck::kWrongKey);
  // A statement re-labelled with the other key's id still fails.
  const SigningKey other = Key('b');
  const std::string payload =
      *Base64UrlDecode(text.substr(4, text.rfind('.') - 4));
  std::string relabelled = payload;
  relabelled.replace(relabelled.find(Key('a').KeyId()), 16, other.KeyId());
  p = ParseStatement(WithPayload(text, relabelled));
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(CheckStatement(*p, other.public_key()),
            StatementCheck::kBadSignature);
}

TEST(CertificateStatementTest, MalformedTextsAreInvalidArgument) {
  const std::string text = *SignStatement(Sample(), Key('a'));
  const std::string payload =
      *Base64UrlDecode(text.substr(4, text.rfind('.') - 4));
  for (const std::string& bad : {
           std::string(""),
           std::string("hello"),
           "GR2" + text.substr(3),
           text.substr(0, text.rfind('.')),
           text + ".x",
           text.substr(0, text.size() - 4),  // signature too short
           "GR1.***." + text.substr(text.rfind('.') + 1),
           WithPayload(text, payload + "|extra"),
           WithPayload(text, "1102500|go|3d|2025-12-10|110|x|y|"),
           WithPayload(text, payload.substr(0, payload.rfind('|')) + "|+7"),
           WithPayload(text, payload.substr(0, payload.rfind('|')) + "|07"),
       }) {
    absl::StatusOr<ParsedStatement> p = ParseStatement(bad);
    EXPECT_EQ(p.status().code(), absl::StatusCode::kInvalidArgument) << bad;
  }
}

TEST(CertificateStatementTest, VerifyUrlCarriesTheStatement) {
  const std::string text = *SignStatement(Sample(), Key('a'));
  for (const std::string& url : {
           "https://rank.example.org/verify?number=110250001&s=" + text,
           "https://rank.example.org/verify?s=" + text + "&lang=en",
           "  https://rank.example.org/verify?number=110250001&s=" + text +
               "\n",
       }) {
    absl::StatusOr<ParsedStatement> p = ParseStatement(url);
    ASSERT_TRUE(p.ok()) << url << ": " << p.status();
    EXPECT_EQ(p->statement.number, "110250001");
  }
  EXPECT_FALSE(
      ParseStatement("https://rank.example.org/verify?number=110250001").ok());
}

TEST(CertificateStatementTest, SignRefusesABrokenField) {
  CertificateStatement s = Sample();
  s.number = "11025000";
  EXPECT_EQ(SignStatement(s, Key('a')).status().code(),
            absl::StatusCode::kInvalidArgument);
  s = Sample();
  s.grade = "3|d";
  EXPECT_FALSE(SignStatement(s, Key('a')).ok());
  s = Sample();
  s.name_digest = "short";
  EXPECT_FALSE(SignStatement(s, Key('a')).ok());
}

TEST(RevocationListTest, SignedListRoundTripsAndFindsNumbers) {
  const SigningKey key = Key('a');
  RevocationList list = SignRevocationList(
      42, 1765324800, {{"110250007", 300}, {"110250002", 100}}, key);
  ASSERT_EQ(list.revoked.size(), 2u);
  EXPECT_EQ(list.revoked[0].number, "110250002");  // by number
  absl::StatusOr<RevocationList> back = RevocationList::FromJson(list.ToJson());
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, list);
  EXPECT_TRUE(VerifyRevocationList(*back, key.public_key()).ok);
  EXPECT_EQ(back->Find("110250007")->revoked_unix, 300);
  EXPECT_FALSE(back->Find("110250001").has_value());

  RevocationList dropped = *back;
  dropped.revoked.erase(dropped.revoked.begin());
  EXPECT_FALSE(VerifyRevocationList(dropped, key.public_key()).ok);
  EXPECT_FALSE(VerifyRevocationList(*back, Key('b').public_key()).ok);
  EXPECT_FALSE(RevocationList::FromJson("{}").ok());
  EXPECT_FALSE(RevocationList::FromJson("[]").ok());
}

}  // namespace
}  // namespace gorank::audit
