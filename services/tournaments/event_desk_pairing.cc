// EventDesk::PairRound (event_desk.h): the desk's side of pairing - the
// refusals that need the stored event, the call to the pairing engine
// (pairing.h) and the storage of the round with its audit entry. Its own
// target (pairing_desk) because the engine (pairing_domain) builds on
// tournaments_domain.
#include <algorithm>
#include <string>

#include "nlohmann/json.hpp"
#include "services/common/status_macros.h"
#include "services/tournaments/event_desk.h"
#include "services/tournaments/event_json.h"

namespace gorank::tournaments {
namespace {

std::string N(int n) { return std::to_string(n); }

// The games and byes of `round` that a pairing stores.
void StoreRound(const Event& event, const RoundPairing& pairing,
                EventResults& results) {
  const int round = pairing.round;
  std::erase_if(results.games, [round](const Game& g) {
    return g.kind == GameKind::kRegular && g.round == round;
  });
  std::erase_if(results.byes,
                [round](const Bye& b) { return b.round == round; });
  for (const PairedBoard& b : pairing.boards) {
    Game g;
    g.round = round;
    g.board = b.board;
    g.black = b.black;
    g.white = b.white;
    g.colours_known = true;
    g.outcome = Outcome::kUnknown;
    g.handicap = b.handicap;
    if (b.komi_x2 != event.rules.komi_x2 || b.handicap > 0) {
      g.komi_x2 = b.komi_x2;
    }
    results.games.push_back(g);
  }
  for (Bye b : pairing.byes) {
    b.round = round;
    results.byes.push_back(b);
  }
}

// The audit entry's after: the results, plus what the pairing decided.
std::string AuditAfter(const EventResults& after, const RoundPairing& p) {
  nlohmann::json j = nlohmann::json::parse(ResultsToJson(after));
  j["pairing"] = {{"round", p.round},
                  {"seed", p.seed},
                  {"boards", p.boards.size()},
                  {"byes", p.byes.size()},
                  {"decisions", p.decisions}};
  return j.dump();
}

}  // namespace

absl::StatusOr<PairedRound> EventDesk::PairRound(
    const auth::Caller& caller, EventId id, int round,
    const PairingAdjustments& adjustments, bool dry_run) {
  std::lock_guard<std::mutex> lock(results_mu_);
  GORANK_ASSIGN_OR_RETURN(Event event, Writable(caller, id));
  const std::string what = "event " + std::to_string(id.value);
  if (event.format.kind != FormatKind::kSwiss) {
    return absl::FailedPreconditionError(
        what + " is a " + FormatKindCode(event.format.kind) +
        ": only an individual Swiss (or McMahon) event is paired by rankd");
  }
  if (round < 1 || round > event.format.rounds) {
    return absl::InvalidArgumentError(
        "round must be 1.." + N(event.format.rounds) + " (" + what +
        " is a Swiss of " + N(event.format.rounds) + " rounds)");
  }
  GORANK_ASSIGN_OR_RETURN(EventResults before, repo_->GetResults(id));
  std::string with_result, unknown_earlier;
  int later = 0;
  for (const Game& g : before.games) {
    if (g.kind != GameKind::kRegular) continue;
    const std::string pair = N(g.black.value) + "-" + N(g.white.value);
    if (g.round == round && g.outcome != Outcome::kUnknown) {
      with_result += (with_result.empty() ? "" : ", ") + pair;
    } else if (g.round < round && g.outcome == Outcome::kUnknown) {
      unknown_earlier += (unknown_earlier.empty() ? "" : ", ") + pair +
                         " (round " + N(g.round) + ")";
    } else if (g.round > round) {
      later = std::max(later, g.round);
    }
  }
  for (const Bye& b : before.byes) {
    if (b.round > round) later = std::max(later, b.round);
  }
  if (!with_result.empty()) {
    return absl::FailedPreconditionError(
        "round " + N(round) + " of " + what + " already has results (" +
        with_result +
        "): a round with results cannot be re-paired; correct its games "
        "with EditResults (rankctl event result) instead");
  }
  if (later > 0) {
    return absl::FailedPreconditionError(
        "round " + N(later) + " of " + what +
        " is already paired: pair the rounds in order (re-pair round " +
        N(later) + " first, or record its results)");
  }
  if (!unknown_earlier.empty()) {
    return absl::FailedPreconditionError(
        "round " + N(round) + " of " + what +
        " cannot be paired yet: earlier games have no result: " +
        unknown_earlier);
  }
  GORANK_ASSIGN_OR_RETURN(
      RoundPairing pairing,
      tournaments::PairRound(event, before, round, adjustments));
  pairing.round = round;
  pairing.seed = event.pairing.seed;
  if (dry_run) return PairedRound{std::move(pairing), false};
  EventResults after = before;
  StoreRound(event, pairing, after);
  const std::string audit_after = AuditAfter(after, pairing);
  GORANK_RETURN_IF_ERROR(
      Store(caller, event, before, after, "results.pair_round", &audit_after)
          .status());
  return PairedRound{std::move(pairing), true};
}

}  // namespace gorank::tournaments
