// The PGN reader: tags, numbered moves, comments, variations, several games,
// results, UTF-8 and GBK bytes, and its errors and limits.
#include "services/rules/xiangqi/pgn.h"

#include <iconv.h>

#include <string>

#include "gtest/gtest.h"

namespace gorank::rules::xiangqi {
namespace {

std::string ToGbk(const std::string& utf8) {
  iconv_t cd = iconv_open("GBK", "UTF-8");
  std::string out(utf8.size() * 2 + 16, '\0');
  char* in = const_cast<char*>(utf8.data());
  size_t in_left = utf8.size(), out_left = out.size();
  char* o = out.data();
  EXPECT_NE(iconv(cd, &in, &in_left, &o, &out_left), static_cast<size_t>(-1));
  iconv_close(cd);
  out.resize(out.size() - out_left);
  return out;
}

std::vector<std::string> Texts(const PgnGame& g) {
  std::vector<std::string> out;
  for (const WrittenMove& m : g.moves) out.push_back(m.text);
  return out;
}

TEST(XiangqiPgnTest, TagsMovesCommentsAndVariations) {
  const std::string pgn =
      "[Game \"Chinese Chess\"]\n"
      "[Event \"City league\"]\n"
      "[Date \"2026.05.01\"]\n"
      "[Red \"Li \\\"Red\\\" Wei\"]\n"
      "[Black \"Zhang San\"]\n"
      "[Result \"1-0\"]\n"
      "[Format \"ICCS\"]\n"
      "\n"
      "1. h2e2 {central cannon} h9g7 (1... b9c7 2. h0g2) 2. h0g2 $1 i9h9 ; a "
      "comment\n"
      "3.i0h0 1-0\n";
  absl::StatusOr<PgnFile> f = ReadPgn(pgn);
  ASSERT_TRUE(f.ok()) << f.status();
  ASSERT_EQ(f->games.size(), 1u);
  const PgnGame& g = f->games[0];
  EXPECT_EQ(f->charset, "UTF-8");
  EXPECT_EQ(g.game, "Chinese Chess");
  EXPECT_EQ(g.event, "City league");
  EXPECT_EQ(g.date, "2026.05.01");
  EXPECT_EQ(g.red, "Li \"Red\" Wei");
  EXPECT_EQ(g.black, "Zhang San");
  EXPECT_EQ(g.format, "ICCS");
  EXPECT_EQ(g.result.kind, RecordedResult::Kind::kRedWins);
  EXPECT_EQ(Texts(g),
            (std::vector<std::string>{"h2e2", "h9g7", "h0g2", "i9h9", "i0h0"}));
  EXPECT_EQ(g.moves[0].number, 1);
  EXPECT_EQ(g.moves[4].number, 5);
  EXPECT_EQ(g.moves[0].line, 9);
  EXPECT_EQ(g.moves[4].line, 10);
}

TEST(XiangqiPgnTest, SeveralGamesAndTheirStartLines) {
  const std::string pgn =
      "[Red \"A\"]\n1. C2.5 H8+7 *\n\n[Red \"B\"]\n[FEN "
      "\"3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1\"]\n"
      "1. K5+1 0-1\n1. h2e2 1/2-1/2\n";
  absl::StatusOr<PgnFile> f = ReadPgn(pgn);
  ASSERT_TRUE(f.ok()) << f.status();
  ASSERT_EQ(f->games.size(), 3u);
  EXPECT_EQ(f->games[0].red, "A");
  EXPECT_EQ(f->games[0].result.kind, RecordedResult::Kind::kUnknown);
  EXPECT_EQ(Texts(f->games[0]), (std::vector<std::string>{"C2.5", "H8+7"}));
  EXPECT_EQ(f->games[1].line, 4);
  EXPECT_EQ(f->games[1].fen, "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1");
  EXPECT_EQ(f->games[1].result.kind, RecordedResult::Kind::kBlackWins);
  EXPECT_EQ(f->games[2].line, 7);
  EXPECT_EQ(f->games[2].result.kind, RecordedResult::Kind::kDraw);
}

TEST(XiangqiPgnTest, ChineseMovesInUtf8AndGbk) {
  const std::string utf8 =
      "[Game \"Chinese Chess\"]\n[Red \"王天一\"]\n[Black \"郑惟桐\"]\n[Result "
      "\"红胜\"]\n"
      "[Format \"Chinese\"]\n1．炮二平五　马８进７ 2. 马二进三 车９平８ 红胜\n";
  for (const std::string& bytes : {utf8, ToGbk(utf8), "\xef\xbb\xbf" + utf8}) {
    absl::StatusOr<PgnFile> f = ReadPgn(bytes);
    ASSERT_TRUE(f.ok()) << f.status();
    const PgnGame& g = f->games.at(0);
    EXPECT_EQ(g.red, "王天一");
    EXPECT_EQ(g.black, "郑惟桐");
    EXPECT_EQ(g.result.kind, RecordedResult::Kind::kRedWins);
    EXPECT_EQ(Texts(g), (std::vector<std::string>{"炮二平五", "马８进７",
                                                  "马二进三", "车９平８"}));
    if (bytes == utf8 || bytes[0] == '\xef') {
      EXPECT_EQ(f->charset, "UTF-8");
      EXPECT_TRUE(f->charset_note.empty());
    } else {
      EXPECT_EQ(f->charset, "GB18030");
      EXPECT_NE(f->charset_note.find("GBK"), std::string::npos);
    }
  }
}

TEST(XiangqiPgnTest, ReadsResults) {
  using K = RecordedResult::Kind;
  const std::vector<std::pair<const char*, K>> cases = {
      {"1-0", K::kRedWins},    {"0-1", K::kBlackWins}, {"1/2-1/2", K::kDraw},
      {"*", K::kUnknown},      {"", K::kAbsent},       {"红胜", K::kRedWins},
      {"黑胜", K::kBlackWins}, {"和棋", K::kDraw},     {"红负", K::kBlackWins},
      {"黑方负", K::kRedWins}, {"平局", K::kDraw},     {"unknown", K::kUnknown},
  };
  for (const auto& [text, kind] : cases)
    EXPECT_EQ(ParseResult(text).kind, kind) << text;
}

TEST(XiangqiPgnTest, SyntaxErrorsNameTheLine) {
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"[Red \"A\n", "not closed"},
      {"[Red A]\n", "quoted value"},
      {"[Red \"A\"\n1. h2e2", "expected ']'"},
      {"1. h2e2 {no end\n", "comment at line 1"},
      {"1. h2e2 (1. b2e2\n", "variation at line 1"},
      {"1. h2e2\n) h9g7", "closes nothing"},
      {"", "no game"},
      {"   \n\n", "no game"},
      {"\xff\xfe\xfd", "neither UTF-8 nor GBK"},
  };
  for (const auto& [text, why] : bad) {
    absl::StatusOr<PgnFile> f = ReadPgn(text);
    ASSERT_FALSE(f.ok()) << text;
    EXPECT_EQ(f.status().code(), absl::StatusCode::kInvalidArgument) << text;
    EXPECT_NE(f.status().message().find(why), std::string::npos) << f.status();
  }
}

TEST(XiangqiPgnTest, Limits) {
  EXPECT_EQ(ReadPgn(std::string(kMaxRecordBytes + 1, ' ')).status().code(),
            absl::StatusCode::kResourceExhausted);
  std::string many;
  for (int i = 0; i <= kMaxGames; ++i) many += "* ";
  EXPECT_EQ(ReadPgn(many).status().code(),
            absl::StatusCode::kResourceExhausted);
  std::string moves;
  while (moves.size() < kMaxRecordBytes - 10) moves += "h2e2 ";
  EXPECT_EQ(ReadPgn(moves).status().code(),
            absl::StatusCode::kResourceExhausted);
}

}  // namespace
}  // namespace gorank::rules::xiangqi
