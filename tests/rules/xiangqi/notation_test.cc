// ICCS, WXF and Chinese notation: examples read and written by hand, and a
// round trip (write, then read back to the same move) over every legal move
// of seeded random games and of the perft positions.
#include "services/rules/xiangqi/notation.h"

#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "services/rules/xiangqi/position.h"

namespace gorank::rules::xiangqi {
namespace {

Position Fen(const char* fen) {
  absl::StatusOr<Position> p = Position::FromFen(fen);
  EXPECT_TRUE(p.ok()) << fen << ": " << p.status();
  return p.ok() ? *p : Position::Start();
}

Move Iccs(const Position& p, const char* text) {
  const Resolution r = ResolveMove(p, text, Notation::kIccs);
  EXPECT_EQ(r.status, Resolution::Status::kOk) << text << ": " << r.message;
  return r.move;
}

struct Written {
  const char* fen;  // nullptr: start
  const char* iccs;
  const char* wxf;
  const char* chinese;
};

TEST(XiangqiNotationTest, ExamplesInAllThreeNotations) {
  const char* after_h2e2 =
      "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 0 1";
  const std::vector<Written> cases = {
      {nullptr, "h2e2", "C2.5", "炮二平五"},
      {nullptr, "h0g2", "H2+3", "马二进三"},
      {nullptr, "b0c2", "H8+7", "马八进七"},
      {nullptr, "a0a1", "R9+1", "车九进一"},
      {nullptr, "f0e1", "A4+5", "仕四进五"},
      {nullptr, "g0e2", "E3+5", "相三进五"},
      {nullptr, "c3c4", "P7+1", "兵七进一"},
      {nullptr, "e0e1", "K5+1", "帅五进一"},
      {nullptr, "b2b9", "C8+7", "炮八进七"},
      {after_h2e2, "h9g7", "H8+7", "马８进７"},
      {after_h2e2, "h7e7", "C8.5", "炮８平５"},
      {after_h2e2, "g6g5", "P7+1", "卒７进１"},
      {after_h2e2, "a9a8", "R1+1", "车１进１"},
      {after_h2e2, "f9e8", "A6+5", "士６进５"},
      // Two cannons on one file: front and rear.
      {"5k3/9/9/9/9/4C4/9/4C4/9/3K5 w", "e4d4", "+C.6", "前炮平六"},
      {"5k3/9/9/9/9/4C4/9/4C4/9/3K5 w", "e2e3", "-C+1", "后炮进一"},
      // Three soldiers on one file: front, middle, rear.
      {"5k3/9/4P4/4P4/4P4/9/9/9/9/3K5 w", "e7e8", "15+1", "前兵进一"},
      {"5k3/9/4P4/4P4/4P4/9/9/9/9/3K5 w", "e6d6", "25.6", "中兵平六"},
      {"5k3/9/4P4/4P4/4P4/9/9/9/9/3K5 w", "e5f5", "35.4", "后兵平四"},
      // Soldiers doubled on two files: place, then file.
      {"3k5/9/2P3P2/2P3P2/9/9/9/9/9/4K4 w", "c7c8", "17+1", "前七进一"},
      {"3k5/9/2P3P2/2P3P2/9/9/9/9/9/4K4 w", "g6h6", "23.2", "后三平二"},
  };
  for (const Written& c : cases) {
    const Position p = c.fen ? Fen(c.fen) : Position::Start();
    const Move m = Iccs(p, c.iccs);
    EXPECT_EQ(FormatMove(p, m, Notation::kIccs), c.iccs);
    EXPECT_EQ(FormatMove(p, m, Notation::kWxf), c.wxf) << c.iccs;
    EXPECT_EQ(FormatMove(p, m, Notation::kChinese), c.chinese) << c.iccs;
    for (auto [n, text] :
         {std::pair{Notation::kWxf, c.wxf}, {Notation::kChinese, c.chinese}}) {
      const Resolution r = ResolveMove(p, text, n);
      EXPECT_EQ(r.status, Resolution::Status::kOk) << text << ": " << r.message;
      EXPECT_EQ(r.move, m) << text;
    }
  }
}

TEST(XiangqiNotationTest, OtherSpellingsAreRead) {
  const Position start = Position::Start();
  const Move cannon = Iccs(start, "h2e2");
  for (auto [n, text] : std::vector<std::pair<Notation, const char*>>{
           {Notation::kIccs, "H2-E2"},
           {Notation::kIccs, "h2-e2"},
           {Notation::kWxf, "c2=5"},
           {Notation::kChinese, "砲二平五"},
           {Notation::kChinese, "炮2平5"},
           {Notation::kChinese, "炮２平５"},
       }) {
    const Resolution r = ResolveMove(start, text, n);
    EXPECT_EQ(r.status, Resolution::Status::kOk) << text << ": " << r.message;
    EXPECT_EQ(r.move, cannon) << text;
  }
  EXPECT_EQ(ResolveMove(start, "傌八進七", Notation::kChinese).move,
            Iccs(start, "b0c2"));
  EXPECT_EQ(ResolveMove(start, "N8+7", Notation::kWxf).move,
            Iccs(start, "b0c2"));
  const Position two = Fen("5k3/9/9/9/9/4C4/9/4C4/9/3K5 w");
  EXPECT_EQ(ResolveMove(two, "C+.6", Notation::kWxf).move, Iccs(two, "e4d4"));
  const Position files = Fen("3k5/9/2P3P2/2P3P2/9/9/9/9/9/4K4 w");
  EXPECT_EQ(ResolveMove(files, "前兵七进一", Notation::kChinese).move,
            Iccs(files, "c7c8"));
}

TEST(XiangqiNotationTest, DetectsTheNotation) {
  EXPECT_EQ(DetectNotation("h2e2"), Notation::kIccs);
  EXPECT_EQ(DetectNotation("H2-E2"), Notation::kIccs);
  EXPECT_EQ(DetectNotation("C2.5"), Notation::kWxf);
  EXPECT_EQ(DetectNotation("+C.5"), Notation::kWxf);
  EXPECT_EQ(DetectNotation("炮二平五"), Notation::kChinese);
}

struct Bad {
  const char* fen;
  const char* text;
  Notation notation;
  Resolution::Status status;
  Rule rule;
};

TEST(XiangqiNotationTest, UnreadableImpossibleAndAmbiguousMoves) {
  const char* two_chariots = "3k5/9/9/9/9/R8/9/9/9/R3K4 w";
  const std::vector<Bad> cases = {
      {nullptr, "zz", Notation::kWxf, Resolution::Status::kUnreadable,
       Rule::kNone},
      {nullptr, "X2.5", Notation::kWxf, Resolution::Status::kUnreadable,
       Rule::kNone},
      {nullptr, "C2*5", Notation::kWxf, Resolution::Status::kUnreadable,
       Rule::kNone},
      {nullptr, "j2e2", Notation::kIccs, Resolution::Status::kUnreadable,
       Rule::kNone},
      {nullptr, "炮二走五", Notation::kChinese, Resolution::Status::kUnreadable,
       Rule::kNone},
      {nullptr, "C1.5", Notation::kWxf, Resolution::Status::kNoSuchPiece,
       Rule::kNone},
      {nullptr, "炮一平五", Notation::kChinese,
       Resolution::Status::kNoSuchPiece, Rule::kNone},
      {nullptr, "+C.5", Notation::kWxf, Resolution::Status::kNoSuchPiece,
       Rule::kNone},
      {nullptr, "H8+6", Notation::kWxf, Resolution::Status::kIllegal,
       Rule::kHorseLeg},
      {nullptr, "马八进六", Notation::kChinese, Resolution::Status::kIllegal,
       Rule::kHorseLeg},
      {nullptr, "H8+8", Notation::kWxf, Resolution::Status::kIllegal,
       Rule::kHorseStep},
      {nullptr, "A4.5", Notation::kWxf, Resolution::Status::kIllegal,
       Rule::kAdvisorStep},
      {nullptr, "R9+4", Notation::kWxf, Resolution::Status::kIllegal,
       Rule::kChariotBlocked},
      {nullptr, "C2+6", Notation::kWxf, Resolution::Status::kIllegal,
       Rule::kCannonBlocked},
      {nullptr, "P7.6", Notation::kWxf, Resolution::Status::kIllegal,
       Rule::kSoldierSideways},
      {nullptr, "P7-1", Notation::kWxf, Resolution::Status::kIllegal,
       Rule::kSoldierBackward},
      {nullptr, "a0a4", Notation::kIccs, Resolution::Status::kIllegal,
       Rule::kChariotBlocked},
      {nullptr, "b7b0", Notation::kIccs, Resolution::Status::kIllegal,
       Rule::kOpponentPiece},
      {two_chariots, "R9+1", Notation::kWxf, Resolution::Status::kAmbiguous,
       Rule::kNone},
      {two_chariots, "车九进一", Notation::kChinese,
       Resolution::Status::kAmbiguous, Rule::kNone},
  };
  for (const Bad& c : cases) {
    const Position p = c.fen ? Fen(c.fen) : Position::Start();
    const Resolution r = ResolveMove(p, c.text, c.notation);
    EXPECT_EQ(r.status, c.status) << c.text << ": " << r.message;
    EXPECT_EQ(r.rule, c.rule) << c.text << ": " << r.message;
    EXPECT_FALSE(r.message.empty()) << c.text;
  }
  // With a marker the two chariots are told apart.
  const Position p = Fen(two_chariots);
  EXPECT_EQ(ResolveMove(p, "+R+1", Notation::kWxf).move, Iccs(p, "a4a5"));
  EXPECT_EQ(ResolveMove(p, "后车进一", Notation::kChinese).move,
            Iccs(p, "a0a1"));
}

void RoundTripAll(const Position& p) {
  MoveList legal;
  p.GenerateLegal(&legal);
  for (Move m : legal) {
    for (Notation n : {Notation::kIccs, Notation::kWxf, Notation::kChinese}) {
      const std::string text = FormatMove(p, m, n);
      const Resolution r = ResolveMove(p, text, n);
      ASSERT_EQ(r.status, Resolution::Status::kOk)
          << p.ToFen() << " " << MoveToIccs(m) << " as " << text << ": "
          << r.message;
      ASSERT_EQ(r.move, m) << p.ToFen() << " " << text;
      EXPECT_EQ(DetectNotation(text), n) << text;
    }
  }
}

TEST(XiangqiNotationTest, RoundTripOnEveryGeneratedMove) {
  std::mt19937 rng(2026);
  int positions = 0;
  for (int game = 0; game < 25; ++game) {
    Position p = Position::Start();
    for (int ply = 0; ply < 160; ++ply) {
      RoundTripAll(p);
      ++positions;
      MoveList legal;
      p.GenerateLegal(&legal);
      if (legal.size == 0) break;
      p.MakeMove(legal.moves[rng() % legal.size]);
    }
  }
  EXPECT_GT(positions, 2000);
  for (const char* fen :
       {"5k3/9/4P4/4P4/4P4/9/9/9/9/3K5 w", "3k5/9/2P3P2/2P3P2/9/9/9/9/9/4K4 w",
        "4k4/9/9/9/9/4p4/4p4/4p4/9/3K5 b",
        "3k5/9/9/9/4P4/2P1P4/2P1P4/9/9/4K4 w"})
    RoundTripAll(Fen(fen));
}

}  // namespace
}  // namespace gorank::rules::xiangqi
