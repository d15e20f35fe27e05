// The Xiangqi (象棋) position and its legal moves: a 9x10 board in a mailbox
// 11 wide and 14 high (a border one file wide and two ranks high, so a horse
// or elephant step off the board lands on an off-board cell, never wraps onto
// the board), red and black piece lists that keep a piece's slot while it
// moves (a piece's identity for the chase rule), make/unmake without
// allocation, a Zobrist hash for repetitions, and perft.
//
// Coordinates are ICCS: file 0-8 = a-i from red's left, rank 0-9 from red's
// side (red's general starts on e0). FEN ranks run from rank 9 (black's side)
// down, red pieces upper case: K general, A advisor, B (or E) elephant, N (or
// H) horse, R chariot, C cannon, P soldier.
//
// Rules: general and advisors stay in their palace; elephants do not cross
// the river and are blocked at the eye; horses are blocked at the leg;
// chariots slide; cannons slide to move and capture over exactly one screen;
// soldiers step forward, and also sideways once across the river; the two
// generals may not face each other on an open file; no move may leave one's
// own general attacked. A side with no legal move loses (checkmate or 困毙).
#ifndef GORANK_SERVICES_RULES_XIANGQI_POSITION_H_
#define GORANK_SERVICES_RULES_XIANGQI_POSITION_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"

namespace gorank::rules::xiangqi {

enum class Side : uint8_t { kRed = 0, kBlack = 1 };
inline Side Opponent(Side s) {
  return s == Side::kRed ? Side::kBlack : Side::kRed;
}
const char* SideName(Side s);  // "red", "black"

enum class PieceType : uint8_t {
  kNone = 0,
  kGeneral = 1,
  kAdvisor = 2,
  kElephant = 3,
  kHorse = 4,
  kChariot = 5,
  kCannon = 6,
  kSoldier = 7,
};
const char* PieceTypeName(PieceType t);  // "general", "advisor", ...

// A cell value: 0 empty, kOffBoard outside, else a colour bit | a type.
using Piece = uint8_t;
inline constexpr Piece kEmpty = 0;
inline constexpr Piece kRedBit = 8;
inline constexpr Piece kBlackBit = 16;
inline constexpr Piece kOffBoard = 32;
inline constexpr Piece ColorBit(Side s) {
  return s == Side::kRed ? kRedBit : kBlackBit;
}
inline constexpr Piece MakePiece(Side s, PieceType t) {
  return static_cast<Piece>(ColorBit(s) | static_cast<uint8_t>(t));
}
inline PieceType TypeOf(Piece p) { return static_cast<PieceType>(p & 7); }
inline Side SideOf(Piece p) {
  return (p & kBlackBit) ? Side::kBlack : Side::kRed;
}

// Mailbox squares.
using Square = uint8_t;
inline constexpr int kWidth = 11;
inline constexpr int kCells = kWidth * 14;
inline constexpr Square MakeSquare(int file, int rank) {
  return static_cast<Square>((rank + 2) * kWidth + file + 1);
}
inline int FileOf(Square s) { return s % kWidth - 1; }
inline int RankOf(Square s) { return s / kWidth - 2; }
bool OnBoard(Square s);
bool InPalace(Side side, Square s);   // the 9 points of side's palace
bool OnOwnHalf(Side side, Square s);  // side's bank of the river
std::string SquareName(Square s);     // ICCS "e0"

// A move: from in the low byte, to in the high byte; 0 is no move.
using Move = uint16_t;
inline constexpr Move EncodeMove(Square from, Square to) {
  return static_cast<Move>(from | (to << 8));
}
inline Square From(Move m) { return static_cast<Square>(m & 0xff); }
inline Square To(Move m) { return static_cast<Square>(m >> 8); }
std::string MoveToIccs(Move m);  // "h2e2"

// At most this many legal (and pseudo-legal) moves in any position.
inline constexpr int kMaxMoves = 160;
struct MoveList {
  Move moves[kMaxMoves];
  int size = 0;
  void Add(Move m) { moves[size++] = m; }
  const Move* begin() const { return moves; }
  const Move* end() const { return moves + size; }
};

// What UnmakeMove needs.
struct Undo {
  Piece captured = kEmpty;
  int8_t captured_slot = -1;
};

inline constexpr const char* kStartFen =
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

// Copyable value; not thread-safe to share while moves are made.
class Position {
 public:
  Position();  // the empty board, red to move (use FromFen)

  // Reads a Xiangqi FEN: 10 ranks of 9 (digits for empty runs), then "w"
  // (also "r") or "b"; the rest of the fields are ignored. INVALID_ARGUMENT
  // naming what is wrong: syntax, a general missing or outside its palace,
  // an advisor or elephant off its points, a soldier behind its start, more
  // pieces of a kind than a side has (1 K, 2 A, 2 B, 2 N, 2 R, 2 C, 5 P), or
  // the side not to move in check (its general could be taken).
  static absl::StatusOr<Position> FromFen(const std::string& fen);
  static Position Start();
  std::string ToFen() const;  // "... w - - 0 1" (w or b)

  Side side_to_move() const { return side_; }
  Piece at(Square s) const { return board_[s]; }
  Piece at(int file, int rank) const { return board_[MakeSquare(file, rank)]; }
  Square general(Side s) const { return general_[static_cast<int>(s)]; }
  uint64_t hash() const { return hash_; }
  // The slot (0-15) of the piece on `s` in its side's list: the piece keeps
  // it while it moves. -1 on an empty square.
  int slot(Square s) const { return slot_[s]; }

  // Every legal move of the side to move.
  void GenerateLegal(MoveList* out) const;
  // Pseudo-legal moves (piece rules only, the general may be left attacked).
  void GeneratePseudo(MoveList* out) const;
  bool IsLegal(Move m) const;  // m legal for the side to move
  int CountLegal() const;      // GenerateLegal(...).size, faster
  bool HasLegalMove() const;

  bool InCheck() const { return Attacked(general(side_), Opponent(side_)); }
  // True when `by` attacks square `s` (as a capture, whatever stands on s;
  // the generals "attack" each other along an open file).
  bool Attacked(Square s, Side by) const;
  // True when the generals face each other on an open file.
  bool GeneralsFace() const;

  // REQUIRES: m is pseudo-legal for the side to move.
  Undo MakeMove(Move m);
  void UnmakeMove(Move m, const Undo& undo);

  // The same position with `s` to move (for "what would this side attack
  // now"); the hash changes accordingly.
  Position WithSideToMove(Side s) const;

  // Leaf count of the legal move tree `depth` plies deep.
  uint64_t Perft(int depth);

 private:
  void Put(Square s, Piece p, int slot);
  bool LeavesGeneralSafe(Move m) const;

  // Mutable: the legality test of a const position plays a move on the
  // board and takes it back (LeavesGeneralSafe), leaving it as it was.
  mutable Piece board_[kCells];
  int8_t slot_[kCells];
  Square squares_[2][16];  // 0: the slot is empty (captured)
  Square general_[2];
  Side side_ = Side::kRed;
  uint64_t hash_ = 0;
};

}  // namespace gorank::rules::xiangqi

#endif  // GORANK_SERVICES_RULES_XIANGQI_POSITION_H_
