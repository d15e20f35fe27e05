#include "services/rules/xiangqi/position.h"

#include <cstring>
#include <random>

#include "absl/status/status.h"

namespace gorank::rules::xiangqi {
namespace {

constexpr int kN = kWidth, kS = -kWidth, kE = 1, kW = -1;
constexpr int kLines[4] = {kN, kS, kE, kW};
constexpr int kDiagonals[4] = {kN + kE, kN + kW, kS + kE, kS + kW};
// Horse jumps and their legs (the point next to the horse along the jump).
constexpr int kHorseJump[8] = {2 * kN + kE, 2 * kN + kW, 2 * kS + kE,
                               2 * kS + kW, 2 * kE + kN, 2 * kE + kS,
                               2 * kW + kN, 2 * kW + kS};
constexpr int kHorseLeg[8] = {kN, kN, kS, kS, kE, kE, kW, kW};

struct Tables {
  bool on_board[kCells] = {};
  bool palace[2][kCells] = {};
  bool own_half[2][kCells] = {};
  bool advisor_point[2][kCells] = {};
  bool elephant_point[2][kCells] = {};
  uint64_t zobrist[kOffBoard][kCells] = {};
  uint64_t black_to_move = 0;

  Tables() {
    std::mt19937_64 rng(0x58716971ULL);  // fixed: hashes are reproducible
    for (int f = 0; f < 9; ++f) {
      for (int r = 0; r < 10; ++r) {
        const Square s = MakeSquare(f, r);
        on_board[s] = true;
        own_half[0][s] = r <= 4;
        own_half[1][s] = r >= 5;
        if (f >= 3 && f <= 5) {
          palace[0][s] = r <= 2;
          palace[1][s] = r >= 7;
          const bool diag = (f == 4) == (r % 7 == 1);  // centre or corners
          advisor_point[0][s] = r <= 2 && diag;
          advisor_point[1][s] = r >= 7 && diag;
        }
      }
    }
    for (int side = 0; side < 2; ++side) {
      const int base = side == 0 ? 0 : 9, dir = side == 0 ? 1 : -1;
      const int pts[7][2] = {{2, 0}, {6, 0}, {0, 2}, {4, 2},
                             {8, 2}, {2, 4}, {6, 4}};
      for (const auto& p : pts)
        elephant_point[side][MakeSquare(p[0], base + dir * p[1])] = true;
    }
    for (auto& row : zobrist)
      for (uint64_t& z : row) z = rng();
    black_to_move = rng();
  }
};

const Tables& T() {
  static const Tables* tables = new Tables();
  return *tables;
}

}  // namespace

const char* SideName(Side s) { return s == Side::kRed ? "red" : "black"; }

const char* PieceTypeName(PieceType t) {
  switch (t) {
    case PieceType::kGeneral:
      return "general";
    case PieceType::kAdvisor:
      return "advisor";
    case PieceType::kElephant:
      return "elephant";
    case PieceType::kHorse:
      return "horse";
    case PieceType::kChariot:
      return "chariot";
    case PieceType::kCannon:
      return "cannon";
    case PieceType::kSoldier:
      return "soldier";
    case PieceType::kNone:
      break;
  }
  return "nothing";
}

bool OnBoard(Square s) { return s < kCells && T().on_board[s]; }
bool InPalace(Side side, Square s) {
  return s < kCells && T().palace[static_cast<int>(side)][s];
}
bool OnOwnHalf(Side side, Square s) {
  return s < kCells && T().own_half[static_cast<int>(side)][s];
}

std::string SquareName(Square s) {
  return std::string(1, static_cast<char>('a' + FileOf(s))) +
         static_cast<char>('0' + RankOf(s));
}

std::string MoveToIccs(Move m) {
  return SquareName(From(m)) + SquareName(To(m));
}

Position::Position() {
  for (int i = 0; i < kCells; ++i) {
    board_[i] = T().on_board[i] ? kEmpty : kOffBoard;
    slot_[i] = -1;
  }
  std::memset(squares_, 0, sizeof(squares_));
  general_[0] = general_[1] = 0;
}

Position Position::Start() { return *FromFen(kStartFen); }

void Position::Put(Square s, Piece p, int slot) {
  board_[s] = p;
  slot_[s] = static_cast<int8_t>(slot);
  squares_[static_cast<int>(SideOf(p))][slot] = s;
  if (TypeOf(p) == PieceType::kGeneral)
    general_[static_cast<int>(SideOf(p))] = s;
  hash_ ^= T().zobrist[p][s];
}

absl::StatusOr<Position> Position::FromFen(const std::string& fen) {
  Position pos;
  const auto bad = [&](const std::string& why) {
    return absl::InvalidArgumentError("FEN \"" + fen + "\": " + why);
  };
  // Slots: the general first, so slot 0 is always the general.
  int count[2][8] = {};
  int next_slot[2] = {1, 1};
  size_t i = 0;
  int rank = 9, file = 0;
  for (; i < fen.size() && fen[i] != ' '; ++i) {
    const char c = fen[i];
    if (c == '/') {
      if (file != 9)
        return bad("rank " + std::to_string(rank) + " does not have 9 points");
      if (--rank < 0) return bad("more than 10 ranks");
      file = 0;
      continue;
    }
    if (c >= '1' && c <= '9') {
      file += c - '0';
      if (file > 9)
        return bad("rank " + std::to_string(rank) + " has more than 9 points");
      continue;
    }
    if (file >= 9)
      return bad("rank " + std::to_string(rank) + " has more than 9 points");
    PieceType t = PieceType::kNone;
    switch (c | 0x20) {
      case 'k':
        t = PieceType::kGeneral;
        break;
      case 'a':
        t = PieceType::kAdvisor;
        break;
      case 'b':
      case 'e':
        t = PieceType::kElephant;
        break;
      case 'n':
      case 'h':
        t = PieceType::kHorse;
        break;
      case 'r':
        t = PieceType::kChariot;
        break;
      case 'c':
        t = PieceType::kCannon;
        break;
      case 'p':
        t = PieceType::kSoldier;
        break;
      default:
        return bad(std::string("'") + c +
                   "' is not a piece letter (KABNRCP, upper case red)");
    }
    const Side side = (c >= 'A' && c <= 'Z') ? Side::kRed : Side::kBlack;
    const int si = static_cast<int>(side);
    const Square s = MakeSquare(file, rank);
    const std::string where = std::string(SideName(side)) + " " +
                              PieceTypeName(t) + " on " + SquareName(s);
    static constexpr int kMax[8] = {0, 1, 2, 2, 2, 2, 2, 5};
    if (++count[si][static_cast<int>(t)] > kMax[static_cast<int>(t)])
      return bad(std::string("more ") + PieceTypeName(t) + "s for " +
                 SideName(side) + " than a side has");
    switch (t) {
      case PieceType::kGeneral:
        if (!T().palace[si][s]) return bad(where + " is outside its palace");
        break;
      case PieceType::kAdvisor:
        if (!T().advisor_point[si][s])
          return bad(where + " is not on a palace diagonal point");
        break;
      case PieceType::kElephant:
        if (!T().elephant_point[si][s])
          return bad(where + " is not on one of its 7 points");
        break;
      case PieceType::kSoldier: {
        const int rel = side == Side::kRed ? rank : 9 - rank;
        if (rel < 3 || (rel < 5 && file % 2 == 1))
          return bad(where + " stands where a soldier cannot get to");
        break;
      }
      default:
        break;
    }
    const int slot = t == PieceType::kGeneral ? 0 : next_slot[si]++;
    pos.Put(s, MakePiece(side, t), slot);
    ++file;
  }
  if (rank != 0 || file != 9)
    return bad("the board needs 10 ranks of 9 points");
  if (count[0][1] != 1 || count[1][1] != 1)
    return bad("each side needs one general");
  while (i < fen.size() && fen[i] == ' ') ++i;
  if (i < fen.size()) {
    const char c = fen[i];
    if (c == 'b' || c == 'B') {
      pos.side_ = Side::kBlack;
      pos.hash_ ^= T().black_to_move;
    } else if (c != 'w' && c != 'W' && c != 'r' && c != 'R') {
      return bad("the side to move must be w (red) or b (black)");
    }
  }
  if (pos.GeneralsFace())
    return bad("the generals face each other on an open file");
  if (pos.Attacked(pos.general(Opponent(pos.side_)), pos.side_))
    return bad(std::string(SideName(Opponent(pos.side_))) +
               " is in check with " + SideName(pos.side_) + " to move");
  return pos;
}

std::string Position::ToFen() const {
  std::string out;
  for (int r = 9; r >= 0; --r) {
    int empty = 0;
    for (int f = 0; f < 9; ++f) {
      const Piece p = at(f, r);
      if (p == kEmpty) {
        ++empty;
        continue;
      }
      if (empty) out += static_cast<char>('0' + empty);
      empty = 0;
      char c = " KABNRCP"[static_cast<int>(TypeOf(p))];
      if (SideOf(p) == Side::kBlack) c = static_cast<char>(c | 0x20);
      out += c;
    }
    if (empty) out += static_cast<char>('0' + empty);
    if (r) out += '/';
  }
  out += side_ == Side::kRed ? " w - - 0 1" : " b - - 0 1";
  return out;
}

bool Position::GeneralsFace() const {
  const Square r = general_[0], b = general_[1];
  if (FileOf(r) != FileOf(b)) return false;
  for (int s = r + kN; s != b; s += kN)
    if (board_[s] != kEmpty) return false;
  return true;
}

bool Position::Attacked(Square s, Side by) const {
  const Tables& t = T();
  const int bi = static_cast<int>(by);
  const Piece own = ColorBit(by);
  const Piece chariot = own | static_cast<Piece>(PieceType::kChariot);
  const Piece cannon = own | static_cast<Piece>(PieceType::kCannon);
  const Piece general = own | static_cast<Piece>(PieceType::kGeneral);
  const Piece horse = own | static_cast<Piece>(PieceType::kHorse);
  const Piece soldier = own | static_cast<Piece>(PieceType::kSoldier);
  for (int d : kLines) {
    int x = s + d;
    while (board_[x] == kEmpty) x += d;
    const Piece p = board_[x];
    if (p == kOffBoard) continue;
    if (p == chariot) return true;
    if (p == general) {
      // A step inside its palace, or facing the other general on a file.
      if (x == s + d && t.palace[bi][s]) return true;
      if ((d == kN || d == kS) &&
          board_[s] == (ColorBit(Opponent(by)) |
                        static_cast<Piece>(PieceType::kGeneral)))
        return true;
    }
    x += d;
    while (board_[x] == kEmpty) x += d;
    if (board_[x] == cannon) return true;
  }
  for (int d : kDiagonals) {
    if (board_[s + d] != kEmpty) continue;  // the leg of both horses
    const int dr = (d > 0 ? kN : kS), df = d - dr;
    if (board_[s + d + dr] == horse || board_[s + d + df] == horse) return true;
  }
  const int forward = by == Side::kRed ? kN : kS;
  if (board_[s - forward] == soldier) return true;
  if (board_[s + kE] == soldier && !t.own_half[bi][s + kE]) return true;
  if (board_[s + kW] == soldier && !t.own_half[bi][s + kW]) return true;
  if (t.palace[bi][s]) {
    const Piece advisor = own | static_cast<Piece>(PieceType::kAdvisor);
    for (int d : kDiagonals)
      if (board_[s + d] == advisor) return true;
  }
  if (t.elephant_point[bi][s]) {
    const Piece elephant = own | static_cast<Piece>(PieceType::kElephant);
    for (int d : kDiagonals)
      if (board_[s + d] == kEmpty && board_[s + 2 * d] == elephant) return true;
  }
  return false;
}

void Position::GeneratePseudo(MoveList* out) const {
  const Tables& t = T();
  const int si = static_cast<int>(side_);
  const Piece mine = ColorBit(side_) | kOffBoard;  // targets that stop a move
  for (int slot = 0; slot < 16; ++slot) {
    const Square from = squares_[si][slot];
    if (from == 0) continue;
    const auto add = [&](int to) {
      out->Add(EncodeMove(from, static_cast<Square>(to)));
    };
    switch (TypeOf(board_[from])) {
      case PieceType::kGeneral:
        for (int d : kLines)
          if (t.palace[si][from + d] && !(board_[from + d] & mine))
            add(from + d);
        break;
      case PieceType::kAdvisor:
        for (int d : kDiagonals)
          if (t.palace[si][from + d] && !(board_[from + d] & mine))
            add(from + d);
        break;
      case PieceType::kElephant:
        for (int d : kDiagonals) {
          const int to = from + 2 * d;
          if (to >= 0 && to < kCells && t.own_half[si][to] &&
              board_[from + d] == kEmpty && !(board_[to] & mine))
            add(to);
        }
        break;
      case PieceType::kHorse:
        for (int k = 0; k < 8; ++k) {
          const int to = from + kHorseJump[k];
          if (to >= 0 && to < kCells && board_[from + kHorseLeg[k]] == kEmpty &&
              !(board_[to] & mine))
            add(to);
        }
        break;
      case PieceType::kChariot:
        for (int d : kLines) {
          int to = from + d;
          for (; board_[to] == kEmpty; to += d) add(to);
          if (!(board_[to] & mine)) add(to);
        }
        break;
      case PieceType::kCannon:
        for (int d : kLines) {
          int to = from + d;
          for (; board_[to] == kEmpty; to += d) add(to);
          if (board_[to] == kOffBoard) continue;
          for (to += d; board_[to] == kEmpty; to += d) {
          }
          if (!(board_[to] & mine)) add(to);
        }
        break;
      case PieceType::kSoldier: {
        const int forward = side_ == Side::kRed ? kN : kS;
        if (!(board_[from + forward] & mine)) add(from + forward);
        if (!t.own_half[si][from]) {
          if (!(board_[from + kE] & mine)) add(from + kE);
          if (!(board_[from + kW] & mine)) add(from + kW);
        }
        break;
      }
      case PieceType::kNone:
        break;
    }
  }
}

bool Position::LeavesGeneralSafe(Move m) const {
  // Plays the move on the board alone (the lists and hash do not matter to
  // Attacked) and takes it back.
  Piece* board = board_;
  const Square from = From(m), to = To(m);
  const Piece moving = board[from], captured = board[to];
  board[to] = moving;
  board[from] = kEmpty;
  const Square g = TypeOf(moving) == PieceType::kGeneral ? to : general(side_);
  const bool safe = !Attacked(g, Opponent(side_));
  board[from] = moving;
  board[to] = captured;
  return safe;
}

void Position::GenerateLegal(MoveList* out) const {
  MoveList pseudo;
  GeneratePseudo(&pseudo);
  const Square g = general(side_);
  const int gf = FileOf(g), gr = RankOf(g);
  const bool in_check = InCheck();
  out->size = 0;
  for (Move m : pseudo) {
    const Square from = From(m), to = To(m);
    // A move can expose the general only through a line it leaves or enters
    // (chariot, cannon screen, the other general) or a horse leg it frees.
    const int ff = FileOf(from), fr = RankOf(from);
    const bool risky =
        in_check || from == g || ff == gf || fr == gr || FileOf(to) == gf ||
        RankOf(to) == gr ||
        ((ff - gf == 1 || gf - ff == 1) && (fr - gr == 1 || gr - fr == 1));
    if (!risky || LeavesGeneralSafe(m)) out->Add(m);
  }
}

int Position::CountLegal() const {
  MoveList list;
  GenerateLegal(&list);
  return list.size;
}

bool Position::HasLegalMove() const { return CountLegal() > 0; }

bool Position::IsLegal(Move m) const {
  MoveList list;
  GenerateLegal(&list);
  for (Move x : list)
    if (x == m) return true;
  return false;
}

Undo Position::MakeMove(Move m) {
  const Tables& t = T();
  const Square from = From(m), to = To(m);
  const Piece moving = board_[from];
  Undo undo{board_[to], slot_[to]};
  if (undo.captured != kEmpty) {
    squares_[static_cast<int>(SideOf(undo.captured))][undo.captured_slot] = 0;
    hash_ ^= t.zobrist[undo.captured][to];
  }
  const int8_t slot = slot_[from];
  board_[to] = moving;
  slot_[to] = slot;
  board_[from] = kEmpty;
  slot_[from] = -1;
  squares_[static_cast<int>(side_)][slot] = to;
  if (TypeOf(moving) == PieceType::kGeneral)
    general_[static_cast<int>(side_)] = to;
  hash_ ^= t.zobrist[moving][from] ^ t.zobrist[moving][to] ^ t.black_to_move;
  side_ = Opponent(side_);
  return undo;
}

void Position::UnmakeMove(Move m, const Undo& undo) {
  const Tables& t = T();
  const Square from = From(m), to = To(m);
  side_ = Opponent(side_);
  const Piece moving = board_[to];
  const int8_t slot = slot_[to];
  board_[from] = moving;
  slot_[from] = slot;
  squares_[static_cast<int>(side_)][slot] = from;
  if (TypeOf(moving) == PieceType::kGeneral)
    general_[static_cast<int>(side_)] = from;
  board_[to] = undo.captured;
  slot_[to] = undo.captured_slot;
  hash_ ^= t.zobrist[moving][from] ^ t.zobrist[moving][to] ^ t.black_to_move;
  if (undo.captured != kEmpty) {
    squares_[static_cast<int>(SideOf(undo.captured))][undo.captured_slot] = to;
    hash_ ^= t.zobrist[undo.captured][to];
  }
}

Position Position::WithSideToMove(Side s) const {
  Position p = *this;
  if (p.side_ != s) {
    p.side_ = s;
    p.hash_ ^= T().black_to_move;
  }
  return p;
}

uint64_t Position::Perft(int depth) {
  if (depth <= 0) return 1;
  MoveList list;
  GenerateLegal(&list);
  if (depth == 1) return static_cast<uint64_t>(list.size);
  uint64_t nodes = 0;
  for (Move m : list) {
    const Undo u = MakeMove(m);
    nodes += Perft(depth - 1);
    UnmakeMove(m, u);
  }
  return nodes;
}

}  // namespace gorank::rules::xiangqi
