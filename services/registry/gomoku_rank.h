// GomokuRank: a grade on the Gomoku ladder (五子棋段级位, SPEC section 7 and
// the rule text's articles 4-5): ten kyu grades 10k (weakest) .. 1k, then
// nine dan grades 1d .. 9d; 1k < 1d. While the system is young the highest
// dan awarded is 6d (kInitialHighestDan); 7d-9d parse and order but
// WithinInitialCap() is false for them. This ladder is separate from the Go
// ladders of services/registry/rank.h and is never compared with them.
#ifndef GORANK_SERVICES_REGISTRY_GOMOKU_RANK_H_
#define GORANK_SERVICES_REGISTRY_GOMOKU_RANK_H_

#include <compare>
#include <string>

#include "absl/status/statusor.h"

namespace gorank::registry {

// Value type; thread-compatible. Always valid once made by Create/Parse.
class GomokuRank {
 public:
  static constexpr int kLowestKyu = 10;
  static constexpr int kHighestDan = 9;
  static constexpr int kInitialHighestDan = 6;

  // INVALID_ARGUMENT unless 1 <= level <= 10 (kyu) or 1 <= level <= 9 (dan).
  static absl::StatusOr<GomokuRank> Kyu(int level);
  static absl::StatusOr<GomokuRank> Dan(int level);

  // Accepts, surrounding spaces ignored: "5k" "5K" "5 kyu" "5级" "五级"
  // "十级"; "3d" "3D" "3 dan" "3段" "三段" "初段" "五子棋3段". Anything
  // else, or a level off the ladder (e.g. "11k", "10d"): INVALID_ARGUMENT
  // naming the text and the accepted range.
  static absl::StatusOr<GomokuRank> Parse(const std::string& text);

  // REQUIRES: `ordinal` in -9..9 (see Ordinal()); aborts otherwise.
  static GomokuRank FromOrdinal(int ordinal);

  bool IsDan() const { return dan_; }
  int level() const { return level_; }

  // Total order as one integer: 10k = -9 .. 1k = 0, 1d = 1 .. 9d = 9.
  int Ordinal() const { return dan_ ? level_ : 1 - level_; }

  // True for every kyu and for 1d..6d.
  bool WithinInitialCap() const {
    return !dan_ || level_ <= kInitialHighestDan;
  }

  // "5k", "3d".
  std::string ToString() const;
  // "五级", "初段", "三段".
  std::string ToChinese() const;

  friend bool operator==(const GomokuRank&, const GomokuRank&) = default;
  friend std::strong_ordering operator<=>(const GomokuRank& a,
                                          const GomokuRank& b) {
    return a.Ordinal() <=> b.Ordinal();
  }

 private:
  GomokuRank(bool dan, int level) : dan_(dan), level_(level) {}
  bool dan_;
  int level_;
};

}  // namespace gorank::registry

#endif  // GORANK_SERVICES_REGISTRY_GOMOKU_RANK_H_
