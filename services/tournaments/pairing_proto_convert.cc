#include "services/tournaments/pairing_proto_convert.h"

#include <string>

#include "services/common/status_macros.h"
#include "services/registry/common_proto_convert.h"

namespace gorank::tournaments {

absl::StatusOr<PairingSettings> PairingSettingsFromProto(
    const v1::PairingSettings& p) {
  PairingSettings out;
  switch (p.system()) {
    case v1::PAIRING_SYSTEM_UNSPECIFIED:
    case v1::PAIRING_SYSTEM_SWISS:
      out.system = PairingSystem::kSwiss;
      break;
    case v1::PAIRING_SYSTEM_MCMAHON:
      out.system = PairingSystem::kMcMahon;
      break;
    default:
      return absl::InvalidArgumentError(
          "event.pairing.system: unknown value " +
          std::to_string(static_cast<int>(p.system())));
  }
  GORANK_ASSIGN_OR_RETURN(
      out.mcmahon_bar,
      registry::RankFromProto(p.mcmahon_bar(), "event.pairing.mcmahon_bar"));
  GORANK_ASSIGN_OR_RETURN(
      out.mcmahon_floor, registry::RankFromProto(
                             p.mcmahon_floor(), "event.pairing.mcmahon_floor"));
  if (out.mcmahon_bar && out.mcmahon_floor &&
      *out.mcmahon_bar < *out.mcmahon_floor) {
    return absl::InvalidArgumentError(
        "event.pairing: the McMahon floor " + out.mcmahon_floor->ToString() +
        " is above the bar " + out.mcmahon_bar->ToString());
  }
  if (p.same_club_rounds() < 0) {
    return absl::InvalidArgumentError(
        "event.pairing.same_club_rounds must be 0 or more");
  }
  out.same_club_rounds = p.same_club_rounds();
  if (p.max_handicap() < 0 || p.max_handicap() > 9) {
    return absl::InvalidArgumentError(
        "event.pairing.max_handicap must be 0..9 stones (0: 9)");
  }
  out.max_handicap = p.max_handicap() == 0 ? 9 : p.max_handicap();
  out.first_round_by_lot = p.first_round_by_lot();
  out.seed = p.seed();
  return out;
}

void PairingSettingsToProto(const PairingSettings& s,
                            v1::PairingSettings* out) {
  out->set_system(s.system == PairingSystem::kMcMahon
                      ? v1::PAIRING_SYSTEM_MCMAHON
                      : v1::PAIRING_SYSTEM_SWISS);
  if (s.mcmahon_bar)
    registry::RankToProto(*s.mcmahon_bar, out->mutable_mcmahon_bar());
  if (s.mcmahon_floor)
    registry::RankToProto(*s.mcmahon_floor, out->mutable_mcmahon_floor());
  out->set_same_club_rounds(s.same_club_rounds);
  out->set_max_handicap(s.max_handicap);
  out->set_first_round_by_lot(s.first_round_by_lot);
  out->set_seed(s.seed);
}

PairingAdjustments AdjustmentsFromProto(const v1::PairRoundRequest& req) {
  PairingAdjustments out;
  for (const v1::ForcedPair& p : req.forced_pairs()) {
    out.forced_pairs.emplace_back(EntrantId{p.first_entrant_id()},
                                  EntrantId{p.second_entrant_id()});
  }
  for (int32_t id : req.byes()) out.byes.push_back(EntrantId{id});
  for (int32_t id : req.absent()) out.absent.push_back(EntrantId{id});
  for (int32_t b : req.swap_boards()) out.swap_boards.push_back(b);
  return out;
}

void PairingToProto(const RoundPairing& p, v1::Pairing* out) {
  out->set_round(p.round);
  out->set_seed(p.seed);
  for (const PairedBoard& b : p.boards) {
    v1::PairedBoard* o = out->add_boards();
    o->set_board(b.board);
    o->set_white_entrant_id(b.white.value);
    o->set_black_entrant_id(b.black.value);
    o->set_handicap(b.handicap);
    o->set_komi_x2(b.komi_x2);
  }
  for (const Bye& b : p.byes) {
    v1::Bye* o = out->add_byes();
    o->set_round(b.round);
    o->set_entrant_id(b.entrant.value);
    if (b.team) o->set_team_id(b.team->value);
    o->set_points(b.points);
  }
  for (const std::string& d : p.decisions) out->add_decisions(d);
}

}  // namespace gorank::tournaments
