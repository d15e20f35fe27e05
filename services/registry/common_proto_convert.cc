#include "services/registry/common_proto_convert.h"

#include "services/common/status_macros.h"

namespace gorank::registry {

absl::StatusOr<Discipline> DisciplineFromProto(v1::Discipline d) {
  switch (d) {
    case v1::DISCIPLINE_GO:
      return Discipline::kGo;
    case v1::DISCIPLINE_GOMOKU:
      return Discipline::kGomoku;
    default:
      return absl::InvalidArgumentError("discipline: unknown value");
  }
}

v1::Discipline DisciplineToProto(Discipline d) {
  return d == Discipline::kGomoku ? v1::DISCIPLINE_GOMOKU : v1::DISCIPLINE_GO;
}

absl::StatusOr<std::optional<Rank>> RankFromProto(const v1::Rank& r,
                                                  const std::string& field,
                                                  Discipline discipline) {
  if (r.ladder() == v1::RANK_LADDER_UNSPECIFIED && r.level() == 0 &&
      r.notation().empty()) {
    return std::nullopt;
  }
  const bool gomoku = discipline == Discipline::kGomoku;
  if (r.discipline() != v1::DISCIPLINE_GO && !gomoku) {
    return absl::InvalidArgumentError(
        field +
        ": a Gomoku rank where a Go rank is expected (set the request's "
        "discipline to GOMOKU where the call takes one)");
  }
  if (r.ladder() == v1::RANK_LADDER_UNSPECIFIED) {
    if (r.notation().empty()) {
      return absl::InvalidArgumentError(field + ": ladder is missing");
    }
    auto parsed = Rank::Parse(r.notation(), discipline);
    if (!parsed.ok()) {
      return absl::InvalidArgumentError(field + ": " +
                                        std::string(parsed.status().message()));
    }
    return std::optional<Rank>(*parsed);
  }
  Ladder ladder;
  switch (r.ladder()) {
    case v1::RANK_LADDER_KYU:
      ladder = Ladder::kKyu;
      break;
    case v1::RANK_LADDER_AMATEUR_DAN:
      ladder = Ladder::kAmateurDan;
      break;
    case v1::RANK_LADDER_PRO_DAN:
      ladder = Ladder::kProDan;
      break;
    case v1::RANK_LADDER_GOMOKU_KYU:
      ladder = Ladder::kGomokuKyu;
      break;
    case v1::RANK_LADDER_GOMOKU_DAN:
      ladder = Ladder::kGomokuDan;
      break;
    default:
      return absl::InvalidArgumentError(field + ": unknown ladder");
  }
  const bool gomoku_ladder =
      ladder == Ladder::kGomokuKyu || ladder == Ladder::kGomokuDan;
  if (gomoku_ladder != gomoku) {
    return absl::InvalidArgumentError(
        field +
        (gomoku_ladder
             ? ": a Gomoku ladder where a Go rank is expected (set the "
               "request's discipline to GOMOKU where the call takes one)"
             : ": a Go ladder, but the request's discipline is GOMOKU"));
  }
  auto rank = Rank::Create(ladder, r.level());
  if (!rank.ok()) {
    return absl::InvalidArgumentError(field + ": " +
                                      std::string(rank.status().message()));
  }
  return std::optional<Rank>(*rank);
}

void RankToProto(const Rank& r, v1::Rank* out) {
  switch (r.ladder()) {
    case Ladder::kKyu:
      out->set_ladder(v1::RANK_LADDER_KYU);
      break;
    case Ladder::kAmateurDan:
      out->set_ladder(v1::RANK_LADDER_AMATEUR_DAN);
      break;
    case Ladder::kProDan:
      out->set_ladder(v1::RANK_LADDER_PRO_DAN);
      break;
    case Ladder::kGomokuKyu:
      out->set_ladder(v1::RANK_LADDER_GOMOKU_KYU);
      break;
    case Ladder::kGomokuDan:
      out->set_ladder(v1::RANK_LADDER_GOMOKU_DAN);
      break;
  }
  out->set_level(r.level());
  out->set_notation(r.ToString());
  out->set_discipline(DisciplineToProto(r.discipline()));
}

absl::StatusOr<Gender> GenderFromProto(v1::Gender g) {
  switch (g) {
    case v1::GENDER_UNSPECIFIED:
      return Gender::kUnspecified;
    case v1::GENDER_MALE:
      return Gender::kMale;
    case v1::GENDER_FEMALE:
      return Gender::kFemale;
    default:
      return absl::InvalidArgumentError("gender: unknown value");
  }
}

}  // namespace gorank::registry
