// Rank: a grade on one of the three Go ladders of SPEC section 2 (amateur
// kyu 30k..1k, amateur dan 1d..7d plus honorary 8d, professional dan
// 1p..9p) or on the Gomoku ladder of SPEC section 7 (10k..1k, 1d..9d), with
// total order, parsing of every accepted notation, and formatting. The
// ladder says the discipline: a player holds one rank per discipline.
//
// Order: inside a ladder by strength; across ladders every kyu is below every
// amateur dan (1k < 1d) and every amateur rank is below every professional
// rank (professional ranks sit on their own ladder above the amateur one; the
// order across exists so that sorting and range queries are defined, it is no
// claim about playing strength). Gomoku ranks order above all Go ranks for
// the same reason; no rule compares ranks of two disciplines.
#ifndef GORANK_SERVICES_REGISTRY_RANK_H_
#define GORANK_SERVICES_REGISTRY_RANK_H_

#include <compare>
#include <string>

#include "absl/status/statusor.h"

namespace gorank::registry {

enum class Ladder {
  kKyu = 1,
  kAmateurDan = 2,
  kProDan = 3,
  kGomokuKyu = 4,  // 10k..1k
  kGomokuDan = 5,  // 1d..9d
};

// The game a rank, a rank change or a certificate belongs to. kGo is 0 so
// that data written before Gomoku existed reads as Go.
enum class Discipline { kGo = 0, kGomoku = 1 };

// "go", "gomoku" (the storage spelling and the rankctl flag).
const char* DisciplineName(Discipline d);
// Accepts "go", "gomoku" (also "五子棋", "围棋"); INVALID_ARGUMENT otherwise.
absl::StatusOr<Discipline> ParseDiscipline(const std::string& text);

// Value type; thread-compatible. Always valid once constructed through
// Create() or Parse().
class Rank {
 public:
  // INVALID_ARGUMENT when `level` is outside the ladder's range
  // (kyu 1..30, amateur dan 1..8, pro dan 1..9, Gomoku kyu 1..10, Gomoku
  // dan 1..9).
  static absl::StatusOr<Rank> Create(Ladder ladder, int level);

  // Accepts, with surrounding white space ignored:
  //   kyu:  "5k" "5K" "5 kyu" "5级" "五级" "业余5级"
  //   dan:  "3d" "3D" "3 dan" "业余3段" "业余三段" "业余初段"
  //   pro:  "9p" "9P" "职业九段" "职业9段" "九段" "初段"
  // A bare Chinese "N段" (no 业余 / 职业) is read as professional, as in SPEC
  // section 2 where "初段" stands in the professional row.
  // Anything else, or a level outside the ladder: INVALID_ARGUMENT.
  static absl::StatusOr<Rank> Parse(const std::string& text);
  // Parse() for kGo; for kGomoku every notation of GomokuRank::Parse
  // ("5k", "5级", "3d", "三段", "初段", "五子棋3段"), 10k..1k and 1d..9d.
  static absl::StatusOr<Rank> Parse(const std::string& text,
                                    Discipline discipline);

  // Convenience for code and tests with literal ranks. REQUIRES: `text`
  // parses (aborts otherwise).
  static Rank FromString(const std::string& text);

  Ladder ladder() const { return ladder_; }
  int level() const { return level_; }

  // Go ladders only: a Gomoku rank is none of these.
  bool IsKyu() const { return ladder_ == Ladder::kKyu; }
  bool IsAmateurDan() const { return ladder_ == Ladder::kAmateurDan; }
  bool IsPro() const { return ladder_ == Ladder::kProDan; }
  bool IsAmateur() const { return IsKyu() || IsAmateurDan(); }

  bool IsGomoku() const {
    return ladder_ == Ladder::kGomokuKyu || ladder_ == Ladder::kGomokuDan;
  }
  bool IsGomokuDan() const { return ladder_ == Ladder::kGomokuDan; }
  Discipline discipline() const {
    return IsGomoku() ? Discipline::kGomoku : Discipline::kGo;
  }

  // A single integer giving the total order: kyu 30k=-29 .. 1k=0,
  // dan 1d=1 .. 8d=8, pro 1p=101 .. 9p=109; Gomoku 10k=191 .. 1k=200,
  // 1d=201 .. 9d=209. Unique across disciplines (storage keeps it).
  int Ordinal() const;
  static absl::StatusOr<Rank> FromOrdinal(int ordinal);

  // "5k", "3d", "9p"; Gomoku ranks the same way ("3d"): the discipline is
  // shown beside them.
  std::string ToString() const;
  // "5级", "业余3段", "职业九段"; Gomoku "五子棋三段", "五子棋五级".
  std::string ToChinese() const;

  friend bool operator==(const Rank& a, const Rank& b) = default;
  friend std::strong_ordering operator<=>(const Rank& a, const Rank& b) {
    return a.Ordinal() <=> b.Ordinal();
  }

 private:
  Rank(Ladder ladder, int level) : ladder_(ladder), level_(level) {}
  Ladder ladder_;
  int level_;
};

}  // namespace gorank::registry

#endif  // GORANK_SERVICES_REGISTRY_RANK_H_
