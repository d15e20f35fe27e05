#include "services/rules/sgf/charset.h"

#include <string>

#include "gtest/gtest.h"
#include "services/rules/sgf/sgf.h"

namespace gorank::rules::sgf {
namespace {

TEST(IsValidUtf8, Table) {
  struct Case {
    std::string bytes;
    bool valid;
  };
  const Case cases[] = {
      {"", true},
      {"plain ascii (;B[aa])", true},
      {"黑中盘胜", true},
      {"\xF0\x9F\x98\x80", true},   // U+1F600
      {"\xC0\xAF", false},          // overlong '/'
      {"\xED\xA0\x80", false},      // surrogate
      {"\xF4\x90\x80\x80", false},  // above U+10FFFF
      {"\xE4\xB8", false},          // truncated
      {"\xba\xda\xd6\xd0", false},  // GBK 黑中
      {"\x80", false},
  };
  for (const Case& c : cases)
    EXPECT_EQ(IsValidUtf8(c.bytes), c.valid) << c.bytes;
}

TEST(ConvertToUtf8, GbkAndErrors) {
  absl::StatusOr<std::string> out =
      ConvertToUtf8("\xc4\xf4\xce\xc0\xc6\xbd", "GB18030");
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(*out, "聂卫平");
  absl::StatusOr<std::string> bad = ConvertToUtf8("ab\xff", "UTF-8");
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(bad.status().message().find("offset 2"), std::string::npos)
      << bad.status();
  EXPECT_EQ(ConvertToUtf8("x", "NO-SUCH-CHARSET-42").status().code(),
            absl::StatusCode::kUnimplemented);
}

struct DecodeCase {
  const char* name;
  std::string bytes;
  std::string charset;  // expected decoder
  bool note;            // expected a note
  std::string player;   // expected PB after decoding
};

class DecodeTable : public testing::TestWithParam<DecodeCase> {};

TEST_P(DecodeTable, DecodesPlayerName) {
  const DecodeCase& c = GetParam();
  absl::StatusOr<Collection> collection = ParseCollection(c.bytes);
  ASSERT_TRUE(collection.ok()) << collection.status();
  EXPECT_EQ(collection->charset, c.charset);
  EXPECT_EQ(!collection->charset_note.empty(), c.note)
      << collection->charset_note;
  const Value* pb = collection->games[0].FirstValue(0, "PB");
  ASSERT_NE(pb, nullptr);
  EXPECT_EQ(pb->text, c.player);
}

INSTANTIATE_TEST_SUITE_P(
    Charsets, DecodeTable,
    testing::Values(
        DecodeCase{"Utf8Declared", "(;CA[UTF-8]PB[聂卫平];B[aa])", "UTF-8",
                   false, "聂卫平"},
        DecodeCase{"Utf8Undeclared", "(;PB[柯洁];B[aa])", "UTF-8", false,
                   "柯洁"},
        DecodeCase{"Gb2312Declared",
                   "(;CA[GB2312]PB[\xc4\xf4\xce\xc0\xc6\xbd]RE["
                   "\xba\xda\xd6\xd0\xc5\xcc\xca\xa4])",
                   "GB18030", false, "聂卫平"},
        DecodeCase{"GbkDeclaredLowercase", "(;CA[gbk]PB[\xb9\xc5\xc1\xa6])",
                   "GB18030", false, "古力"},
        DecodeCase{"Gb18030Declared", "(;CA[GB18030]PB[\xb9\xc5\xc1\xa6])",
                   "GB18030", false, "古力"},
        // GBK without CA: not UTF-8, so detected as GBK.
        DecodeCase{"GbkUndeclared",
                   "(;PB[\xb9\xc5\xc1\xa6]RE["
                   "\xb0\xd7\xca\xa4\x33\xd3\xd6\x33\x2f\x34\xd7\xd3])",
                   "GB18030", true, "古力"},
        // 乚 is 0x81 0x5D in GBK: its second byte is ']'.
        DecodeCase{"GbkTrailByteIsBracket", "(;CA[GBK]PB[\x81\x5d\xb9\xc5])",
                   "GB18030", false, "乚古"},
        // 許 is 0xB3 0x5C in Big5: its second byte is '\'.
        DecodeCase{"Big5TrailByteIsBackslash", "(;CA[Big5]PB[\xb3\x5c])",
                   "BIG5-HKSCS", false, "許"},
        // Declared GB2312 but the bytes are UTF-8 (a MultiGo habit).
        DecodeCase{"WrongDeclaration", "(;CA[GB2312]PB[柯洁])", "UTF-8", true,
                   "柯洁"},
        DecodeCase{"Latin1Declared", "(;CA[ISO-8859-1]PB[Jos\xe9])",
                   "ISO-8859-1", false, "José"},
        DecodeCase{"Latin1LabelOnUtf8", "(;CA[ISO-8859-1]PB[José])", "UTF-8",
                   true, "José"}),
    [](const testing::TestParamInfo<DecodeCase>& info) {
      return info.param.name;
    });

}  // namespace
}  // namespace gorank::rules::sgf
