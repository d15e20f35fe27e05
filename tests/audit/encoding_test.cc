#include "services/audit/encoding.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "absl/status/status.h"

namespace gorank::audit {
namespace {

TEST(HexTest, EncodesLowercaseAndDecodesEitherCase) {
  EXPECT_EQ(HexEncode(""), "");
  EXPECT_EQ(HexEncode(std::string("\x00\x01\xab\xff", 4)), "0001abff");
  EXPECT_EQ(HexDecode("0001ABff").value(), std::string("\x00\x01\xab\xff", 4));
}

TEST(HexTest, RejectsMalformedText) {
  EXPECT_EQ(HexDecode("abc").status().code(),
            absl::StatusCode::kInvalidArgument);
  absl::Status bad = HexDecode("00zz").status();
  EXPECT_EQ(bad.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(bad.message(), "hex text has a non-hex character at position 2");
}

// RFC 4648 section 10 test vectors.
TEST(Base64Test, Rfc4648Vectors) {
  const std::vector<std::pair<std::string, std::string>> vectors = {
      {"", ""},
      {"f", "Zg=="},
      {"fo", "Zm8="},
      {"foo", "Zm9v"},
      {"foob", "Zm9vYg=="},
      {"fooba", "Zm9vYmE="},
      {"foobar", "Zm9vYmFy"},
  };
  for (const auto& [plain, encoded] : vectors) {
    EXPECT_EQ(Base64Encode(plain), encoded);
    EXPECT_EQ(Base64Decode(encoded).value(), plain) << encoded;
  }
}

TEST(Base64Test, RoundTripsAllByteValues) {
  std::string all;
  for (int i = 0; i < 256; ++i) all.push_back(static_cast<char>(i));
  for (size_t n = 0; n <= all.size(); n += 37) {
    std::string bytes = all.substr(0, n);
    EXPECT_EQ(Base64Decode(Base64Encode(bytes)).value(), bytes) << n;
  }
}

TEST(Base64Test, RejectsNonCanonicalOrMalformedText) {
  const std::vector<std::string> bad = {
      "Zg",        // padding missing
      "Zg=",       // length not a multiple of 4
      "Zh==",      // non-zero bits before the padding
      "Zm9=",      // non-zero bits before the padding
      "Z===",      // too much padding
      "Zg==Zg==",  // padding in the middle
      "Zm9v\n",    // line break
      "Zm-v",      // URL-safe alphabet
  };
  for (const std::string& text : bad) {
    EXPECT_EQ(Base64Decode(text).status().code(),
              absl::StatusCode::kInvalidArgument)
        << text;
  }
}

}  // namespace
}  // namespace gorank::audit
