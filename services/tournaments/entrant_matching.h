// Linking result-file rows to the registry (issue #16): a CSV row's
// player_id column is checked, every other row is matched the way the EGD
// matches submitted tournaments - by name (Chinese or Latin, family and
// given name in either order, case-insensitive for Latin), then by agency
// (the club column naming the agency's prefix or name) and rank. Exactly
// one registered player fitting every known field links; several, or a
// name match that differs in agency or rank, leave the row AMBIGUOUS with
// its candidates; no name match leaves it UNKNOWN. The director resolves
// rows (link to a player id, or store as a guest) before anything is
// stored. Pure C++ over the PlayerDirectory interface.
#ifndef GORANK_SERVICES_TOURNAMENTS_ENTRANT_MATCHING_H_
#define GORANK_SERVICES_TOURNAMENTS_ENTRANT_MATCHING_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "services/registry/player.h"
#include "services/registry/rank.h"
#include "services/tournaments/result_file.h"

namespace gorank::tournaments {

// The public registry fields of a player (no resident id, no birth date).
struct RegisteredPlayer {
  registry::PlayerId id;
  std::string name;        // Chinese, as registered
  std::string latin_name;  // "Wang Lei"
  std::string agency_prefix;
  std::vector<std::string> agency_names;  // the agency's name and English name
  std::optional<registry::Rank> rank;     // Go rank
};

// The registry as the tournament office reads it. Implementations are
// thread-safe.
class PlayerDirectory {
 public:
  virtual ~PlayerDirectory() = default;
  // NOT_FOUND for an unknown id.
  virtual absl::StatusOr<RegisteredPlayer> Get(registry::PlayerId id) const = 0;
  // Players whose name or Latin name equals `name` (at most 50; more, such
  // as names that only begin with `name`, may be returned).
  virtual absl::StatusOr<std::vector<RegisteredPlayer>> FindByName(
      const std::string& name) const = 0;
};

enum class RowMatchState {
  kFileId = 1,  // CSV player_id, checked
  kMatched,     // exactly one player fits
  kLinked,      // linked by a resolution
  kGuest,       // a guest by a resolution or allow_guests
  kAmbiguous,   // unresolved: candidates listed
  kUnknown,     // unresolved: nobody of that name
};

struct PlayerCandidate {
  RegisteredPlayer player;
  std::string differs;  // "" when every known field fits
};

struct RowMatch {
  int row = 0;   // 1-based entrant id
  int line = 0;  // file line (0 when unknown)
  std::string name;
  std::optional<registry::Rank> rank;
  std::string club;
  RowMatchState state = RowMatchState::kUnknown;
  std::optional<registry::PlayerId> player_id;
  std::vector<PlayerCandidate> candidates;

  bool Unresolved() const {
    return state == RowMatchState::kAmbiguous ||
           state == RowMatchState::kUnknown;
  }
};

struct RowResolution {
  int row = 0;
  registry::PlayerId player_id;  // > 0: link
  bool guest = false;
};

// Matches every row of `file` and applies `resolutions`. INVALID_ARGUMENT
// listing every problem: a resolution naming a row outside 1..N, both or
// neither of link and guest, two resolutions for one row, a CSV player_id
// or a linked id that is not registered, one player on two rows. Errors of
// the directory are returned as they are.
absl::StatusOr<std::vector<RowMatch>> MatchRows(
    const ResultFile& file, const PlayerDirectory& directory,
    const std::vector<RowResolution>& resolutions);

// Sets the entrants' player ids from `matches`; unresolved rows become
// guests when `allow_guests` (their state kGuest). FAILED_PRECONDITION
// listing each unresolved row with its candidates otherwise (nothing
// changed then).
absl::Status ApplyMatches(std::vector<RowMatch>& matches, bool allow_guests,
                          EventResults& results);

// One line about a row: "row 3 (line 14) Wang Lei 2d Bjng: ambiguous:
// player 7 王磊 / Wang Lei 110 2d, player 9 ... (rank 1d)".
std::string DescribeRowMatch(const RowMatch& m);

}  // namespace gorank::tournaments

#endif  // GORANK_SERVICES_TOURNAMENTS_ENTRANT_MATCHING_H_
