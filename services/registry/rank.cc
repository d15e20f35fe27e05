#include "services/registry/rank.h"

#include <cstdlib>
#include <optional>
#include <string_view>

#include "absl/status/status.h"
#include "services/common/excerpt.h"
#include "services/registry/gomoku_rank.h"

namespace gorank::registry {
namespace {

constexpr std::string_view kChineseDigits[] = {"一", "二", "三", "四", "五",
                                               "六", "七", "八", "九"};

int MaxLevel(Ladder ladder) {
  switch (ladder) {
    case Ladder::kKyu:
      return 30;
    case Ladder::kAmateurDan:
      return 8;
    case Ladder::kProDan:
      return 9;
    case Ladder::kGomokuKyu:
      return GomokuRank::kLowestKyu;
    case Ladder::kGomokuDan:
      return GomokuRank::kHighestDan;
  }
  std::abort();
}

// Gomoku ordinals sit above every Go ordinal: 200 + GomokuRank::Ordinal().
constexpr int kGomokuBase = 200;

const char* LadderRange(Ladder ladder) {
  switch (ladder) {
    case Ladder::kKyu:
      return "kyu 30..1";
    case Ladder::kAmateurDan:
      return "amateur dan 1..8";
    case Ladder::kProDan:
      return "professional dan 1..9";
    case Ladder::kGomokuKyu:
      return "Gomoku kyu 10..1";
    case Ladder::kGomokuDan:
      return "Gomoku dan 1..9";
  }
  std::abort();
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
    s.remove_suffix(1);
  return s;
}

bool ConsumePrefix(std::string_view& s, std::string_view p) {
  if (s.substr(0, p.size()) != p) return false;
  s.remove_prefix(p.size());
  return true;
}

bool ConsumeSuffix(std::string_view& s, std::string_view p) {
  if (s.size() < p.size() || s.substr(s.size() - p.size()) != p) return false;
  s.remove_suffix(p.size());
  return true;
}

// One Chinese digit 一..九.
std::optional<int> ChineseDigit(std::string_view s) {
  for (int i = 0; i < 9; ++i) {
    if (s == kChineseDigits[i]) return i + 1;
  }
  return std::nullopt;
}

// 1..99 in Arabic digits, or 一..九十九 / 初 in Chinese numerals.
std::optional<int> ParseNumber(std::string_view s) {
  s = Trim(s);
  if (s.empty()) return std::nullopt;
  if (s[0] >= '0' && s[0] <= '9') {
    if (s.size() > 2) return std::nullopt;
    int v = 0;
    for (char c : s) {
      if (c < '0' || c > '9') return std::nullopt;
      v = v * 10 + (c - '0');
    }
    return v;
  }
  if (s == "初") return 1;
  if (auto d = ChineseDigit(s)) return d;
  // 十, 十N, N十, N十M
  const std::string_view kTen = "十";
  const size_t ten = s.find(kTen);
  if (ten == std::string_view::npos) return std::nullopt;
  int tens = 1;
  if (ten > 0) {
    auto t = ChineseDigit(s.substr(0, ten));
    if (!t) return std::nullopt;
    tens = *t;
  }
  std::string_view rest = s.substr(ten + kTen.size());
  int units = 0;
  if (!rest.empty()) {
    auto u = ChineseDigit(rest);
    if (!u) return std::nullopt;
    units = *u;
  }
  return tens * 10 + units;
}

absl::Status BadRank(const std::string& text, const std::string& why) {
  return absl::InvalidArgumentError(
      QuotedExcerpt(text) + " is not a rank (" + why +
      "); write e.g. 5k, 3d, 9p, 5级, 业余3段 or 职业九段");
}

}  // namespace

absl::StatusOr<Rank> Rank::Create(Ladder ladder, int level) {
  if (level < 1 || level > MaxLevel(ladder)) {
    return absl::InvalidArgumentError("rank level " + std::to_string(level) +
                                      " is outside its ladder (" +
                                      LadderRange(ladder) + ")");
  }
  return Rank(ladder, level);
}

absl::StatusOr<Rank> Rank::Parse(const std::string& text) {
  std::string_view s = Trim(text);
  if (s.empty()) return BadRank(text, "empty");
  std::optional<Ladder> ladder;
  std::string_view number;

  std::string_view cn = s;
  const bool amateur_prefix = ConsumePrefix(cn, "业余");
  const bool pro_prefix = !amateur_prefix && ConsumePrefix(cn, "职业");
  if (ConsumeSuffix(cn, "级")) {
    if (pro_prefix) return BadRank(text, "professionals have no kyu ranks");
    ladder = Ladder::kKyu;
    number = cn;
  } else if (ConsumeSuffix(cn, "段")) {
    ladder = amateur_prefix ? Ladder::kAmateurDan : Ladder::kProDan;
    number = cn;
  } else if (amateur_prefix || pro_prefix) {
    return BadRank(text, "expected 级 or 段 after the number");
  } else {
    std::string_view w = s;
    if (ConsumeSuffix(w, "kyu") || ConsumeSuffix(w, "k") ||
        ConsumeSuffix(w, "K")) {
      ladder = Ladder::kKyu;
    } else if (ConsumeSuffix(w, "dan") || ConsumeSuffix(w, "d") ||
               ConsumeSuffix(w, "D")) {
      ladder = Ladder::kAmateurDan;
    } else if (ConsumeSuffix(w, "p") || ConsumeSuffix(w, "P")) {
      ladder = Ladder::kProDan;
    } else {
      return BadRank(text, "unknown notation");
    }
    number = w;
    // Latin notations take Arabic digits only.
    for (char c : Trim(number)) {
      if (c < '0' || c > '9') return BadRank(text, "expected a number");
    }
  }
  std::optional<int> level = ParseNumber(number);
  if (!level) return BadRank(text, "expected a number");
  if (*level < 1 || *level > MaxLevel(*ladder)) {
    return BadRank(text, "level out of range");
  }
  return Rank(*ladder, *level);
}

absl::StatusOr<Rank> Rank::Parse(const std::string& text,
                                 Discipline discipline) {
  if (discipline == Discipline::kGo) return Parse(text);
  absl::StatusOr<GomokuRank> g = GomokuRank::Parse(text);
  if (!g.ok()) return g.status();
  return Rank(g->IsDan() ? Ladder::kGomokuDan : Ladder::kGomokuKyu, g->level());
}

Rank Rank::FromString(const std::string& text) {
  auto r = Parse(text);
  if (!r.ok()) std::abort();
  return *r;
}

int Rank::Ordinal() const {
  switch (ladder_) {
    case Ladder::kKyu:
      return 1 - level_;
    case Ladder::kAmateurDan:
      return level_;
    case Ladder::kProDan:
      return 100 + level_;
    case Ladder::kGomokuKyu:
      return kGomokuBase + 1 - level_;
    case Ladder::kGomokuDan:
      return kGomokuBase + level_;
  }
  std::abort();
}

absl::StatusOr<Rank> Rank::FromOrdinal(int ordinal) {
  if (ordinal > kGomokuBase)
    return Create(Ladder::kGomokuDan, ordinal - kGomokuBase);
  if (ordinal > 150)
    return Create(Ladder::kGomokuKyu, kGomokuBase + 1 - ordinal);
  if (ordinal <= 0) return Create(Ladder::kKyu, 1 - ordinal);
  if (ordinal <= 8) return Create(Ladder::kAmateurDan, ordinal);
  return Create(Ladder::kProDan, ordinal - 100);
}

std::string Rank::ToString() const {
  const char suffix = ladder_ == Ladder::kKyu || ladder_ == Ladder::kGomokuKyu
                          ? 'k'
                      : ladder_ == Ladder::kProDan ? 'p'
                                                   : 'd';
  return std::to_string(level_) + suffix;
}

std::string Rank::ToChinese() const {
  switch (ladder_) {
    case Ladder::kKyu:
      return std::to_string(level_) + "级";
    case Ladder::kAmateurDan:
      return "业余" + std::to_string(level_) + "段";
    case Ladder::kProDan:
      return "职业" +
             std::string(level_ == 1 ? "初" : kChineseDigits[level_ - 1]) +
             "段";
    case Ladder::kGomokuKyu:
      return "五子棋" + GomokuRank::Kyu(level_)->ToChinese();
    case Ladder::kGomokuDan:
      return "五子棋" + GomokuRank::Dan(level_)->ToChinese();
  }
  std::abort();
}

const char* DisciplineName(Discipline d) {
  return d == Discipline::kGomoku ? "gomoku" : "go";
}

absl::StatusOr<Discipline> ParseDiscipline(const std::string& text) {
  if (text == "go" || text == "围棋") return Discipline::kGo;
  if (text == "gomoku" || text == "五子棋") return Discipline::kGomoku;
  return absl::InvalidArgumentError(
      QuotedExcerpt(text) + " is not a discipline: expected go or gomoku");
}

}  // namespace gorank::registry
