// Athlete technical grades (SPEC section 6): which grades a player may apply
// for, each justified by a result (event, group, sub-event, place, entrants)
// or an amateur dan certificate with the clause of the standard, and the
// near misses with the reason. "Does not qualify" is an answer, not an
// error. Pure functions over value types; the standard comes from
// grade_standard.h, standings from tournaments/standings.h, certificates
// from the caller (the certificate module feeds DanCertificate later).
#ifndef GORANK_SERVICES_ELIGIBILITY_ELIGIBILITY_H_
#define GORANK_SERVICES_ELIGIBILITY_ELIGIBILITY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "services/common/date.h"
#include "services/eligibility/grade_standard.h"
#include "services/registry/rank.h"
#include "services/tournaments/event.h"
#include "services/tournaments/results.h"
#include "services/tournaments/standings.h"

namespace gorank::eligibility {

// One entrant's (a player's, a pair's or a team's) final result in one
// event, with what the standard needs to know about the event.
struct EventPlacing {
  tournaments::EventId event_id;
  std::string event_name;
  std::string competition;  // catalogue code
  std::string group;        // "" when the event names none
  bool highest_group = true;
  tournaments::SubEvent sub_event = tournaments::SubEvent::kUnspecified;
  Date end;
  int place = 0;  // "1224" place (best place of a shared group)
  bool shared = false;
  bool pending = false;      // pending results or play-off
  bool event_closed = true;  // false: results not final yet, no grade
  int entrants_played = 0;   // over the board, voided excluded (note 2)
};

// An amateur dan certificate as the certificate module will supply it.
struct DanCertificate {
  std::string number;  // "000250012"
  registry::Rank rank;
  bool by_appraisal = false;  // 鉴定: never a basis for a grade
  bool effective = true;      // false while 4d+ is under public notice
};

struct PlayerRecord {
  registry::PlayerId player_id;
  std::vector<EventPlacing> placings;
  std::vector<DanCertificate> certificates;
};

// The result or certificate behind a grant or a near miss.
struct Basis {
  std::optional<EventPlacing> placing;
  std::optional<DanCertificate> certificate;
};

struct GradeGrant {
  Grade grade;
  std::string clause;  // "三(二)2", "段位"
  Basis basis;
  std::string explanation;  // one readable sentence
};

// A result or certificate that gives no grade (or not the next higher
// one). `grade` is the grade it would have met but for `reasons` (a placing
// in the range of a rule held back by note 2, note 3, a pending place, or
// the place itself: the nearest better rule); absent when no rule of the
// standard fits it at all (competition, group or sub-event outside the
// table).
struct NearMiss {
  std::optional<Grade> grade;
  std::string clause;  // the rule's clause, or the note's
  Basis basis;
  std::vector<std::string> reasons;  // every reason, in the standard's order
  std::string reason;                // `reasons` joined by "; "
};

struct PlayerEvaluation {
  std::vector<GradeGrant> grants;  // best grade first
  std::vector<NearMiss> near_misses;
};

// Every grade `record` allows, and every near miss. Never fails.
// Thread-safe.
PlayerEvaluation EvaluatePlayer(const GradeStandard& standard,
                                const PlayerRecord& record);

struct EntrantGrants {
  int id = 0;  // entrant id, or team id for team events
  std::string name;
  std::vector<registry::PlayerId> player_ids;  // registered players it covers
  int place = 0;
  std::vector<GradeGrant> grants;
};

struct EventEvaluation {
  std::vector<EntrantGrants> qualifying;  // in standings order
  // Why nobody (or nobody more) qualifies: notes 1-3, pending standings or
  // places awaiting a play-off, competition not in the standard.
  std::vector<std::string> blockers;
};

// Lists every qualifying entrant of a finished event. INVALID_ARGUMENT when
// `standings` does not belong to `results` (a row names an unknown entrant
// or team). Pending standings give OK with a blocker. Thread-safe.
absl::StatusOr<EventEvaluation> EvaluateEvent(
    const GradeStandard& standard, const tournaments::Event& event,
    const tournaments::EventResults& results,
    const tournaments::Standings& standings);

// The EventPlacing of one standings row. Thread-safe.
EventPlacing PlacingOf(const tournaments::Event& event,
                       const tournaments::Standings& standings,
                       const tournaments::StandingRow& row);

}  // namespace gorank::eligibility

#endif  // GORANK_SERVICES_ELIGIBILITY_ELIGIBILITY_H_
