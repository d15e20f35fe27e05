#include "services/registry/registry_proto_convert.h"

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
    case v1::RANK_LADDER_KYU: ladder = Ladder::kKyu; break;
    case v1::RANK_LADDER_AMATEUR_DAN: ladder = Ladder::kAmateurDan; break;
    case v1::RANK_LADDER_PRO_DAN: ladder = Ladder::kProDan; break;
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
    case Ladder::kKyu: out->set_ladder(v1::RANK_LADDER_KYU); break;
    case Ladder::kAmateurDan: out->set_ladder(v1::RANK_LADDER_AMATEUR_DAN); break;
    case Ladder::kProDan: out->set_ladder(v1::RANK_LADDER_PRO_DAN); break;
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

absl::StatusOr<std::optional<Date>> DateFromProto(const v1::Date& d,
                                                  const std::string& field) {
  if (d.year() == 0 && d.month() == 0 && d.day() == 0) return std::nullopt;
  Date date{d.year(), d.month(), d.day()};
  if (!date.IsValid()) {
    return absl::InvalidArgumentError(field + ": " + std::to_string(d.year()) +
                                      "-" + std::to_string(d.month()) + "-" +
                                      std::to_string(d.day()) +
                                      " is not a calendar date");
  }
  return std::optional<Date>(date);
}

void DateToProto(const Date& d, v1::Date* out) {
  out->set_year(d.year);
  out->set_month(d.month);
  out->set_day(d.day);
}

absl::StatusOr<Gender> GenderFromProto(v1::Gender g) {
  switch (g) {
    case v1::GENDER_UNSPECIFIED: return Gender::kUnspecified;
    case v1::GENDER_MALE: return Gender::kMale;
    case v1::GENDER_FEMALE: return Gender::kFemale;
    default: return absl::InvalidArgumentError("gender: unknown value");
  }
}

void PlayerToProto(const Player& p, v1::Player* out) {
  out->set_id(p.id.value);
  out->set_name(p.name);
  out->set_latin_name(p.latin_name);
  out->set_gender(static_cast<v1::Gender>(static_cast<int>(p.gender)));
  if (p.birth_date) DateToProto(*p.birth_date, out->mutable_birth_date());
  out->set_agency_prefix(p.agency_prefix);
  out->set_resident_id(p.resident_id);
  out->set_has_resident_id(!p.resident_id.empty() || p.resident_id_hidden);
  if (p.rank) RankToProto(*p.rank, out->mutable_rank());
  if (p.gomoku_rank) RankToProto(*p.gomoku_rank, out->mutable_gomoku_rank());
  out->set_created_unix(p.created_unix);
  out->set_updated_unix(p.updated_unix);
  out->set_external_id(p.external_id);
}

PlayerImportRow ImportRowFromProto(const v1::PlayerImportRow& r) {
  PlayerImportRow row;
  row.line = r.line();
  row.name = r.name();
  row.latin_name = r.latin_name();
  row.gender = r.gender();
  row.birth_date = r.birth_date();
  row.resident_id = r.resident_id();
  row.agency = r.agency();
  row.rank = r.rank();
  row.rank_date = r.rank_date();
  row.external_id = r.external_id();
  return row;
}

void ImportSummaryToProto(const ImportSummary& s, v1::ImportSummary* out) {
  out->set_rows(s.rows);
  out->set_added(s.added);
  out->set_matched(s.matched);
  out->set_refused(s.refused);
  out->set_stored(s.stored);
  for (const ImportRefusal& r : s.refusals) {
    v1::ImportRefusal* o = out->add_refusals();
    o->set_line(r.line);
    o->set_column(r.column);
    o->set_reason(r.reason);
  }
  for (const ImportOutcome& r : s.outcomes) {
    v1::ImportOutcome* o = out->add_outcomes();
    o->set_line(r.line);
    o->set_player_id(r.player_id.value);
    o->set_matched(r.matched);
    o->set_note(r.note);
  }
}

void AgencyToProto(const Agency& a, v1::Agency* out) {
  out->set_prefix(a.prefix);
  out->set_name(a.name);
  out->set_name_en(a.name_en);
  out->set_level(a.level == AgencyLevel::kNational ? v1::AGENCY_LEVEL_NATIONAL
                                                   : v1::AGENCY_LEVEL_FIRST_LEVEL);
  out->set_status(a.status == AgencyStatus::kActive ? v1::AGENCY_STATUS_ACTIVE
                                                    : v1::AGENCY_STATUS_SUSPENDED);
  out->set_status_reason(a.status_reason);
}

void HistoryToProto(const RankHistoryEntry& e, v1::RankHistoryEntry* out) {
  out->set_id(e.id);
  out->set_player_id(e.player_id.value);
  if (e.from_rank) RankToProto(*e.from_rank, out->mutable_from_rank());
  if (e.to_rank) RankToProto(*e.to_rank, out->mutable_to_rank());
  DateToProto(e.effective_date, out->mutable_effective_date());
  out->set_reason(static_cast<v1::RankChangeReason>(static_cast<int>(e.reason)));
  out->set_basis(e.basis);
  out->set_actor(e.actor);
  out->set_recorded_unix(e.recorded_unix);
  out->set_discipline(DisciplineToProto(e.discipline));
}

absl::StatusOr<RankChangeReason> ReasonFromProto(v1::RankChangeReason r) {
  if (r < v1::RANK_CHANGE_REASON_REGISTRATION ||
      r > v1::RANK_CHANGE_REASON_IMPORT) {
    return absl::InvalidArgumentError("reason: missing or unknown");
  }
  return static_cast<RankChangeReason>(static_cast<int>(r));
}

auth::Role RoleFromProto(v1::Role r) {
  switch (r) {
    case v1::ROLE_NATIONAL_ADMIN: return auth::Role::kNationalAdmin;
    case v1::ROLE_AGENCY_OPERATOR: return auth::Role::kAgencyOperator;
    case v1::ROLE_AUDITOR: return auth::Role::kAuditor;
    default: return auth::Role::kPublic;
  }
}

v1::Role RoleToProto(auth::Role r) {
  return static_cast<v1::Role>(static_cast<int>(r));
}

void TokenToProto(const auth::TokenRecord& t, v1::TokenInfo* out) {
  out->set_id(t.id);
  out->set_role(RoleToProto(t.role));
  out->set_agency_prefix(t.agency_prefix);
  out->set_label(t.label);
  out->set_created_unix(t.created_unix);
  out->set_revoked_unix(t.revoked_unix);
}

}  // namespace gorank::registry
