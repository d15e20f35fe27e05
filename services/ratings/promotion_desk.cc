#include "services/ratings/promotion_desk.h"

#include <algorithm>
#include <utility>

#include "services/certificates/certificate_rules.h"
#include "services/common/status_macros.h"
#include "services/ratings/event_games.h"
#include "services/tournaments/standings.h"

namespace gorank::ratings {
namespace {

std::string Id(int64_t v) { return std::to_string(v); }

// The date the current rank was obtained: the latest history entry that
// set it.
std::optional<Date> LastPromotion(
    const std::vector<registry::RankHistoryEntry>& history,
    const registry::Rank& rank) {
  for (auto it = history.rbegin(); it != history.rend(); ++it) {
    if (it->to_rank == rank) return it->effective_date;
  }
  return std::nullopt;
}

// Adds the player's played games of one event to `result`.
void CountGames(const std::vector<RatedGame>& games, PlayerId player,
                EventResult& result) {
  for (const RatedGame& g : games) {
    if (g.black != player && g.white != player) continue;
    if (g.forfeit || g.bye || g.result == GameResult::kNoResult) continue;
    ++result.games;
    if (g.result == GameResult::kJigo) {
      ++result.draws;
    } else if ((g.result == GameResult::kBlackWin) == (g.black == player)) {
      ++result.wins;
    }
  }
}

// A relay's final streak for `player`: the wins of the player who won the
// event's last game (a relay player plays on until beaten, so their wins
// are consecutive), when that is `player`; 0 otherwise.
int FinalStreak(const tournaments::EventResults& results, PlayerId player) {
  const tournaments::Game* last = nullptr;
  for (const tournaments::Game& g : results.games) {
    if (g.kind != tournaments::GameKind::kRegular) continue;
    if (last == nullptr || g.round > last->round) last = &g;
  }
  if (last == nullptr) return 0;
  const bool black_won = tournaments::GamePoints(*last, true) == 2;
  const bool white_won = tournaments::GamePoints(*last, false) == 2;
  if (!black_won && !white_won) return 0;
  const tournaments::EntrantId winner = black_won ? last->black : last->white;
  for (const tournaments::Entrant& e : results.entrants) {
    if (e.id == winner && e.player_id != player) return 0;
  }
  int wins = 0;
  for (const tournaments::Game& g : results.games) {
    if (g.kind != tournaments::GameKind::kRegular) continue;
    if (g.black == winner && tournaments::GamePoints(g, true) == 2) ++wins;
    if (g.white == winner && tournaments::GamePoints(g, false) == 2) ++wins;
  }
  return wins;
}

}  // namespace

absl::StatusOr<Date> PromotionDesk::AsOf(std::optional<Date> as_of) const {
  if (!as_of.has_value()) return clock_->Today();
  if (!as_of->IsValid()) {
    return absl::InvalidArgumentError("as_of is not a calendar date");
  }
  return *as_of;
}

absl::Status PromotionDesk::CheckScope(const auth::Caller& caller,
                                       const registry::Player& player) const {
  if (caller.IsNational() || caller.ActsFor(player.agency_prefix)) {
    return absl::OkStatus();
  }
  return absl::PermissionDeniedError(
      "player " + Id(player.id.value) + " belongs to agency " +
      player.agency_prefix + "; an agency acts only for its own players");
}

absl::Status PromotionDesk::AddEvent(tournaments::EventId id,
                                     PlayerRecord& record) {
  GORANK_ASSIGN_OR_RETURN(tournaments::Event event, events_->GetEvent(id));
  if (!event.closed) return absl::OkStatus();  // results not final
  GORANK_ASSIGN_OR_RETURN(tournaments::EventResults results,
                          events_->GetResults(id));
  GORANK_ASSIGN_OR_RETURN(std::vector<RatedGame> games,
                          EventGames(event, results, id.value));
  EventResult result;
  result.event_id = Id(id.value);
  result.date = event.end.IsValid() ? event.end : event.start;
  result.category = event.competition;
  result.group = event.group;
  if (auto group = registry::Rank::Parse(event.group); group.ok()) {
    result.group_target_rank = *group;
  }
  if (event.format.kind == tournaments::FormatKind::kRelay) {
    result.final_streak = FinalStreak(results, record.player);
  }
  CountGames(games, record.player, result);
  absl::StatusOr<tournaments::Standings> standings =
      tournaments::ComputeStandings(event, results);
  if (standings.ok() && !standings->teams) {
    for (const tournaments::Entrant& e : results.entrants) {
      if (e.player_id != record.player) continue;
      for (const tournaments::StandingRow& row : standings->rows) {
        // A place still awaiting a play-off or lots is nobody's yet.
        if (row.id == e.id.value &&
            row.state != tournaments::PlaceState::kPendingPlayoff) {
          result.placement = row.place;
        }
      }
    }
  }
  for (RatedGame& g : games) {
    if (g.black == record.player || g.white == record.player) {
      record.games.push_back(std::move(g));
    }
  }
  record.results.push_back(std::move(result));
  return absl::OkStatus();
}

absl::StatusOr<PlayerRecord> PromotionDesk::RecordOf(
    const registry::Player& player) {
  if (!player.rank.has_value()) {
    return absl::FailedPreconditionError(
        "player " + Id(player.id.value) +
        " holds no Go rank; promotion rules start from a rank");
  }
  PlayerRecord record;
  record.player = PlayerId{player.id.value};
  record.rank = *player.rank;
  GORANK_ASSIGN_OR_RETURN(auto history, registry_->ListRankHistory(player.id));
  record.last_promotion = LastPromotion(history, *player.rank);
  GORANK_ASSIGN_OR_RETURN(record.rating_history,
                          ratings_->History(record.player));
  GORANK_ASSIGN_OR_RETURN(std::vector<tournaments::EventId> events,
                          events_->EventsOfPlayer(player.id));
  for (tournaments::EventId id : events) {
    GORANK_RETURN_IF_ERROR(AddEvent(id, record));
  }
  return record;
}

absl::StatusOr<std::vector<RuleVerdict>> PromotionDesk::Explain(
    PlayerId player, std::optional<Date> as_of) {
  if (player.value <= 0) {
    return absl::InvalidArgumentError(
        "player_id must be a positive registry id");
  }
  GORANK_ASSIGN_OR_RETURN(Date day, AsOf(as_of));
  GORANK_ASSIGN_OR_RETURN(registry::Player p, registry_->GetPlayer(player));
  GORANK_ASSIGN_OR_RETURN(PlayerRecord record, RecordOf(p));
  return ExplainPlayer(*config_, record, day);
}

absl::StatusOr<std::vector<StoredProposal>> PromotionDesk::Evaluate(
    const auth::Caller& caller, const EvaluateRequest& request) {
  GORANK_ASSIGN_OR_RETURN(Date day, AsOf(request.as_of));
  PromotionConfig rules;
  for (const std::string& id : request.rule_ids) {
    const PromotionRule* rule = config_->Find(id);
    if (rule == nullptr) {
      return absl::InvalidArgumentError("no promotion rule with id '" + id +
                                        "' (see ListPromotionRules)");
    }
    if (!rule->enabled) {
      return absl::InvalidArgumentError("promotion rule '" + id +
                                        "' is disabled in the rules in force");
    }
    rules.rules.push_back(*rule);
  }
  const PromotionConfig& in_force = request.rule_ids.empty() ? *config_ : rules;

  const bool named = !request.players.empty();
  std::vector<PlayerId> ids = request.players;
  if (!named) {
    GORANK_ASSIGN_OR_RETURN(ids, ratings_->RatedPlayers());
  }
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  std::vector<PlayerRecord> records;
  for (PlayerId id : ids) {
    if (id.value <= 0) {
      return absl::InvalidArgumentError("player_ids must be positive, got " +
                                        Id(id.value));
    }
    GORANK_ASSIGN_OR_RETURN(registry::Player p, registry_->GetPlayer(id));
    absl::Status scope = CheckScope(caller, p);
    if (!scope.ok()) {
      if (named) return scope;
      continue;  // another agency's player: not in this caller's scope
    }
    if (!p.rank.has_value() && !named) continue;
    GORANK_ASSIGN_OR_RETURN(PlayerRecord record, RecordOf(p));
    records.push_back(std::move(record));
  }
  GORANK_ASSIGN_OR_RETURN(std::vector<Proposal> met,
                          EvaluatePromotions(in_force, records, day));
  std::vector<StoredProposal> out;
  const int64_t now = clock_->NowSeconds();
  for (Proposal& p : met) {
    StoredProposal stored;
    stored.proposal = std::move(p);
    stored.as_of = day;
    stored.created_unix = now;
    ChangeRecord change{now,
                        caller.Describe(),
                        "promotion.propose",
                        "proposal",
                        "",
                        "{\"player\":" + Id(stored.proposal.player.value) +
                            ",\"rule\":\"" + stored.proposal.rule_id +
                            "\",\"to\":\"" + stored.proposal.to.ToString() +
                            "\"}"};
    GORANK_ASSIGN_OR_RETURN(StoredProposal saved,
                            ratings_->AddProposal(stored, change));
    out.push_back(std::move(saved));
  }
  return out;
}

absl::StatusOr<Page<StoredProposal>> PromotionDesk::List(
    const auth::Caller& caller, const ProposalFilter& filter,
    const PageArgs& page) {
  ProposalFilter scoped = filter;
  if (!caller.IsNational() && !caller.IsAuditor()) {
    if (caller.agency_prefix.empty()) {
      return absl::PermissionDeniedError(
          "proposals are read by the national "
          "admin, auditors and agencies");
    }
    scoped.agency_prefix = caller.agency_prefix;
  }
  // The agency is part of the query: an operator's token does not page
  // another agency's list.
  const PageQuery query =
      PageQuery("ListProposals")
          .With("state", scoped.state ? static_cast<int64_t>(*scoped.state) : 0)
          .With("player", scoped.player ? scoped.player->value : 0)
          .With("agency_prefix", scoped.agency_prefix);
  GORANK_ASSIGN_OR_RETURN(PageRequest request,
                          ReadPage(kProposalPage, query, "i", page));
  scoped.after_id = request.after ? request.after->Int(0) : 0;
  scoped.limit = request.FetchLimit();
  GORANK_ASSIGN_OR_RETURN(std::vector<StoredProposal> found,
                          ratings_->ListProposals(scoped));
  return CutPage(std::move(found), request, query,
                 [](const StoredProposal& p) { return PageKey().Add(p.id); });
}

absl::StatusOr<std::string> PromotionDesk::Apply(const auth::Caller& caller,
                                                 const StoredProposal& p,
                                                 const registry::Player& player,
                                                 Date effective) {
  const registry::Rank& to = p.proposal.to;
  const std::string basis =
      "promotion proposal " + Id(p.id) + " (rule " + p.proposal.rule_id + ")";
  if (certificates::IsCertifiableGrade(to)) {
    certificates::IssueRequest issue;
    issue.request_id = "promotion-" + Id(p.id);
    issue.player_id = player.id;
    issue.grade = to;
    issue.issue_date = effective;
    const PromotionRule* rule = config_->Find(p.proposal.rule_id);
    issue.basis =
        rule != nullptr && rule->KindName() == std::string("amateur_rating")
            ? certificates::Basis::kRatingPromotion
            : certificates::Basis::kTournament;
    issue.basis_reference = basis;
    GORANK_ASSIGN_OR_RETURN(certificates::Certificate cert,
                            certification_->Issue(caller, issue));
    return cert.number.ToString();
  }
  if (to.IsPro() && !caller.IsNational()) {
    return absl::PermissionDeniedError(
        "professional ranks are granted by the national body; " +
        to.ToString() + " needs the national admin");
  }
  const int64_t now = clock_->NowSeconds();
  registry::RankHistoryEntry entry;
  entry.player_id = player.id;
  entry.from_rank = player.rank;
  entry.to_rank = to;
  entry.effective_date = effective;
  entry.reason = registry::RankChangeReason::kPromotion;
  entry.basis = basis;
  entry.actor = caller.Describe();
  entry.recorded_unix = now;
  ChangeRecord change{now,
                      caller.Describe(),
                      "player.rank_change",
                      "player:" + Id(player.id.value),
                      "{\"rank\":\"" + p.proposal.from.ToString() + "\"}",
                      "{\"rank\":\"" + to.ToString() + "\",\"reason\":" +
                          "\"PROMOTION\",\"proposal\":" + Id(p.id) + "}"};
  GORANK_RETURN_IF_ERROR(registry_->ApplyRankChange(entry, change).status());
  return std::string();
}

absl::StatusOr<StoredProposal> PromotionDesk::Decide(const auth::Caller& caller,
                                                     const Decision& decision) {
  if (decision.proposal_id <= 0) {
    return absl::InvalidArgumentError("proposal_id must be positive");
  }
  if (!decision.approve && decision.reason.empty()) {
    return absl::InvalidArgumentError("a rejection needs a reason");
  }
  GORANK_ASSIGN_OR_RETURN(Date effective, AsOf(decision.effective_date));
  if (effective > clock_->Today()) {
    return absl::InvalidArgumentError(
        "effective_date must not be in the future");
  }
  std::lock_guard<std::mutex> lock(decide_mu_);
  GORANK_ASSIGN_OR_RETURN(StoredProposal p,
                          ratings_->GetProposal(decision.proposal_id));
  GORANK_ASSIGN_OR_RETURN(registry::Player player,
                          registry_->GetPlayer(p.proposal.player));
  GORANK_RETURN_IF_ERROR(CheckScope(caller, player));
  if (p.state != ProposalState::kPending) {
    return absl::FailedPreconditionError(
        "proposal " + Id(p.id) + " is " + ProposalStateName(p.state) +
        ", not PENDING; only a pending proposal can be decided");
  }
  const int64_t now = clock_->NowSeconds();
  StoredProposal decided = p;
  decided.decided_by = caller.Describe();
  decided.decided_unix = now;
  ChangeRecord change{now,
                      caller.Describe(),
                      "promotion.decide",
                      "proposal:" + Id(p.id),
                      "{\"state\":\"PENDING\"}",
                      ""};
  if (player.rank != p.proposal.from) {
    const std::string now_rank =
        player.rank ? player.rank->ToString() : std::string("no rank");
    decided.state = ProposalState::kSuperseded;
    decided.decision_reason = "the player's rank changed from " +
                              p.proposal.from.ToString() + " to " + now_rank +
                              " after the proposal was made";
    change.after = "{\"state\":\"SUPERSEDED\"}";
    GORANK_RETURN_IF_ERROR(ratings_->DecideProposal(decided, change));
    return absl::FailedPreconditionError(
        "proposal " + Id(p.id) + " is superseded: " + decided.decision_reason +
        "; evaluate again");
  }
  decided.decision_reason = decision.reason;
  if (decision.approve) {
    GORANK_ASSIGN_OR_RETURN(decided.certificate_number,
                            Apply(caller, p, player, effective));
    decided.state = ProposalState::kApproved;
  } else {
    decided.state = ProposalState::kRejected;
  }
  change.after = std::string("{\"state\":\"") +
                 ProposalStateName(decided.state) + "\",\"certificate\":\"" +
                 decided.certificate_number + "\"}";
  GORANK_RETURN_IF_ERROR(ratings_->DecideProposal(decided, change));
  return decided;
}

}  // namespace gorank::ratings
