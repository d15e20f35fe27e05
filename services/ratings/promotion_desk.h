// PromotionDesk: promotion proposals from the rules in force (promotion.h,
// ratings_config.h) over the stored records — a player's rank and rank
// history from the registry, the stored rating history, and the games and
// places of the closed events the player entered — then review and apply:
//   - Explain: one player's verdict under every enabled rule (stores nothing);
//   - Evaluate: stores each met (player, rule) as a PENDING proposal (one per
//     player and rule while pending) and returns them;
//   - Decide: approve applies the rank change with its history entry — a
//     certifiable grade (10k..1k, 1d..7d) through the certificate office
//     (Certification::Issue: issuing authority, public notice for 4d..7d,
//     stock), any other rank as a PROMOTION entry in the registry; reject
//     records the reason.
// Who may act: the national admin on every player; an agency operator on
// its own agency's players, within its authority (the certificate rules for
// certifiable grades; professional ranks are the national body's).
//
// How event results become rule evidence (EventResult): the category is the
// event's competition code (competitions.tsv), so a national body that wants
// a placement or rank-tournament rule to apply lists competition codes in
// the rule's categories; the place is the entrant's place in the final
// standings (individual events); a rank tournament's group award is the
// event's group when it names a rank ("3d"); the group is also matched
// against "code/group" categories; a relay's final streak is the wins of the
// player who won its last game. Only games between two registered players
// count (the rating adapter's games).
#ifndef GORANK_SERVICES_RATINGS_PROMOTION_DESK_H_
#define GORANK_SERVICES_RATINGS_PROMOTION_DESK_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "services/auth/caller.h"
#include "services/certificates/certification.h"
#include "services/common/clock.h"
#include "services/ratings/promotion.h"
#include "services/ratings/rating_repository.h"
#include "services/registry/registry_repository.h"
#include "services/tournaments/event_repository.h"

namespace gorank::ratings {

struct EvaluateRequest {
  std::vector<PlayerId> players;      // empty: every rated player in scope
  std::vector<std::string> rule_ids;  // empty: every enabled rule
  std::optional<Date> as_of;          // absent: today (Asia/Shanghai)
};

struct Decision {
  int64_t proposal_id = 0;
  bool approve = false;
  std::string reason;                  // required to reject
  std::optional<Date> effective_date;  // absent: today
};

// Thread-safe (decisions are serialised). Does not own its collaborators.
//
// Errors common to every method: INVALID_ARGUMENT naming the field;
// NOT_FOUND for an unknown player or proposal; PERMISSION_DENIED when an
// operator reaches outside its agency or authority; the repositories' and
// the certificate office's errors. A failed call changes nothing, except
// that a decision on a proposal whose player's rank changed meanwhile
// records the proposal as SUPERSEDED before failing.
class PromotionDesk {
 public:
  PromotionDesk(const PromotionConfig* config, RatingRepository* ratings,
                const tournaments::EventRepository* events,
                registry::RegistryRepository* registry,
                certificates::Certification* certification, const Clock* clock)
      : config_(config),
        ratings_(ratings),
        events_(events),
        registry_(registry),
        certification_(certification),
        clock_(clock) {}

  const PromotionConfig& config() const { return *config_; }

  // Public. FAILED_PRECONDITION when the player holds no Go rank.
  absl::StatusOr<std::vector<RuleVerdict>> Explain(PlayerId player,
                                                   std::optional<Date> as_of);

  // Proposals met now, stored as PENDING (an existing pending proposal for
  // the same player and rule is returned as it is). Players without a rank
  // are skipped when not named; a named one is FAILED_PRECONDITION.
  // INVALID_ARGUMENT for an unknown or disabled rule id.
  absl::StatusOr<std::vector<StoredProposal>> Evaluate(
      const auth::Caller& caller, const EvaluateRequest& request);

  // The proposals `filter` matches (state, player; its paging and agency
  // fields are set here), by id, one page (kProposalPage). An operator sees
  // only its own players' proposals. INVALID_ARGUMENT for a bad page
  // (paging.h).
  absl::StatusOr<Page<StoredProposal>> List(const auth::Caller& caller,
                                            const ProposalFilter& filter,
                                            const PageArgs& page);

  // FAILED_PRECONDITION when the proposal is not PENDING, or the player's
  // rank is no longer the proposal's `from` (then recorded SUPERSEDED).
  absl::StatusOr<StoredProposal> Decide(const auth::Caller& caller,
                                        const Decision& decision);

 private:
  absl::StatusOr<PlayerRecord> RecordOf(const registry::Player& player);
  absl::Status AddEvent(tournaments::EventId id, PlayerRecord& record);
  absl::Status CheckScope(const auth::Caller& caller,
                          const registry::Player& player) const;
  absl::StatusOr<Date> AsOf(std::optional<Date> as_of) const;
  // Applies an approved proposal; returns the certificate number or "".
  absl::StatusOr<std::string> Apply(const auth::Caller& caller,
                                    const StoredProposal& p,
                                    const registry::Player& player,
                                    Date effective);

  const PromotionConfig* config_;
  RatingRepository* ratings_;
  const tournaments::EventRepository* events_;
  registry::RegistryRepository* registry_;
  certificates::Certification* certification_;
  const Clock* clock_;
  std::mutex decide_mu_;
};

}  // namespace gorank::ratings

#endif  // GORANK_SERVICES_RATINGS_PROMOTION_DESK_H_
