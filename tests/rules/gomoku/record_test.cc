#include "services/rules/gomoku/record.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace gorank::rules::gomoku {
namespace {

std::vector<std::string> Moves(const GameRecord& record) {
  std::vector<std::string> out;
  for (const RecordedMove& m : record.moves) out.push_back(m.ToString());
  return out;
}

TEST(ParseSgfRecordTest, ReadsMovesAndRootProperties) {
  const absl::StatusOr<GameRecord> record = ParseSgfRecord(
      "\xEF\xBB\xBF(;GM[4]FF[4]SZ[15]PB[张三]PW[李四]EV[省赛]DT[2024-05-01]RU["
      "RIF]"
      "RE[W+F]\n;B[hh];W[ao]\n;B[hf]C[comment \\] here];W[oa];B[])");
  ASSERT_TRUE(record.ok()) << record.status();
  EXPECT_EQ(Moves(*record),
            (std::vector<std::string>{"1. B H8", "2. W A1", "3. B H10",
                                      "4. W O15", "5. B pass"}));
  EXPECT_EQ(record->black_player, "张三");
  EXPECT_EQ(record->white_player, "李四");
  EXPECT_EQ(record->event, "省赛");
  EXPECT_EQ(record->date, "2024-05-01");
  EXPECT_EQ(record->rules, "RIF");
  EXPECT_EQ(record->result.kind, RecordedResult::Kind::kWhiteWins);
  EXPECT_EQ(record->result.reason, RecordedResult::Reason::kForfeit);
  EXPECT_EQ(record->moves[2].position.ToString(), "line 3, column 2");
}

TEST(ParseSgfRecordTest, FollowsTheFirstVariation) {
  const absl::StatusOr<GameRecord> record =
      ParseSgfRecord("(;GM[4];B[hh](;W[ii](;B[jj])(;B[aa]))(;W[gg];B[tt]))");
  ASSERT_TRUE(record.ok()) << record.status();
  EXPECT_EQ(Moves(*record),
            (std::vector<std::string>{"1. B H8", "2. W I7", "3. B J6"}));
}

TEST(ParseSgfRecordTest, WithoutGmOrSzIsAccepted) {
  const absl::StatusOr<GameRecord> record = ParseSgfRecord("(;B[hh];W[tt])");
  ASSERT_TRUE(record.ok()) << record.status();
  EXPECT_EQ(Moves(*record), (std::vector<std::string>{"1. B H8", "2. W pass"}));
  EXPECT_EQ(record->result.kind, RecordedResult::Kind::kAbsent);
}

TEST(ParseSgfRecordTest, DecodesLegacyChineseCharsets) {
  // "张三" in GBK bytes, declared as GB2312.
  const absl::StatusOr<GameRecord> record =
      ParseSgfRecord("(;GM[4]CA[GB2312]PB[\xD5\xC5\xC8\xFD];B[hh])");
  ASSERT_TRUE(record.ok()) << record.status();
  EXPECT_EQ(record->black_player, "张三");
  EXPECT_EQ(Moves(*record), (std::vector<std::string>{"1. B H8"}));
}

struct BadSgf {
  const char* sgf;
  absl::StatusCode code;
  const char* message;
};

// Gomoku's own checks name the line and column (in characters).
TEST(ParseSgfRecordTest, RejectsWithPositionAndExpectation) {
  const std::vector<BadSgf> cases = {
      {"(;GM[1];B[hh])", absl::StatusCode::kInvalidArgument,
       "SGF line 1, column 3: GM[1] is not a Gomoku record; expected GM[4] "
       "(GM[1] is Go)"},
      {"(;GM[4]SZ[19];B[hh])", absl::StatusCode::kInvalidArgument,
       "SGF line 1, column 8: SZ[19]: only 15x15 Gomoku is checked; expected "
       "SZ[15]"},
      {"(;GM[4]PB[张三];B[hh];W[pp])", absl::StatusCode::kInvalidArgument,
       "SGF line 1, column 21: move 2 W[pp] is not a point of the 15x15 "
       "board; expected two letters a-o (column, then row from the top), or "
       "W[] to pass"},
      {"(;GM[4];B[hh]\n;W[HH])", absl::StatusCode::kInvalidArgument,
       "SGF line 2, column 2: move 2 W[HH] is not a point of the 15x15 board; "
       "expected two letters a-o (column, then row from the top), or W[] to "
       "pass"},
      {"(;B[hh];W[ii]B[jj])", absl::StatusCode::kInvalidArgument,
       "SGF line 1, column 8: a node holds both B and W; expected one move a "
       "node"},
      {"(;B[hh][ii])", absl::StatusCode::kInvalidArgument,
       "SGF line 1, column 3: property B has 2 values; expected exactly one"},
      {"(;PB[a][b];B[hh])", absl::StatusCode::kInvalidArgument,
       "SGF line 1, column 3: property PB has 2 values; expected exactly one"},
      {"(;B[hh])(;B[hh])", absl::StatusCode::kInvalidArgument,
       "the SGF file holds 2 games; a Gomoku record must hold exactly one"},
      {"(;GM[4]AB[hh][ii];W[jj])", absl::StatusCode::kUnimplemented,
       "SGF line 1, column 8: setup stones (AB) are not supported; give the "
       "game as B/W moves from an empty board"},
  };
  for (const BadSgf& c : cases) {
    const absl::StatusOr<GameRecord> record = ParseSgfRecord(c.sgf);
    EXPECT_EQ(record.status().code(), c.code) << c.sgf;
    EXPECT_EQ(std::string(record.status().message()), c.message) << c.sgf;
  }
}

// Syntax errors come from the shared reader, with a byte offset.
TEST(ParseSgfRecordTest, SyntaxErrorsFromTheSharedReader) {
  for (const char* bad : {"hello", "(;GM[4];B[hh]", "(;B[hh", "(;B [hh] # )"}) {
    const absl::StatusOr<GameRecord> record = ParseSgfRecord(bad);
    EXPECT_EQ(record.status().code(), absl::StatusCode::kInvalidArgument)
        << bad;
  }
  EXPECT_EQ(std::string(ParseSgfRecord("(;B[hh").status().message()),
            "malformed SGF at byte offset 3: the value opened here has no "
            "closing ']'");
  std::string deep = "(;B[hh]";
  for (int i = 0; i < 10005; ++i) deep += "(;W[ii]";
  EXPECT_EQ(ParseSgfRecord(deep).status().code(),
            absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(ParseSgfRecord(std::string(2 << 20, ' ')).status().code(),
            absl::StatusCode::kResourceExhausted);
}

TEST(ParseMoveListTest, ReadsTheRuleTextNotation) {
  const absl::StatusOr<GameRecord> record =
      ParseMoveList("1. H8 2. I9 3.h9,\tpass;\n J10  i10");
  ASSERT_TRUE(record.ok()) << record.status();
  EXPECT_EQ(Moves(*record),
            (std::vector<std::string>{"1. B H8", "2. W I9", "3. B H9",
                                      "4. W pass", "5. B J10", "6. W I10"}));
  EXPECT_EQ(record->moves[4].position.ToString(), "line 2, column 2");
  EXPECT_EQ(record->result.kind, RecordedResult::Kind::kAbsent);
}

TEST(ParseMoveListTest, RejectsWithMoveNumberAndPosition) {
  struct Case {
    const char* text;
    const char* message;
  };
  for (const Case& c : {
           Case{"H8 I9 P8",
                "move list, move 3 at line 1, column 7: 'P8' is not a Gomoku "
                "point: expected a column letter A-O then a row number 1-15, "
                "such as H8"},
           Case{"H8\n  H16",
                "move list, move 2 at line 2, column 3: 'H16' is not a "
                "Gomoku point: expected a column letter A-O then a row "
                "number 1-15, such as H8"},
           Case{"8H",
                "move list, move 1 at line 1, column 1: '8H' is not a Gomoku "
                "point: expected a column letter A-O then a row number 1-15, "
                "such as H8"},
           Case{"  \n ",
                "the move list holds no moves; expected points such as \"H8 I9 "
                "H9\""},
       }) {
    const absl::StatusOr<GameRecord> record = ParseMoveList(c.text);
    EXPECT_EQ(record.status().code(), absl::StatusCode::kInvalidArgument)
        << c.text;
    EXPECT_EQ(std::string(record.status().message()), c.message) << c.text;
  }
}

TEST(ParseRecordedResultTest, ReadsCommonSpellings) {
  using Kind = RecordedResult::Kind;
  using Reason = RecordedResult::Reason;
  struct Case {
    const char* text;
    Kind kind;
    Reason reason;
  };
  for (const Case& c : {
           Case{"", Kind::kAbsent, Reason::kUnspecified},
           Case{"B+R", Kind::kBlackWins, Reason::kResignation},
           Case{"W+Resign", Kind::kWhiteWins, Reason::kResignation},
           Case{"b+t", Kind::kBlackWins, Reason::kTime},
           Case{"W+Time", Kind::kWhiteWins, Reason::kTime},
           Case{"W+F", Kind::kWhiteWins, Reason::kForfeit},
           Case{"W+Foul", Kind::kWhiteWins, Reason::kForbiddenMove},
           Case{"B+", Kind::kBlackWins, Reason::kUnspecified},
           Case{"0", Kind::kDraw, Reason::kUnspecified},
           Case{"Draw", Kind::kDraw, Reason::kUnspecified},
           Case{"Void", Kind::kVoid, Reason::kUnspecified},
           Case{"?", Kind::kUnknown, Reason::kUnspecified},
           Case{"黑胜", Kind::kBlackWins, Reason::kUnspecified},
           Case{"白胜", Kind::kWhiteWins, Reason::kUnspecified},
           Case{"白胜（黑禁手）", Kind::kWhiteWins, Reason::kForbiddenMove},
           Case{"黑方认输", Kind::kWhiteWins, Reason::kResignation},
           Case{"白方认输", Kind::kBlackWins, Reason::kResignation},
           Case{"和局", Kind::kDraw, Reason::kUnspecified},
           Case{"something else", Kind::kUnknown, Reason::kUnspecified},
       }) {
    const RecordedResult r = ParseRecordedResult(c.text);
    EXPECT_EQ(r.kind, c.kind) << c.text;
    EXPECT_EQ(r.reason, c.reason) << c.text;
    EXPECT_EQ(r.text, c.text);
  }
}

}  // namespace
}  // namespace gorank::rules::gomoku
