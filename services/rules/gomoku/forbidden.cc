#include "services/rules/gomoku/forbidden.h"

#include <array>
#include <cstdlib>
#include <string>
#include <vector>

namespace gorank::rules::gomoku {
namespace {

constexpr int kStep[4][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};

// Offsets along a line, relative to the move, are kept as bit masks: bit
// (offset + kBias) for offsets -5..5.
constexpr int kBias = 5;
uint16_t Bit(int offset) {
  return static_cast<uint16_t>(1u << (offset + kBias));
}

Point Step(Point p, int dir, int k) {
  return Point{p.col + k * kStep[dir][0], p.row + k * kStep[dir][1]};
}

bool IsBlack(const Board& b, Point p) {
  return p.OnBoard() && b.At(p) == Stone::kBlack;
}
bool IsEmptyOn(const Board& b, Point p) { return p.OnBoard() && b.IsEmpty(p); }

// The run of black stones through `p` (itself black) along `dir`, as
// inclusive offsets from `p`.
struct Run {
  int lo = 0;
  int hi = 0;
  int Length() const { return hi - lo + 1; }
  bool Contains(int k) const { return k >= lo && k <= hi; }
};

Run BlackRun(const Board& b, Point p, int dir) {
  Run run;
  while (IsBlack(b, Step(p, dir, run.lo - 1))) --run.lo;
  while (IsBlack(b, Step(p, dir, run.hi + 1))) ++run.hi;
  return run;
}

// A five or an overline: every stone of the run. (An overline may reach
// beyond the offsets a RawShape can hold.)
LineShape RunShape(Point p, int dir, const Run& run) {
  LineShape line;
  line.kind = run.Length() == 5 ? ShapeKind::kFive : ShapeKind::kOverline;
  line.direction = static_cast<Direction>(dir);
  for (int k = run.lo; k <= run.hi; ++k) line.stones.push_back(Step(p, dir, k));
  return line;
}

uint16_t RunMask(const Run& run, int except) {
  uint16_t mask = 0;
  for (int i = run.lo; i <= run.hi; ++i) {
    if (i != except) mask |= Bit(i);
  }
  return mask;
}

// One shape on one line, in offsets from the move.
struct RawShape {
  uint16_t stones = 0;
  uint16_t points = 0;
};

// The fours through `p` (black, placed) along `dir`; returns how many.
int FindFours(Board& b, Point p, int dir, std::array<RawShape, 8>& out) {
  int n = 0;
  for (int k = -4; k <= 4; ++k) {
    const Point q = Step(p, dir, k);
    if (k == 0 || !IsEmptyOn(b, q)) continue;
    b.Set(q, Stone::kBlack);
    const Run run = BlackRun(b, p, dir);
    b.Set(q, Stone::kEmpty);
    if (run.Length() != 5 || !run.Contains(k)) continue;
    const uint16_t stones = RunMask(run, k);
    int i = 0;
    while (i < n && out[i].stones != stones) ++i;
    if (i == n) out[n++] = RawShape{stones, 0};
    out[i].points |= Bit(k);
  }
  return n;
}

// Points that turn the stones through `p` (black, placed) along `dir` into
// a straight four containing `p`, whether or not they are forbidden.
RawShape StraightFourPoints(Board& b, Point p, int dir) {
  RawShape shape;
  for (int k = -3; k <= 3; ++k) {
    const Point q = Step(p, dir, k);
    if (k == 0 || !IsEmptyOn(b, q)) continue;
    b.Set(q, Stone::kBlack);
    const Run run = BlackRun(b, p, dir);
    const bool straight = run.Length() == 4 && run.Contains(k) &&
                          IsEmptyOn(b, Step(p, dir, run.lo - 1)) &&
                          IsEmptyOn(b, Step(p, dir, run.hi + 1)) &&
                          !IsBlack(b, Step(p, dir, run.lo - 2)) &&
                          !IsBlack(b, Step(p, dir, run.hi + 2));
    b.Set(q, Stone::kEmpty);
    if (straight) {
      shape.points |= Bit(k);
      shape.stones |= RunMask(run, k);
    }
  }
  return shape;
}

// A scratch board on which stones are placed and taken back while checking.
class Checker {
 public:
  explicit Checker(const Board& board) : board_(board) {}

  // REQUIRES: `p` is on the board and empty.
  bool IsForbidden(Point p, int depth) {
    board_.Set(p, Stone::kBlack);
    const bool forbidden = ForbiddenPlaced(p, depth);
    board_.Set(p, Stone::kEmpty);
    return forbidden;
  }

  MoveAnalysis Analyze(Point p);

 private:
  bool ForbiddenPlaced(Point p, int depth);
  // The straight-four points of `candidates` (offsets from `p`, placed) that
  // are not themselves forbidden.
  uint16_t LivePoints(Point p, int dir, uint16_t candidates, int depth);
  LineShape ToLineShape(ShapeKind kind, Point p, int dir,
                        const RawShape& raw) const;

  Board board_;
};

uint16_t Checker::LivePoints(Point p, int dir, uint16_t candidates, int depth) {
  uint16_t live = 0;
  for (int k = -3; k <= 3; ++k) {
    if (!(candidates & Bit(k))) continue;
    // Beyond the guard a completion point is taken as not forbidden.
    if (depth >= kMaxForbiddenDepth ||
        !IsForbidden(Step(p, dir, k), depth + 1)) {
      live |= Bit(k);
    }
  }
  return live;
}

bool Checker::ForbiddenPlaced(Point p, int depth) {
  bool overline = false;
  for (int dir = 0; dir < 4; ++dir) {
    const int length = BlackRun(board_, p, dir).Length();
    if (length == 5) return false;
    overline |= length >= 6;
  }
  if (overline) return true;
  std::array<RawShape, 8> fours;
  int four_count = 0;
  std::array<uint16_t, 4> three_candidates{};
  int three_lines = 0;
  for (int dir = 0; dir < 4; ++dir) {
    const int n = FindFours(board_, p, dir, fours);
    four_count += n;
    if (n == 0)
      three_candidates[dir] = StraightFourPoints(board_, p, dir).points;
    three_lines += three_candidates[dir] != 0;
  }
  if (four_count >= 2) return true;
  if (three_lines < 2) return false;  // no recursion needed
  int threes = 0;
  for (int dir = 0; dir < 4 && threes < 2; ++dir) {
    if (three_candidates[dir] == 0) continue;
    threes += LivePoints(p, dir, three_candidates[dir], depth) != 0;
  }
  return threes >= 2;
}

LineShape Checker::ToLineShape(ShapeKind kind, Point p, int dir,
                               const RawShape& raw) const {
  LineShape shape;
  shape.kind = kind;
  shape.direction = static_cast<Direction>(dir);
  for (int k = -kBias; k <= kBias; ++k) {
    if (raw.stones & Bit(k)) shape.stones.push_back(Step(p, dir, k));
    if (raw.points & Bit(k)) shape.points.push_back(Step(p, dir, k));
  }
  return shape;
}

MoveAnalysis Checker::Analyze(Point p) {
  MoveAnalysis result;
  result.point = p;
  board_.Set(p, Stone::kBlack);
  int four_count = 0;
  int three_count = 0;
  bool overline = false;
  for (int dir = 0; dir < 4; ++dir) {
    const Run run = BlackRun(board_, p, dir);
    if (run.Length() >= 5) {
      result.makes_five |= run.Length() == 5;
      overline |= run.Length() > 5;
      result.shapes.push_back(RunShape(p, dir, run));
      continue;
    }
    std::array<RawShape, 8> fours;
    const int n = FindFours(board_, p, dir, fours);
    for (int i = 0; i < n; ++i) {
      result.shapes.push_back(ToLineShape(ShapeKind::kFour, p, dir, fours[i]));
    }
    four_count += n;
    if (n > 0) continue;
    RawShape three = StraightFourPoints(board_, p, dir);
    if (three.points == 0) continue;
    three.points = LivePoints(p, dir, three.points, 0);
    if (three.points == 0) continue;
    ++three_count;
    three.stones |= Bit(0);
    result.shapes.push_back(ToLineShape(ShapeKind::kLiveThree, p, dir, three));
  }
  board_.Set(p, Stone::kEmpty);
  if (overline) result.fouls.push_back(Foul::kOverline);
  if (four_count >= 2) result.fouls.push_back(Foul::kDoubleFour);
  if (three_count >= 2) result.fouls.push_back(Foul::kDoubleThree);
  return result;
}

std::string JoinPoints(const std::vector<Point>& points) {
  std::string out;
  for (const Point& p : points) {
    if (!out.empty()) out += ' ';
    out += p.ToString();
  }
  return out;
}

}  // namespace

const char* DirectionName(Direction direction) {
  switch (direction) {
    case Direction::kHorizontal:
      return "horizontal";
    case Direction::kVertical:
      return "vertical";
    case Direction::kDiagonal:
      return "diagonal (A1-O15)";
    case Direction::kAntiDiagonal:
      return "anti-diagonal (A15-O1)";
  }
  std::abort();
}

const char* ShapeKindName(ShapeKind kind) {
  switch (kind) {
    case ShapeKind::kFive:
      return "five";
    case ShapeKind::kOverline:
      return "overline";
    case ShapeKind::kFour:
      return "four";
    case ShapeKind::kLiveThree:
      return "live three";
  }
  std::abort();
}

const char* FoulName(Foul foul) {
  switch (foul) {
    case Foul::kDoubleThree:
      return "double three (三三)";
    case Foul::kDoubleFour:
      return "double four (四四)";
    case Foul::kOverline:
      return "overline (长连)";
  }
  std::abort();
}

std::string LineShape::ToString() const {
  std::string out = std::string(ShapeKindName(kind)) + ", " +
                    DirectionName(direction) + ": stones " + JoinPoints(stones);
  if (kind == ShapeKind::kFour) {
    out += points.size() >= 2 ? "; straight four, five at " : "; five at ";
    out += JoinPoints(points);
  } else if (kind == ShapeKind::kLiveThree) {
    out += "; straight four at " + JoinPoints(points);
  }
  return out;
}

std::string MoveAnalysis::ToString() const {
  std::string out = point.ToString();
  std::string fouls_text;
  for (Foul foul : fouls) {
    fouls_text +=
        (fouls_text.empty() ? "" : " and ") + std::string(FoulName(foul));
  }
  if (makes_five) {
    out += " makes five";
    if (!fouls.empty())
      out += " (the five takes precedence over " + fouls_text + ")";
  } else if (!fouls.empty()) {
    out += " is forbidden: " + fouls_text;
  } else {
    out += " is not forbidden";
  }
  for (const LineShape& shape : shapes) out += "; " + shape.ToString();
  return out;
}

MoveAnalysis AnalyzeBlackMove(const Board& board, Point p) {
  if (!p.OnBoard() || !board.IsEmpty(p)) std::abort();
  return Checker(board).Analyze(p);
}

bool IsForbiddenPoint(const Board& board, Point p) {
  if (!p.OnBoard() || !board.IsEmpty(p)) std::abort();
  return Checker(board).IsForbidden(p, 0);
}

std::vector<MoveAnalysis> FindForbiddenPoints(const Board& board) {
  std::vector<MoveAnalysis> found;
  Checker checker(board);
  for (int i = 0; i < kNumPoints; ++i) {
    const Point p = Point::FromIndex(i);
    if (board.IsEmpty(p) && checker.IsForbidden(p, 0)) {
      found.push_back(checker.Analyze(p));
    }
  }
  return found;
}

}  // namespace gorank::rules::gomoku
