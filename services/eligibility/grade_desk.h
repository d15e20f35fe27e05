// GradeDesk: gathers what the athlete-grade evaluation needs from the
// stored data and runs it (eligibility.h). A player's record is the
// placing of every event they entered (EventRepository::EventsOfPlayer; in
// team events their team's place) and their amateur dan certificates
// (CertificateRepository, filtered by player). Placings of events not yet
// closed give no grade (a near miss "event not closed"): only final results
// give grades.
#ifndef GORANK_SERVICES_ELIGIBILITY_GRADE_DESK_H_
#define GORANK_SERVICES_ELIGIBILITY_GRADE_DESK_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "services/certificates/certificate_repository.h"
#include "services/common/clock.h"
#include "services/eligibility/eligibility.h"
#include "services/tournaments/event_repository.h"

namespace gorank::eligibility {

// Thread-safe. Does not own its collaborators.
class GradeDesk {
 public:
  GradeDesk(tournaments::EventRepository* events,
            certificates::CertificateRepository* certificates,
            const Clock* clock,
            const GradeStandard* standard = &GradeStandard::Default())
      : events_(events),
        certificates_(certificates),
        clock_(clock),
        standard_(standard) {}

  // The stored record of `player_id` (empty for a player with no events and
  // no certificates). INVALID_ARGUMENT when player_id <= 0; INVALID_ARGUMENT
  // when a stored event's results no longer fit its format.
  absl::StatusOr<PlayerRecord> RecordOf(registry::PlayerId player_id);

  // EvaluatePlayer over RecordOf(player_id) plus `extra` placings (results
  // not stored here, e.g. foreign events). Errors as RecordOf.
  absl::StatusOr<PlayerEvaluation> EvaluatePlayer(
      registry::PlayerId player_id, const std::vector<EventPlacing>& extra);

  // Every qualifying entrant of a stored event. An event not yet closed
  // qualifies nobody yet, as EvaluatePlayer says; its blocker "not closed"
  // names who would. NOT_FOUND when unknown; INVALID_ARGUMENT when its
  // results do not fit its format.
  absl::StatusOr<EventEvaluation> EvaluateEvent(tournaments::EventId id);

  const GradeStandard& standard() const { return *standard_; }

 private:
  absl::Status AddPlacing(tournaments::EventId id, registry::PlayerId player_id,
                          PlayerRecord& record);
  absl::Status AddCertificates(registry::PlayerId player_id,
                               PlayerRecord& record);

  tournaments::EventRepository* events_;
  certificates::CertificateRepository* certificates_;
  const Clock* clock_;
  const GradeStandard* standard_;
};

}  // namespace gorank::eligibility

#endif  // GORANK_SERVICES_ELIGIBILITY_GRADE_DESK_H_
