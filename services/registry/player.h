// Value types of the registry: agencies, players and the rank history.
#ifndef GORANK_SERVICES_REGISTRY_PLAYER_H_
#define GORANK_SERVICES_REGISTRY_PLAYER_H_

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "services/common/date.h"
#include "services/registry/rank.h"

namespace gorank::registry {

// A registry player id, the one id type of every module (ratings, events,
// eligibility). Valid ids are > 0; 0 means "nobody" (the missing opponent of
// a bye, a guest entrant).
struct PlayerId {
  int64_t value = 0;
  auto operator<=>(const PlayerId&) const = default;
  template <typename H>
  friend H AbslHashValue(H h, PlayerId id) {
    return H::combine(std::move(h), id.value);
  }
};

enum class Gender { kUnspecified = 0, kMale = 1, kFemale = 2 };

enum class AgencyLevel { kNational = 1, kFirstLevel = 2 };
enum class AgencyStatus { kActive = 1, kSuspended = 2 };

inline constexpr char kNationalPrefix[] = "000";

struct Agency {
  std::string prefix;  // three digits, the agency's identity
  std::string name;
  std::string name_en;
  AgencyLevel level = AgencyLevel::kFirstLevel;
  AgencyStatus status = AgencyStatus::kActive;
  std::string status_reason;
};

struct Player {
  PlayerId id;
  std::string name;
  std::string latin_name;
  Gender gender = Gender::kUnspecified;
  std::optional<Date> birth_date;
  std::string agency_prefix;
  std::string resident_id;  // "" when not recorded (or hidden from the caller)
  bool resident_id_hidden = false;  // recorded, but not shown to this caller
  std::optional<Rank> rank;         // Go; absent: no Go rank yet
  std::optional<Rank> gomoku_rank;  // Gomoku; held independently of `rank`
  // The home agency's own id ("" when none, or hidden from the caller like
  // resident_id); unique within the agency.
  std::string external_id;
  int64_t created_unix = 0;

  // The rank the player holds in `d` (`rank` or `gomoku_rank`).
  const std::optional<Rank>& RankIn(Discipline d) const {
    return d == Discipline::kGomoku ? gomoku_rank : rank;
  }
  std::optional<Rank>& RankIn(Discipline d) {
    return d == Discipline::kGomoku ? gomoku_rank : rank;
  }
  int64_t updated_unix = 0;
};

enum class RankChangeReason {
  kRegistration = 1,
  kCertificate = 2,
  kAppraisal = 3,
  kPromotion = 4,
  kTournamentAward = 5,
  kCorrection = 6,
  kRevocation = 7,
  kImport = 8,  // the rank held when the agency's records were imported
};

const char* ReasonName(RankChangeReason reason);

// One change of one discipline's rank: from_rank and to_rank (when set)
// are ranks of `discipline`.
struct RankHistoryEntry {
  int64_t id = 0;
  PlayerId player_id;
  std::optional<Rank> from_rank;
  std::optional<Rank> to_rank;
  Date effective_date;
  RankChangeReason reason = RankChangeReason::kCorrection;
  std::string basis;
  std::string actor;
  int64_t recorded_unix = 0;
  Discipline discipline = Discipline::kGo;
};

}  // namespace gorank::registry

#endif  // GORANK_SERVICES_REGISTRY_PLAYER_H_
