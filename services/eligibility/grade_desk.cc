#include "services/eligibility/grade_desk.h"

#include "services/certificates/certificate_rules.h"
#include "services/common/status_macros.h"

namespace gorank::eligibility {

using tournaments::EventId;

absl::Status GradeDesk::AddPlacing(EventId id, registry::PlayerId player_id,
                                   PlayerRecord& record) {
  GORANK_ASSIGN_OR_RETURN(tournaments::Event event, events_->GetEvent(id));
  GORANK_ASSIGN_OR_RETURN(tournaments::EventResults results,
                          events_->GetResults(id));
  GORANK_ASSIGN_OR_RETURN(tournaments::Standings standings,
                          tournaments::ComputeStandings(event, results));
  for (const tournaments::Entrant& e : results.entrants) {
    if (e.player_id != player_id) continue;
    int row_id = e.id.value;
    if (standings.teams) {
      if (!e.team) continue;
      row_id = e.team->value;
    }
    for (const tournaments::StandingRow& row : standings.rows) {
      if (row.id != row_id) continue;
      EventPlacing p = PlacingOf(event, standings, row);
      p.event_closed = event.closed;
      record.placings.push_back(p);
      return absl::OkStatus();
    }
  }
  return absl::OkStatus();  // voided or pending results: no placing
}

absl::Status GradeDesk::AddCertificates(registry::PlayerId player_id,
                                        PlayerRecord& record) {
  certificates::CertificateFilter filter;
  filter.player_id = player_id;
  const int64_t now = clock_->NowSeconds();
  while (true) {
    GORANK_ASSIGN_OR_RETURN(auto page, certificates_->ListCertificates(filter));
    for (const certificates::Certificate& c : page) {
      if (!c.grade.IsAmateurDan()) continue;
      const certificates::CertificateState state =
          certificates::StateAt(c, now);
      if (state == certificates::CertificateState::kRevoked) continue;
      record.certificates.push_back(
          DanCertificate{c.number.ToString(), c.grade,
                         c.basis == certificates::Basis::kAppraisal,
                         state == certificates::CertificateState::kEffective});
    }
    if (static_cast<int>(page.size()) < filter.limit) break;
    filter.after_number = page.back().number.ToString();
  }
  return absl::OkStatus();
}

absl::StatusOr<PlayerRecord> GradeDesk::RecordOf(registry::PlayerId player_id) {
  if (player_id.value <= 0)
    return absl::InvalidArgumentError("player_id must be positive");
  PlayerRecord record;
  record.player_id = player_id;
  GORANK_ASSIGN_OR_RETURN(std::vector<EventId> ids,
                          events_->EventsOfPlayer(player_id));
  for (EventId id : ids)
    GORANK_RETURN_IF_ERROR(AddPlacing(id, player_id, record));
  GORANK_RETURN_IF_ERROR(AddCertificates(player_id, record));
  return record;
}

absl::StatusOr<PlayerEvaluation> GradeDesk::EvaluatePlayer(
    registry::PlayerId player_id, const std::vector<EventPlacing>& extra) {
  GORANK_ASSIGN_OR_RETURN(PlayerRecord record, RecordOf(player_id));
  record.placings.insert(record.placings.end(), extra.begin(), extra.end());
  return eligibility::EvaluatePlayer(*standard_, record);
}

absl::StatusOr<EventEvaluation> GradeDesk::EvaluateEvent(EventId id) {
  GORANK_ASSIGN_OR_RETURN(tournaments::Event event, events_->GetEvent(id));
  GORANK_ASSIGN_OR_RETURN(tournaments::EventResults results,
                          events_->GetResults(id));
  GORANK_ASSIGN_OR_RETURN(tournaments::Standings standings,
                          tournaments::ComputeStandings(event, results));
  GORANK_ASSIGN_OR_RETURN(
      EventEvaluation out,
      eligibility::EvaluateEvent(*standard_, event, results, standings));
  if (!event.closed) {
    // As EvaluatePlayer: no grade before the close.
    std::string names;
    for (const EntrantGrants& q : out.qualifying) {
      names += (names.empty() ? "" : ", ") + q.name;
    }
    out.blockers.push_back(
        "event " + std::to_string(id.value) +
        " is not closed: its places give grades once it is" +
        (names.empty() ? std::string() : " (then: " + names + ")"));
    out.qualifying.clear();
  }
  return out;
}

}  // namespace gorank::eligibility
