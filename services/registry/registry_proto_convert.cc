#include "services/registry/registry_proto_convert.h"

#include "services/common/status_macros.h"

namespace gorank::registry {

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
  out->set_level(a.level == AgencyLevel::kNational
                     ? v1::AGENCY_LEVEL_NATIONAL
                     : v1::AGENCY_LEVEL_FIRST_LEVEL);
  out->set_status(a.status == AgencyStatus::kActive
                      ? v1::AGENCY_STATUS_ACTIVE
                      : v1::AGENCY_STATUS_SUSPENDED);
  out->set_status_reason(a.status_reason);
}

void HistoryToProto(const RankHistoryEntry& e, v1::RankHistoryEntry* out) {
  out->set_id(e.id);
  out->set_player_id(e.player_id.value);
  if (e.from_rank) RankToProto(*e.from_rank, out->mutable_from_rank());
  if (e.to_rank) RankToProto(*e.to_rank, out->mutable_to_rank());
  DateToProto(e.effective_date, out->mutable_effective_date());
  out->set_reason(
      static_cast<v1::RankChangeReason>(static_cast<int>(e.reason)));
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

}  // namespace gorank::registry
