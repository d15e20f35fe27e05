#include "services/rules/sgf/sgf.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace gorank::rules::sgf {
namespace {

// The values of property `id` along the main line (or a variation).
std::vector<std::string> LineValues(const GameTree& game, const std::string& id,
                                    const std::vector<int>& variation = {}) {
  std::vector<std::string> out;
  absl::StatusOr<std::vector<int>> line = game.Line(variation);
  EXPECT_TRUE(line.ok()) << line.status();
  if (!line.ok()) return out;
  for (int node : *line) {
    for (const Value* v : game.Values(node, id)) out.push_back(v->text);
  }
  return out;
}

GameTree ParseOne(const std::string& text) {
  absl::StatusOr<Collection> c = ParseCollection(text);
  EXPECT_TRUE(c.ok()) << c.status();
  if (!c.ok()) return GameTree();
  EXPECT_EQ(c->games.size(), 1u);
  return c->games.front();
}

TEST(Sgf, ReadsPropertiesAndMainLine) {
  GameTree g =
      ParseOne("(;GM[1]FF[4]SZ[9]PB[Ke Jie]KM[7.5];B[ee];W[cc];B[gg])");
  ASSERT_EQ(g.node_count(), 4);
  EXPECT_EQ(g.FirstValue(0, "SZ")->text, "9");
  EXPECT_EQ(g.FirstValue(0, "PB")->text, "Ke Jie");
  EXPECT_EQ(g.FirstValue(0, "RE"), nullptr);
  EXPECT_EQ(LineValues(g, "B"), (std::vector<std::string>{"ee", "gg"}));
}

TEST(Sgf, EscapedBracketAndBackslash) {  // P01, P02
  GameTree g = ParseOne("(;GM[1]FF[4]SZ[9]C[a [3d?\\]: hi];B[ee])");
  EXPECT_EQ(g.FirstValue(0, "C")->text, "a [3d?]: hi");
  GameTree h = ParseOne("(;GM[1]FF[4]SZ[9]C[\\\\];B[aa];W[bb])");
  EXPECT_EQ(h.FirstValue(0, "C")->text, "\\");
  EXPECT_EQ(LineValues(h, "W"), (std::vector<std::string>{"bb"}));
}

TEST(Sgf, SoftLineBreaksInEveryNewlineConvention) {  // P08
  for (const char* nl : {"\n", "\r", "\r\n", "\n\r"}) {
    GameTree g = ParseOne(std::string("(;C[line1\\") + nl + "line2])");
    EXPECT_EQ(g.FirstValue(0, "C")->text, "line1line2")
        << "newline bytes " << nl[0];
  }
  GameTree hard = ParseOne("(;C[line1\nline2\tend])");
  EXPECT_EQ(hard.FirstValue(0, "C")->text, "line1\nline2 end");  // tab -> space
}

TEST(Sgf, CollectionWithSeveralGames) {  // P03
  absl::StatusOr<Collection> c = ParseCollection(
      "(;GM[1]FF[4]SZ[9];B[ee])\n(;GM[1]FF[4]SZ[9];B[cc];W[gg])");
  ASSERT_TRUE(c.ok()) << c.status();
  ASSERT_EQ(c->games.size(), 2u);
  EXPECT_EQ(c->games[0].node_count(), 2);
  EXPECT_EQ(c->games[1].node_count(), 3);
}

TEST(Sgf, VariationsMainLineAndChosenPath) {  // P04
  GameTree g = ParseOne(
      "(;GM[1]FF[4]SZ[9];B[ee](;W[cc];B[gg])(;W[gg](;B[aa])(;B[bb])(;B[cc])))");
  EXPECT_EQ(LineValues(g, "W"), (std::vector<std::string>{"cc"}));
  EXPECT_EQ(LineValues(g, "B"), (std::vector<std::string>{"ee", "gg"}));
  EXPECT_EQ(LineValues(g, "W", {1}), (std::vector<std::string>{"gg"}));
  EXPECT_EQ(LineValues(g, "B", {1}), (std::vector<std::string>{"ee", "aa"}));
  EXPECT_EQ(LineValues(g, "B", {1, 2}), (std::vector<std::string>{"ee", "cc"}));
  EXPECT_EQ(g.Line({2}).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(g.Line({0, 0}).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(g.Line({-1}).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(Sgf, LowercaseLegacyIdentifiers) {  // P05
  GameTree g =
      ParseOne("(;GaMe[1]SiZe[9]AddBlack[aa][bb];Black[ee];White[cc])");
  EXPECT_EQ(g.FirstValue(0, "GM")->text, "1");
  EXPECT_EQ(g.FirstValue(0, "SZ")->text, "9");
  EXPECT_EQ(g.Values(0, "AB").size(), 2u);
  EXPECT_EQ(LineValues(g, "B"), (std::vector<std::string>{"ee"}));
  EXPECT_EQ(LineValues(g, "W"), (std::vector<std::string>{"cc"}));
}

TEST(Sgf, JunkAroundTheTreeAndParenthesesInValues) {  // P10
  GameTree h =
      ParseOne("garbage text (;GM[1]FF[4]SZ[9]C[(x) :)];B[ee]) trailing ])))");
  EXPECT_EQ(h.FirstValue(0, "SZ")->text, "9");
  EXPECT_EQ(h.FirstValue(0, "C")->text, "(x) :)");
  EXPECT_EQ(LineValues(h, "B"), (std::vector<std::string>{"ee"}));
}

TEST(Sgf, WhiteSpaceBetweenTokensAndRepeatedProperties) {
  GameTree g = ParseOne("( ;\n GM [1]\r\n AB[aa] PL[W] AB [bb]\n ; W [cc] )");
  EXPECT_EQ(g.FirstValue(0, "GM")->text, "1");
  std::vector<const Value*> ab = g.Values(0, "AB");
  ASSERT_EQ(ab.size(), 2u);
  EXPECT_EQ(ab[1]->text, "bb");
  EXPECT_EQ(LineValues(g, "W"), (std::vector<std::string>{"cc"}));
}

struct MalformedCase {
  const char* name;
  std::string text;
  absl::StatusCode code;
  std::string message_part;
};

class Malformed : public testing::TestWithParam<MalformedCase> {};

TEST_P(Malformed, RefusedWithOffsetAndExpectation) {
  const MalformedCase& c = GetParam();
  absl::StatusOr<Collection> result = ParseCollection(c.text);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), c.code) << result.status();
  EXPECT_NE(result.status().message().find(c.message_part), std::string::npos)
      << result.status();
}

INSTANTIATE_TEST_SUITE_P(
    Sgf, Malformed,
    testing::Values(
        MalformedCase{"Empty", "", absl::StatusCode::kInvalidArgument,
                      "no SGF game tree"},
        MalformedCase{"NoTree", "hello (world)",
                      absl::StatusCode::kInvalidArgument, "'(;'"},
        MalformedCase{
            "UnclosedValue", "(;GM[1]C[abc", absl::StatusCode::kInvalidArgument,
            "byte offset 8: the value opened here has no closing ']'"},
        MalformedCase{"MissingParen", "(;GM[1];B[aa]",
                      absl::StatusCode::kInvalidArgument,
                      "byte offset 13: expected ')'"},
        MalformedCase{"GarbageInTree", "(;GM[1] 42 ;B[aa])",
                      absl::StatusCode::kInvalidArgument,
                      "byte offset 8: expected a property identifier"},
        MalformedCase{"VariationWithoutNode", "(;GM[1](B[aa]))",
                      absl::StatusCode::kInvalidArgument,
                      "byte offset 8: expected ';'"},
        MalformedCase{"LowercaseOnlyIdentifier", "(;abc[1])",
                      absl::StatusCode::kInvalidArgument,
                      "at least one uppercase"},
        MalformedCase{"PropertyWithoutValue", "(;GM;B[aa])",
                      absl::StatusCode::kInvalidArgument,
                      "'[' to open a value of property GM"}),
    [](const testing::TestParamInfo<MalformedCase>& info) {
      return info.param.name;
    });

TEST(SgfLimits, RecordTooLarge) {
  Limits limits;
  limits.max_bytes = 100;
  std::string text = "(;GM[1]C[" + std::string(200, 'x') + "])";
  EXPECT_EQ(ParseCollection(text, limits).status().code(),
            absl::StatusCode::kResourceExhausted);
}

TEST(SgfLimits, TooManyNodes) {
  Limits limits;
  limits.max_nodes = 10;
  std::string text = "(;GM[1]";
  for (int i = 0; i < 20; ++i) text += ";B[aa]";
  text += ")";
  absl::Status status = ParseCollection(text, limits).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kResourceExhausted) << status;
}

TEST(SgfLimits, HundredThousandNestedVariationsAreRefusedNotCrashing) {
  std::string text;
  const int kDepth = 100000;
  text.reserve(kDepth * 8);
  for (int i = 0; i < kDepth; ++i) text += "(;B[aa]";
  text.append(kDepth, ')');
  absl::Status status = ParseCollection(text).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kResourceExhausted) << status;
  EXPECT_NE(status.message().find("nested deeper than 10000"),
            std::string::npos)
      << status;
}

TEST(SgfLimits, DeepButAllowedNestingParsesAndWalksIteratively) {
  std::string text = "(;GM[1]";
  const int kDepth = 9000;
  for (int i = 0; i < kDepth; ++i) text += i % 2 == 0 ? "(;B[aa]" : "(;W[bb]";
  text.append(kDepth + 1, ')');
  GameTree g = ParseOne(text);
  EXPECT_EQ(g.node_count(), kDepth + 1);
  absl::StatusOr<std::vector<int>> line = g.Line({});
  ASSERT_TRUE(line.ok());
  EXPECT_EQ(line->size(), static_cast<size_t>(kDepth + 1));
}

}  // namespace
}  // namespace gorank::rules::sgf
