#include "services/registry/gomoku_rank.h"

#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "services/common/excerpt.h"

namespace gorank::registry {
namespace {

constexpr std::string_view kChineseDigits[] = {"一", "二", "三", "四", "五",
                                               "六", "七", "八", "九", "十"};

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
    s.remove_suffix(1);
  return s;
}

bool ConsumeSuffix(std::string_view& s, std::string_view suffix) {
  if (s.size() < suffix.size() ||
      s.substr(s.size() - suffix.size()) != suffix) {
    return false;
  }
  s.remove_suffix(suffix.size());
  return true;
}

// "1".."10", or one Chinese numeral 一..十, or 初 (= 1).
std::optional<int> ParseLevel(std::string_view s) {
  s = Trim(s);
  if (s == "初") return 1;
  for (int i = 0; i < 10; ++i) {
    if (s == kChineseDigits[i]) return i + 1;
  }
  if (s.empty() || s.size() > 2) return std::nullopt;
  int v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
  }
  return v;
}

absl::Status BadRank(std::string_view text) {
  return absl::InvalidArgumentError(
      QuotedExcerpt(text) +
      " is not a Gomoku rank: expected 10k..1k or 1d..9d (also 5级, 三段, "
      "初段)");
}

}  // namespace

absl::StatusOr<GomokuRank> GomokuRank::Kyu(int level) {
  if (level < 1 || level > kLowestKyu) {
    return absl::InvalidArgumentError(
        "Gomoku kyu level " + std::to_string(level) + " is outside 1..10");
  }
  return GomokuRank(false, level);
}

absl::StatusOr<GomokuRank> GomokuRank::Dan(int level) {
  if (level < 1 || level > kHighestDan) {
    return absl::InvalidArgumentError(
        "Gomoku dan level " + std::to_string(level) + " is outside 1..9");
  }
  return GomokuRank(true, level);
}

absl::StatusOr<GomokuRank> GomokuRank::Parse(const std::string& text) {
  std::string_view s = Trim(text);
  const std::string_view kPrefix = "五子棋";
  if (s.substr(0, kPrefix.size()) == kPrefix) s.remove_prefix(kPrefix.size());
  bool dan;
  if (ConsumeSuffix(s, "k") || ConsumeSuffix(s, "K") ||
      ConsumeSuffix(s, "kyu") || ConsumeSuffix(s, "级")) {
    dan = false;
  } else if (ConsumeSuffix(s, "d") || ConsumeSuffix(s, "D") ||
             ConsumeSuffix(s, "dan") || ConsumeSuffix(s, "段")) {
    dan = true;
  } else {
    return BadRank(text);
  }
  const std::optional<int> level = ParseLevel(s);
  if (!level) return BadRank(text);
  if (Trim(s) == "初" && !dan) return BadRank(text);
  absl::StatusOr<GomokuRank> rank = dan ? Dan(*level) : Kyu(*level);
  if (!rank.ok()) return BadRank(text);
  return rank;
}

GomokuRank GomokuRank::FromOrdinal(int ordinal) {
  if (ordinal < 1 - kLowestKyu || ordinal > kHighestDan) std::abort();
  return ordinal >= 1 ? GomokuRank(true, ordinal)
                      : GomokuRank(false, 1 - ordinal);
}

std::string GomokuRank::ToString() const {
  return std::to_string(level_) + (dan_ ? "d" : "k");
}

std::string GomokuRank::ToChinese() const {
  if (dan_ && level_ == 1) return "初段";
  return std::string(kChineseDigits[level_ - 1]) + (dan_ ? "段" : "级");
}

}  // namespace gorank::registry
