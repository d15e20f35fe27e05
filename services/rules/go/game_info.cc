#include "services/rules/go/game_info.h"

#include <cctype>
#include <cstdlib>
#include <string>

namespace gorank::rules::go {
namespace {

std::string Trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

std::string Upper(std::string s) {
  for (char& c : s)
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

void ReplaceAll(std::string& s, std::string_view from, std::string_view to) {
  for (size_t pos = s.find(from); pos != std::string::npos;
       pos = s.find(from, pos + to.size())) {
    s.replace(pos, from.size(), to);
  }
}

bool Contains(const std::string& s, std::string_view part) {
  return s.find(part) != std::string::npos;
}

// A decimal number into hundredths ("3.75" -> 375). False when not a number
// or finer than hundredths.
bool ParseHundredths(std::string_view s, long* out, bool* had_point) {
  bool negative = false;
  size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
  long whole = 0, frac = 0;
  int frac_digits = 0, whole_digits = 0;
  for (; i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]));
       ++i, ++whole_digits) {
    whole = whole * 10 + (s[i] - '0');
    if (whole > 100000000) return false;
  }
  *had_point = i < s.size() && s[i] == '.';
  if (*had_point) {
    for (++i; i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]));
         ++i) {
      if (++frac_digits > 2) {
        if (s[i] != '0') return false;
        continue;
      }
      frac = frac * 10 + (s[i] - '0');
    }
  }
  if (i != s.size() || whole_digits + frac_digits == 0) return false;
  if (frac_digits == 1) frac *= 10;
  *out = (whole * 100 + frac) * (negative ? -1 : 1);
  return true;
}

// "3又3/4", "3/4", "2", "半", "1又1/2", "2.5" stones -> quarters of a stone.
bool ParseStoneQuarters(std::string s, int* quarters) {
  ReplaceAll(s, "子", "");
  if (s == "半") {
    *quarters = 2;
    return true;
  }
  int total = 0;
  size_t you = s.find("又");
  std::string frac = s;
  if (you != std::string::npos) {
    long whole;
    bool point;
    if (!ParseHundredths(s.substr(0, you), &whole, &point) || point ||
        whole < 0)
      return false;
    total = static_cast<int>(whole / 100) * 4;
    frac = s.substr(you + std::string("又").size());
  }
  if (frac == "半") return *quarters = total + 2, true;
  size_t slash = frac.find('/');
  if (slash != std::string::npos) {
    int a = std::atoi(frac.substr(0, slash).c_str());
    int b = std::atoi(frac.substr(slash + 1).c_str());
    if (a <= 0 || b <= 0 || (a * 4) % b != 0) return false;
    *quarters = total + a * 4 / b;
    return true;
  }
  if (you != std::string::npos) return false;
  long h;
  bool point;
  if (!ParseHundredths(frac, &h, &point) || h < 0 || h % 25 != 0) return false;
  *quarters = static_cast<int>(h / 25);
  return true;
}

// "43.5", "1目半", "6.5目" points -> half points.
bool ParsePointHalves(std::string s, int* halves) {
  int extra = 0;
  size_t half = s.find("目半");
  if (half != std::string::npos) {
    s = s.substr(0, half);
    extra = 1;
  }
  ReplaceAll(s, "目", "");
  long h;
  bool point;
  if (!ParseHundredths(s, &h, &point) || h < 0 || h % 50 != 0) return false;
  *halves = static_cast<int>(h / 50) + extra;
  return true;
}

void ParseEnglishTail(const std::string& tail, DeclaredResult& r) {
  if (tail.empty()) return;
  if (tail == "R" || tail == "RESIGN" || tail == "RESIGNATION") {
    r.reason = WinReason::kResignation;
  } else if (tail == "T" || tail == "TIME") {
    r.reason = WinReason::kTime;
  } else if (tail == "F" || tail == "FORFEIT") {
    r.reason = WinReason::kForfeit;
  } else if (int halves; ParsePointHalves(tail, &halves)) {
    r.reason = WinReason::kScore;
    r.has_margin = true;
    r.margin_half_points = halves;
    if (halves == 0) r.kind = ResultKind::kDraw, r.winner = Color::kEmpty;
  } else {
    r.kind = ResultKind::kUnparsed;
    r.winner = Color::kEmpty;
  }
}

void ParseChinese(std::string s, DeclaredResult& r) {
  ReplaceAll(s, "勝", "胜");
  ReplaceAll(s, "負", "负");
  ReplaceAll(s, "黒", "黑");
  Color side = s.rfind("黑", 0) == 0   ? Color::kBlack
               : s.rfind("白", 0) == 0 ? Color::kWhite
                                       : Color::kEmpty;
  if (side == Color::kEmpty) {
    r.kind = ResultKind::kUnparsed;
    return;
  }
  bool lost = Contains(s, "负");
  if (!lost && !Contains(s, "胜")) {
    r.kind = ResultKind::kUnparsed;
    return;
  }
  r.kind = ResultKind::kWin;
  r.winner = lost ? Opponent(side) : side;
  if (Contains(s, "中盘") || Contains(s, "中押") || Contains(s, "不计点") ||
      Contains(s, "认输")) {
    r.reason = WinReason::kResignation;
    return;
  }
  if (Contains(s, "超时")) return void(r.reason = WinReason::kTime);
  if (Contains(s, "弃权")) return void(r.reason = WinReason::kForfeit);
  size_t verb = s.find(lost ? "负" : "胜");
  std::string amount = Trim(s.substr(verb + std::string("胜").size()));
  if (amount.empty()) return;
  int halves = 0;
  bool ok;
  if (Contains(amount, "目")) {
    ok = ParsePointHalves(amount, &halves);
  } else if (Contains(amount, "子") || Contains(amount, "又") ||
             Contains(amount, "/") || Contains(amount, "半")) {
    ok = ParseStoneQuarters(amount,
                            &halves);  // quarters of a stone = half points
  } else {
    ok = ParsePointHalves(amount, &halves);
  }
  if (!ok) {
    r.kind = ResultKind::kUnparsed;
    r.winner = Color::kEmpty;
    return;
  }
  r.reason = WinReason::kScore;
  r.has_margin = true;
  r.margin_half_points = halves;
  if (halves == 0) r.kind = ResultKind::kDraw, r.winner = Color::kEmpty;
}

}  // namespace

DeclaredResult ParseResult(std::string_view text) {
  DeclaredResult r;
  r.text = Trim(text);
  if (r.text.empty()) return r;
  std::string u = Upper(r.text);
  if (u == "?" || u == "UNFINISHED" || u == "UNKNOWN") {
    r.kind = ResultKind::kUnknown;
  } else if (u == "VOID" || u == "NO RESULT" || u == "无胜负" ||
             u == "無勝負") {
    r.kind = ResultKind::kVoid;
  } else if (u == "0" || u == "DRAW" || u == "JIGO" || u == "和棋" ||
             u == "和" || u == "和局" || u == "持棋" || u == "B+0" ||
             u == "W+0") {
    r.kind = ResultKind::kDraw;
  } else if (u.size() >= 2 && (u[0] == 'B' || u[0] == 'W') &&
             (u[1] == '+' || u.rfind("BLACK+", 0) == 0 ||
              u.rfind("WHITE+", 0) == 0)) {
    r.kind = ResultKind::kWin;
    r.winner = u[0] == 'B' ? Color::kBlack : Color::kWhite;
    ParseEnglishTail(Trim(u.substr(u.find('+') + 1)), r);
  } else {
    ParseChinese(r.text, r);
  }
  return r;
}

absl::StatusOr<Komi> ReadKomi(std::string_view text) {
  std::string t = Trim(text);
  long h;
  bool point;
  if (!ParseHundredths(t, &h, &point)) {
    return absl::InvalidArgumentError("KM[" + t + "] is not a number");
  }
  Komi komi;
  bool fox = !point && std::labs(h / 100) >= 50 && (h / 100) % 25 == 0;
  if (fox) {
    h /= 100;
    long a = std::labs(h);
    komi.note = "KM[" + t + "] read on the Fox scale as " + (h < 0 ? "-" : "") +
                std::to_string(a / 100) + "." + (a % 100 < 10 ? "0" : "") +
                std::to_string(a % 100);
  }
  bool quarter = std::labs(h) % 50 == 25;
  bool stones = quarter || (fox && std::labs(h) >= 300 && std::labs(h) < 400);
  if (stones) {
    if (komi.note.empty()) komi.note = "KM[" + t + "]";
    komi.note += " stones (Chinese komi in 子) = ";
    h *= 2;
  } else if (fox) {
    komi.note += " points = ";
  }
  if (h % 50 != 0) {
    return absl::InvalidArgumentError(
        "KM[" + t + "] is not a whole or half number of points");
  }
  komi.half_points = static_cast<int>(h / 50);
  if (!komi.note.empty()) {
    komi.note += std::string(h < 0 ? "-" : "") +
                 std::to_string(std::labs(h) / 100) +
                 (h % 100 != 0 ? ".5" : "") + " points";
  }
  return komi;
}

}  // namespace gorank::rules::go
