// Pairing the next round of a Swiss event (积分编排制) or a McMahon event
// (EGF): who plays whom, with which colour, handicap and komi, and who has
// the bye. Pure domain: no storage, no gRPC. The pairing is a maximum-weight
// matching over every candidate pair, its weights ordering the criteria
// strictly (no rematch first, then the score groups, colours, same-club
// avoidance, then the order inside a group); ties are broken from the
// event's seed, so the same input and seed give the same pairing.
#ifndef GORANK_SERVICES_TOURNAMENTS_PAIRING_H_
#define GORANK_SERVICES_TOURNAMENTS_PAIRING_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "services/tournaments/event.h"
#include "services/tournaments/results.h"

namespace gorank::tournaments {

// The director's adjustments of one round, applied before the pairing is
// made (forced pairs, byes, absentees) or after it (colour swaps).
struct PairingAdjustments {
  // Each pair plays this round; colours and handicap by the rules.
  std::vector<std::pair<EntrantId, EntrantId>> forced_pairs;
  std::vector<EntrantId> byes;    // given the bye (2 points)
  std::vector<EntrantId> absent;  // not paired: a 0-point bye
  std::vector<int> swap_boards;   // boards whose colours are swapped
};

struct PairedBoard {
  int board = 0;  // 1-based, strongest pairing first
  EntrantId white;
  EntrantId black;
  int handicap = 0;  // stones; 0 = even
  int komi_x2 = 0;   // half points
};

struct RoundPairing {
  int round = 0;
  uint64_t seed = 0;
  std::vector<PairedBoard> boards;
  std::vector<Bye> byes;  // the bye (2 points) and absentees (0)
  // Why, one line each: floats between score groups, colour choices, the
  // bye, the adjustments ("board 3: colours swapped by the director").
  std::vector<std::string> decisions;
};

// Pairs `round` of `event` from `results` (its entrants and the games and
// byes of rounds 1..round-1; games and byes of later rounds, and of `round`
// itself, are ignored). Withdrawn entrants (withdrawn_after_round < round)
// are not paired.
//
// Rules (pairing.cc has the weights):
//  - The pairing score is the points (2 a win, 1 a jigo, a bye its points),
//    or for McMahon the McMahon score: the start clamp(rank, floor, bar),
//    30k = 0 .. 1d = 30 as OpenGotha counts it (no rank counts as 30k),
//    plus one a win. Players are placed by score, then rank, then a lot
//    drawn from the seed; round 1 by lot when first_round_by_lot or when no
//    entrant has a rank.
//  - Opponents met are those of games played over the board: a forfeit is
//    no meeting (the two may be paired again) and gives no colour.
//  - The criteria in strict order: everyone paired; the bye (2 points) to
//    the lowest-placed player without one (a second bye only when nobody
//    else leaves a complete pairing); colour limits (nobody more than 2
//    colours ahead, no third game of one colour in a row, counted over even
//    games played over the board); floats between score groups, fewest and
//    smallest (sum of squared group distances), then as low in the table
//    as possible; same club (else same country) in rounds
//    1..same_club_rounds; colour preferences; split and slip inside a group
//    (top half against bottom half), a float playing from the bottom of
//    its group to the top of the other; the seed.
//  - Handicap when Rules::handicap_policy is kRankDifference: rank
//    difference - handicap_reduction, at most max_handicap; the weaker
//    takes black and komi is 0.5 (komi_x2 1). Even games get
//    Rules::komi_x2 and colours by the criteria above, else by lot.
//  - Boards are numbered from the best-placed pair; forced pairs are among
//    them.
//
// FAILED_PRECONDITION when the event is not Swiss, when round is outside
// 1..Format::rounds, when an earlier round has a game with an unknown
// outcome or an entrant neither paired nor given a bye, or when no pairing
// without a rematch exists. INVALID_ARGUMENT when an adjustment names an
// unknown or withdrawn entrant, names one entrant twice, forces a rematch,
// gives a second bye, or swaps a board that does not exist or one board
// twice. RESOURCE_EXHAUSTED beyond about 3,000 entrants to pair in one
// round (the tiers no longer fit 128-bit weights).
// Thread-safe.
absl::StatusOr<RoundPairing> PairRound(const Event& event,
                                       const EventResults& results, int round,
                                       const PairingAdjustments& adjustments);

}  // namespace gorank::tournaments

#endif  // GORANK_SERVICES_TOURNAMENTS_PAIRING_H_
