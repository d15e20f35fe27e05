#include "services/rules/xiangqi/notation.h"

#include <cstdlib>
#include <vector>

namespace gorank::rules::xiangqi {
namespace {

// What a WXF or Chinese move says, before it meets the board.
struct MoveSpec {
  PieceType type = PieceType::kNone;
  int file = 0;   // the mover's file number 1-9, 0 when not written
  int place = 0;  // 1.. from the front, -1 the rear one, 0 when not written
  char op = 0;    // '+' forward, '-' backward, '.' sideways
  int arg = 0;    // ranks moved or file number reached, 1-9
};

int FileNumber(Side side, int file) {
  return side == Side::kRed ? 9 - file : file + 1;
}
int FileFromNumber(Side side, int n) {
  return side == Side::kRed ? 9 - n : n - 1;
}
bool Straight(PieceType t) {
  return t == PieceType::kGeneral || t == PieceType::kChariot ||
         t == PieceType::kCannon || t == PieceType::kSoldier;
}

// The side's pieces of type t on a file, front (towards the opponent) first.
std::vector<Square> OnFile(const Position& pos, Side side, PieceType t,
                           int file) {
  std::vector<Square> out;
  const Piece want = MakePiece(side, t);
  for (int i = 0; i < 10; ++i) {
    const int rank = side == Side::kRed ? 9 - i : i;
    const Square s = MakeSquare(file, rank);
    if (pos.at(s) == want) out.push_back(s);
  }
  return out;
}

int TandemFiles(const Position& pos, Side side, PieceType t) {
  int n = 0;
  for (int f = 0; f < 9; ++f) n += OnFile(pos, side, t, f).size() >= 2;
  return n;
}

void AppendUtf8(std::string* out, char32_t c) {
  if (c < 0x80) {
    *out += static_cast<char>(c);
  } else if (c < 0x800) {
    *out += static_cast<char>(0xc0 | (c >> 6));
    *out += static_cast<char>(0x80 | (c & 0x3f));
  } else {
    *out += static_cast<char>(0xe0 | (c >> 12));
    *out += static_cast<char>(0x80 | ((c >> 6) & 0x3f));
    *out += static_cast<char>(0x80 | (c & 0x3f));
  }
}

std::u32string DecodeUtf8(std::string_view s) {
  std::u32string out;
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    int len = c < 0x80         ? 1
              : (c >> 5) == 6  ? 2
              : (c >> 4) == 14 ? 3
              : (c >> 3) == 30 ? 4
                               : 0;
    if (len == 0 || i + len > s.size()) return U"\uFFFD";
    char32_t v = len == 1 ? c : c & (0x3f >> (len - 1));
    for (int k = 1; k < len; ++k)
      v = (v << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3f);
    out += v;
    i += len;
  }
  return out;
}

constexpr char32_t kRedNumerals[] = U"一二三四五六七八九";
constexpr char32_t kBlackNumerals[] = U"１２３４５６７８９";

int Numeral(char32_t c) {
  for (int i = 0; i < 9; ++i)
    if (c == kRedNumerals[i] || c == kBlackNumerals[i]) return i + 1;
  if (c >= U'1' && c <= U'9') return static_cast<int>(c - U'0');
  return 0;
}

PieceType ChinesePiece(char32_t c) {
  switch (c) {
    case U'帅':
    case U'帥':
    case U'将':
    case U'將':
      return PieceType::kGeneral;
    case U'仕':
    case U'士':
      return PieceType::kAdvisor;
    case U'相':
    case U'象':
      return PieceType::kElephant;
    case U'马':
    case U'馬':
    case U'傌':
    case U'碼':
      return PieceType::kHorse;
    case U'车':
    case U'車':
    case U'俥':
    case U'伡':
      return PieceType::kChariot;
    case U'炮':
    case U'砲':
    case U'包':
      return PieceType::kCannon;
    case U'兵':
    case U'卒':
      return PieceType::kSoldier;
    default:
      return PieceType::kNone;
  }
}

int ChineseMarker(char32_t c) {
  switch (c) {
    case U'前':
      return 1;
    case U'中':
      return 2;
    case U'后':
    case U'後':
      return -1;
    default:
      return 0;
  }
}

char ChineseOp(char32_t c) {
  switch (c) {
    case U'进':
    case U'進':
      return '+';
    case U'退':
      return '-';
    case U'平':
      return '.';
    default:
      return 0;
  }
}

PieceType WxfPiece(char c) {
  switch (c & ~0x20) {
    case 'K':
      return PieceType::kGeneral;
    case 'A':
      return PieceType::kAdvisor;
    case 'E':
    case 'B':
      return PieceType::kElephant;
    case 'H':
    case 'N':
      return PieceType::kHorse;
    case 'R':
      return PieceType::kChariot;
    case 'C':
      return PieceType::kCannon;
    case 'P':
      return PieceType::kSoldier;
    default:
      return PieceType::kNone;
  }
}

bool IsDigit19(char c) { return c >= '1' && c <= '9'; }
char WxfOp(char c) {
  return c == '+' ? '+' : c == '-' ? '-' : (c == '.' || c == '=') ? '.' : 0;
}

bool ParseWxf(std::string_view t, MoveSpec* spec) {
  if (t.size() != 4 || !WxfOp(t[2]) || !IsDigit19(t[3])) return false;
  spec->op = WxfOp(t[2]);
  spec->arg = t[3] - '0';
  const PieceType p0 = WxfPiece(t[0]), p1 = WxfPiece(t[1]);
  if ((t[0] == '+' || t[0] == '-') && p1 != PieceType::kNone) {
    spec->place = t[0] == '+' ? 1 : -1;
    spec->type = p1;
  } else if (p0 != PieceType::kNone && (t[1] == '+' || t[1] == '-')) {
    spec->place = t[1] == '+' ? 1 : -1;
    spec->type = p0;
  } else if (p0 != PieceType::kNone && IsDigit19(t[1])) {
    spec->type = p0;
    spec->file = t[1] - '0';
  } else if (IsDigit19(t[0]) && t[0] <= '5' && IsDigit19(t[1])) {
    spec->type = PieceType::kSoldier;
    spec->place = t[0] - '0';
    spec->file = t[1] - '0';
  } else {
    return false;
  }
  return true;
}

bool ParseChinese(const std::u32string& t, MoveSpec* spec) {
  if (t.size() != 4 && t.size() != 5) return false;
  const size_t n = t.size();
  spec->op = ChineseOp(t[n - 2]);
  spec->arg = Numeral(t[n - 1]);
  if (!spec->op || !spec->arg) return false;
  const int marker = ChineseMarker(t[0])  ? ChineseMarker(t[0])
                     : Numeral(t[0]) <= 5 ? Numeral(t[0])
                                          : 0;
  if (n == 5) {  // 前兵七平六
    spec->type = ChinesePiece(t[1]);
    spec->place = marker;
    spec->file = Numeral(t[2]);
    return marker && spec->type != PieceType::kNone && spec->file;
  }
  if (ChinesePiece(t[0]) != PieceType::kNone && Numeral(t[1])) {
    spec->type = ChinesePiece(t[0]);
    spec->file = Numeral(t[1]);
  } else if (marker && ChinesePiece(t[1]) != PieceType::kNone) {
    spec->place = marker;
    spec->type = ChinesePiece(t[1]);
  } else if (marker && Numeral(t[1])) {
    spec->place = marker;
    spec->file = Numeral(t[1]);
    spec->type = PieceType::kSoldier;
  } else {
    return false;
  }
  return true;
}

// The point a piece on `from` reaches by op/arg, or 0 when its movement
// cannot reach any point that way.
Square Target(Side side, PieceType t, Square from, char op, int arg) {
  const int ff = FileOf(from), fr = RankOf(from),
            fwd = side == Side::kRed ? 1 : -1;
  int tf = ff, tr = fr;
  if (Straight(t)) {
    if (op == '.') {
      tf = FileFromNumber(side, arg);
      if (tf == ff) return 0;
    } else {
      tr = fr + (op == '+' ? fwd : -fwd) * arg;
    }
  } else {
    if (op == '.') return 0;
    tf = FileFromNumber(side, arg);
    const int adf = std::abs(tf - ff);
    int dr = 0;
    if (t == PieceType::kAdvisor && adf == 1) dr = 1;
    if (t == PieceType::kElephant && adf == 2) dr = 2;
    if (t == PieceType::kHorse && (adf == 1 || adf == 2)) dr = 3 - adf;
    if (dr == 0) return 0;
    tr = fr + (op == '+' ? fwd : -fwd) * dr;
  }
  if (tr < 0 || tr > 9) return 0;
  return MakeSquare(tf, tr);
}

Rule StepRule(PieceType t) {
  switch (t) {
    case PieceType::kGeneral:
      return Rule::kGeneralStep;
    case PieceType::kAdvisor:
      return Rule::kAdvisorStep;
    case PieceType::kElephant:
      return Rule::kElephantStep;
    case PieceType::kHorse:
      return Rule::kHorseStep;
    case PieceType::kChariot:
      return Rule::kChariotLine;
    case PieceType::kCannon:
      return Rule::kCannonLine;
    case PieceType::kSoldier:
      return Rule::kSoldierStep;
    case PieceType::kNone:
      break;
  }
  return Rule::kNoPiece;
}

Resolution Fail(Resolution::Status status, std::string message,
                Rule rule = Rule::kNone, Move move = 0) {
  Resolution r;
  r.status = status;
  r.message = std::move(message);
  r.rule = rule;
  r.move = move;
  return r;
}

Resolution ResolveSpec(const Position& pos, const MoveSpec& spec) {
  const Side side = pos.side_to_move();
  const std::string who =
      std::string(SideName(side)) + " has no " + PieceTypeName(spec.type);
  std::vector<Square> candidates;
  if (spec.file) {
    const std::vector<Square> list =
        OnFile(pos, side, spec.type, FileFromNumber(side, spec.file));
    if (spec.place == 0) {
      candidates = list;
    } else if (spec.place == -1 && list.size() >= 2) {
      candidates.push_back(list.back());
    } else if (spec.place > 0 && list.size() >= 2 &&
               static_cast<size_t>(spec.place) <= list.size()) {
      candidates.push_back(list[spec.place - 1]);
    }
    if (candidates.empty())
      return Fail(Resolution::Status::kNoSuchPiece,
                  who + (spec.place ? " in that place" : "") + " on its file " +
                      std::to_string(spec.file));
  } else {
    for (int f = 0; f < 9; ++f) {
      const std::vector<Square> list = OnFile(pos, side, spec.type, f);
      if (list.size() < 2) continue;
      if (spec.place == -1) candidates.push_back(list.back());
      if (spec.place > 0 && static_cast<size_t>(spec.place) <= list.size())
        candidates.push_back(list[spec.place - 1]);
    }
    if (candidates.empty())
      return Fail(Resolution::Status::kNoSuchPiece,
                  std::string(SideName(side)) + " has no two " +
                      PieceTypeName(spec.type) + "s on one file (front/rear)");
  }
  std::vector<Move> legal;
  Move illegal = 0;
  for (Square from : candidates) {
    const Square to = Target(side, spec.type, from, spec.op, spec.arg);
    if (to == 0) continue;
    const Move m = EncodeMove(from, to);
    if (pos.IsLegal(m)) {
      legal.push_back(m);
    } else if (illegal == 0) {
      illegal = m;
    }
  }
  if (legal.size() == 1) {
    Resolution r;
    r.status = Resolution::Status::kOk;
    r.move = legal[0];
    return r;
  }
  if (legal.size() > 1)
    return Fail(Resolution::Status::kAmbiguous,
                "fits " + std::to_string(legal.size()) + " legal moves (" +
                    MoveToIccs(legal[0]) + ", " + MoveToIccs(legal[1]) +
                    "): write front/rear (+/-, 前/后)");
  if (illegal != 0) {
    const Rule rule = WhyIllegal(pos, From(illegal), To(illegal));
    return Fail(Resolution::Status::kIllegal,
                MoveToIccs(illegal) + ": " + RuleDescription(rule), rule,
                illegal);
  }
  const Rule rule = StepRule(spec.type);
  return Fail(Resolution::Status::kIllegal,
              std::string("no such ") + PieceTypeName(spec.type) +
                  " move: " + RuleDescription(rule),
              rule);
}

std::string Numeral(Side side, int n) {
  std::string out;
  AppendUtf8(&out,
             side == Side::kRed ? kRedNumerals[n - 1] : kBlackNumerals[n - 1]);
  return out;
}

}  // namespace

const char* NotationName(Notation n) {
  switch (n) {
    case Notation::kIccs:
      return "ICCS";
    case Notation::kWxf:
      return "WXF";
    case Notation::kChinese:
      return "Chinese";
  }
  return "?";
}

Notation DetectNotation(std::string_view token) {
  for (char c : token)
    if (static_cast<unsigned char>(c) >= 0x80) return Notation::kChinese;
  std::string t;
  for (char c : token)
    if (c != '-') t += static_cast<char>(c | 0x20);
  if (t.size() == 4 && t[0] >= 'a' && t[0] <= 'i' && t[1] >= '0' &&
      t[1] <= '9' && t[2] >= 'a' && t[2] <= 'i' && t[3] >= '0' && t[3] <= '9')
    return Notation::kIccs;
  return Notation::kWxf;
}

std::string FormatMove(const Position& pos, Move m, Notation n) {
  if (n == Notation::kIccs) return MoveToIccs(m);
  const Side side = pos.side_to_move();
  const Square from = From(m), to = To(m);
  const PieceType t = TypeOf(pos.at(from));
  const int fwd = side == Side::kRed ? 1 : -1;
  const int dr = (RankOf(to) - RankOf(from)) * fwd;
  char op;
  int arg;
  if (Straight(t) && dr == 0) {
    op = '.';
    arg = FileNumber(side, FileOf(to));
  } else {
    op = dr > 0 ? '+' : '-';
    arg = Straight(t) ? std::abs(dr) : FileNumber(side, FileOf(to));
  }
  const std::vector<Square> same = OnFile(pos, side, t, FileOf(from));
  int place = 0;
  while (same[place] != from) ++place;
  const int count = static_cast<int>(same.size());
  const int file = FileNumber(side, FileOf(from));
  const bool soldiers_by_place = t == PieceType::kSoldier && count >= 2 &&
                                 (count >= 3 || TandemFiles(pos, side, t) >= 2);
  if (n == Notation::kWxf) {
    static const char kLetter[] = " KAEHRCP";
    std::string out;
    if (count < 2) {
      out = std::string(1, kLetter[static_cast<int>(t)]) +
            static_cast<char>('0' + file);
    } else if (soldiers_by_place) {
      out = std::string(1, static_cast<char>('1' + place)) +
            static_cast<char>('0' + file);
    } else {
      out =
          std::string(1, place == 0 ? '+' : '-') + kLetter[static_cast<int>(t)];
    }
    return out + op + static_cast<char>('0' + arg);
  }
  static const char32_t kRedNames[] = U" 帅仕相马车炮兵";
  static const char32_t kBlackNames[] = U" 将士象马车炮卒";
  std::string out;
  const char32_t name =
      (side == Side::kRed ? kRedNames : kBlackNames)[static_cast<int>(t)];
  const auto marker = [&] {
    if (count == 2) return place == 0 ? U'前' : U'后';
    if (count == 3) return place == 0 ? U'前' : place == 1 ? U'中' : U'后';
    return kRedNumerals[place];
  };
  if (count < 2) {
    AppendUtf8(&out, name);
    out += Numeral(side, file);
  } else if (t == PieceType::kSoldier && TandemFiles(pos, side, t) >= 2) {
    AppendUtf8(&out, marker());
    out += Numeral(side, file);
  } else {
    AppendUtf8(&out, marker());
    AppendUtf8(&out, name);
  }
  AppendUtf8(&out, op == '+' ? U'进' : op == '-' ? U'退' : U'平');
  out += Numeral(side, arg);
  return out;
}

Resolution ResolveMove(const Position& pos, std::string_view text, Notation n) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
    text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
    text.remove_suffix(1);
  if (n == Notation::kIccs) {
    std::string t;
    for (char c : text)
      if (c != '-') t += static_cast<char>(c | 0x20);
    if (DetectNotation(t) != Notation::kIccs)
      return Fail(Resolution::Status::kUnreadable,
                  "not an ICCS move (file a-i and rank 0-9, twice: h2e2)");
    const Square from = MakeSquare(t[0] - 'a', t[1] - '0');
    const Square to = MakeSquare(t[2] - 'a', t[3] - '0');
    const Rule rule = WhyIllegal(pos, from, to);
    if (rule == Rule::kNone) {
      Resolution r;
      r.status = Resolution::Status::kOk;
      r.move = EncodeMove(from, to);
      return r;
    }
    return Fail(Resolution::Status::kIllegal, t + ": " + RuleDescription(rule),
                rule, EncodeMove(from, to));
  }
  MoveSpec spec;
  const bool read = n == Notation::kWxf ? ParseWxf(text, &spec)
                                        : ParseChinese(DecodeUtf8(text), &spec);
  if (!read)
    return Fail(Resolution::Status::kUnreadable,
                n == Notation::kWxf
                    ? "not a WXF move (piece, file, +/-/., number: C2.5, +C.5)"
                    : "not a Chinese move (piece, file, 进/退/平, number: "
                      "炮二平五, 前炮平五)");
  return ResolveSpec(pos, spec);
}

}  // namespace gorank::rules::xiangqi
