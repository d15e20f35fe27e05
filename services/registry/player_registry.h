// The registry's rules: who may register, read, change and search players
// and agencies, what each caller may see, and how a rank change is recorded.
// Pure C++ over RegistryRepository; the gRPC handlers call this and nothing
// else.
#ifndef GORANK_SERVICES_REGISTRY_PLAYER_REGISTRY_H_
#define GORANK_SERVICES_REGISTRY_PLAYER_REGISTRY_H_

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "services/auth/caller.h"
#include "services/common/clock.h"
#include "services/registry/player.h"
#include "services/registry/player_import.h"
#include "services/registry/registry_repository.h"

namespace gorank::registry {

struct PlayerDraft {
  std::string name;
  std::string latin_name;
  Gender gender = Gender::kUnspecified;
  std::optional<Date> birth_date;
  std::string agency_prefix;
  std::string resident_id;
  std::optional<Rank> initial_rank;
  std::string initial_rank_basis;
  std::string external_id;  // the agency's own id; "" = none
};

// Unset fields are left as they are.
struct PlayerPatch {
  std::optional<std::string> name;
  std::optional<std::string> latin_name;
  std::optional<Gender> gender;
  std::optional<Date> birth_date;
  std::optional<std::string> resident_id;
  std::optional<std::string> agency_prefix;
};

struct PlayerPage {
  std::vector<Player> players;
  std::string next_page_token;  // "" on the last page
};

// What a tournament award rests on: exactly one of a closed event the
// player played in, or a certificate the player holds.
struct AwardBasis {
  int64_t event_id = 0;
  std::string certificate;  // nine-digit number
};

struct SearchRequest {
  std::string name_prefix;
  std::string agency_prefix;
  std::optional<Rank> min_rank;
  std::optional<Rank> max_rank;
  int page_size = 0;       // 0 = default 50; at most 200
  std::string page_token;  // opaque (services/common/paging.h)
};

// Thread-safe. Does not own the repository or the clock.
//
// Errors common to every method: INVALID_ARGUMENT for malformed input (the
// message names the field), NOT_FOUND for an unknown player or agency,
// PERMISSION_DENIED when an agency operator reaches outside its own agency or
// authority, FAILED_PRECONDITION when the caller's agency is suspended, and
// whatever the repository returns. A failed call changes nothing.
class PlayerRegistry {
 public:
  PlayerRegistry(RegistryRepository* repo, const Clock* clock)
      : repo_(repo), clock_(clock) {}

  // Runs before every read that shows ranks (Get, Search, History); the
  // server settles certificates whose public notice ended there. Its error
  // fails the read. Set once, before serving.
  void SetBeforeRead(std::function<absl::Status()> hook) {
    before_read_ = std::move(hook);
  }

  // Checks the basis of an award for `player` and returns how the history
  // names it ("event 12 (2025 Beijing Open)"): NOT_FOUND for an unknown
  // event or certificate, FAILED_PRECONDITION when it cannot carry the award
  // (event not closed, player not an entrant, another holder, revoked).
  // Without a checker awards are refused (FAILED_PRECONDITION). Set once,
  // before serving.
  void SetAwardBasisCheck(std::function<absl::StatusOr<std::string>(
                              const Player&, const AwardBasis&)>
                              check) {
    award_basis_check_ = std::move(check);
  }

  // Registers a player of `draft.agency_prefix` (an operator: only its own).
  // The birth date is taken from the resident ID when not given; both given
  // and different is INVALID_ARGUMENT. An initial rank is recorded as a
  // REGISTRATION history entry; an operator may set at most 3d. The initial
  // rank is a Go rank (a Gomoku one is INVALID_ARGUMENT).
  // ALREADY_EXISTS for a resident ID already registered, or an external id
  // the agency already gave another player (at most 64 bytes, no control
  // characters, else INVALID_ARGUMENT).
  absl::StatusOr<Player> Register(const auth::Caller& caller,
                                  const PlayerDraft& draft);
  // The player as `caller` may see it (see Redact).
  absl::StatusOr<Player> Get(const auth::Caller& caller, PlayerId id);
  // Applies `patch`; only the national admin may change the agency.
  absl::StatusOr<Player> Update(const auth::Caller& caller, PlayerId id,
                                const PlayerPatch& patch);
  // The public only looks names up: name_prefix is then a whole name or
  // Latin name (required), at most 20 players, no page token (both
  // INVALID_ARGUMENT otherwise). A Latin name matches in any case and with
  // or without spaces and hyphens (LatinNameKey: "ke jie", "KE-JIE" and
  // "kejie" find latin_name "Ke Jie"); a Chinese name matches as written.
  absl::StatusOr<PlayerPage> Search(const auth::Caller& caller,
                                    const SearchRequest& request);
  // For the public, certificate numbers in the bases are masked (PPPYY****)
  // and the actors carry no token ids.
  absl::StatusOr<std::vector<RankHistoryEntry>> History(
      const auth::Caller& caller, PlayerId id);
  // A correction or a tournament award (the other reasons belong to the
  // certificate and promotion flows). `basis` is required; an award must
  // also name `award` (exactly one of event and certificate, checked by the
  // award-basis check, INVALID_ARGUMENT otherwise), a correction must not.
  // The history's basis is then "<what the check returned>: <basis>". An
  // operator acts only for its own players and within its authority (amateur,
  // at most 3d): both the new rank and the rank the player holds must be within
  // it. The discipline is new_rank's: a Gomoku rank changes only the Gomoku
  // rank (operators up to Gomoku 3d; 7d..9d FAILED_PRECONDITION, not
  // awarded yet), a Go rank only the Go rank.
  absl::StatusOr<std::pair<Player, RankHistoryEntry>> ChangeRank(
      const auth::Caller& caller, PlayerId id, const Rank& new_rank,
      RankChangeReason reason, const std::string& basis,
      std::optional<Date> effective_date, const AwardBasis& award = {});

  // A player file (player_import.cc; README "player import"). Every row is
  // parsed and checked; a row that names a player already in the registry
  // (same resident ID, or same external id within the agency) is matched,
  // never added twice; the good rows are stored in one transaction when no
  // row is refused (or with options.skip_bad), nothing on a dry run. A
  // refused row is an answer (summary.refusals), not an error. Errors:
  // PERMISSION_DENIED for a caller who is neither the national admin nor an
  // agency operator; FAILED_PRECONDITION when the operator's agency is
  // suspended; INVALID_ARGUMENT for no rows, a row line below 2, or a missing
  // file name or SHA-256; RESOURCE_EXHAUSTED over kMaxImportRows rows;
  // ABORTED when a player of the file was registered meanwhile.
  absl::StatusOr<ImportSummary> Import(
      const auth::Caller& caller, const PlayerImportOptions& options,
      const std::vector<PlayerImportRow>& rows);

  // Agencies.
  absl::StatusOr<std::vector<Agency>> ListAgencies();
  // National admin only (checked by the access table). INVALID_ARGUMENT for
  // a prefix that is not three digits or an empty name; ALREADY_EXISTS.
  absl::StatusOr<Agency> CreateAgency(const auth::Caller& caller,
                                      const Agency& agency);
  // FAILED_PRECONDITION for the national body or an agency already in the
  // requested state; INVALID_ARGUMENT for an empty suspension reason.
  absl::StatusOr<Agency> SetAgencyStatus(const auth::Caller& caller,
                                         const std::string& prefix,
                                         AgencyStatus status,
                                         const std::string& reason);

  // What `caller` may see of `player`: the resident ID and the external id
  // only for the national admin and the player's own agency; the birth date
  // never for the public.
  static Player Redact(const auth::Caller& caller, Player player);

 private:
  // OK when the caller may write to players of `prefix`: the national admin,
  // or an operator of that (active) agency.
  absl::Status CheckWriteScope(const auth::Caller& caller,
                               const std::string& prefix);
  absl::Status ValidateDraft(PlayerDraft& draft);

  absl::Status BeforeRead() {
    return before_read_ ? before_read_() : absl::OkStatus();
  }

  RegistryRepository* repo_;
  const Clock* clock_;
  std::function<absl::Status()> before_read_;
  std::function<absl::StatusOr<std::string>(const Player&, const AwardBasis&)>
      award_basis_check_;
};

// `text` with every nine-digit run masked to its first five digits and
// "****" (certificate numbers in rank-history bases, for the public).
std::string MaskCertificateNumbers(const std::string& text);

// Checks shared by registration and the import: INVALID_ARGUMENT naming the
// field. A name (or Latin name) is at most 120 bytes without control
// characters; an external id at most kMaxExternalIdBytes; a birth date
// between 1900-01-01 and `today`.
inline constexpr size_t kMaxExternalIdBytes = 64;
absl::Status ValidatePlayerName(const std::string& field,
                                const std::string& name, bool required);
absl::Status ValidateExternalId(const std::string& id);
absl::Status ValidateBirthDate(const Date& d, const Date& today);
// Three ASCII digits.
bool IsAgencyPrefix(const std::string& p);
// The ranks an agency operator may grant: amateur Go, at most 3d; Gomoku,
// mirroring it, at most Gomoku 3d.
bool WithinAgencyAuthority(const Rank& r);

// JSON text of a player for the audit log (the resident ID is never written
// there, only whether one is recorded).
std::string PlayerJson(const Player& p);

}  // namespace gorank::registry

#endif  // GORANK_SERVICES_REGISTRY_PLAYER_REGISTRY_H_
