// Conversions between the pairing's domain types (event.h PairingSettings,
// pairing.h adjustments and RoundPairing) and gorank.v1 messages
// (tournaments.proto PairingSettings, PairRoundRequest, Pairing). Part of
// tournaments_convert. Request-side conversions validate and return
// INVALID_ARGUMENT naming the field; answer-side conversions cannot fail.
#ifndef GORANK_SERVICES_TOURNAMENTS_PAIRING_PROTO_CONVERT_H_
#define GORANK_SERVICES_TOURNAMENTS_PAIRING_PROTO_CONVERT_H_

#include "absl/status/statusor.h"
#include "gorank/v1/tournaments.pb.h"
#include "services/tournaments/event.h"
#include "services/tournaments/pairing.h"

namespace gorank::tournaments {

// UNSPECIFIED system = Swiss; max_handicap 0 = 9. INVALID_ARGUMENT for an
// unknown system, same_club_rounds < 0, max_handicap outside 0..9, a bar or
// floor that is not a Go rank, or a floor above the bar.
absl::StatusOr<PairingSettings> PairingSettingsFromProto(
    const v1::PairingSettings& p);
void PairingSettingsToProto(const PairingSettings& s, v1::PairingSettings* out);

// The request's adjustments (the desk and PairRound check the ids).
PairingAdjustments AdjustmentsFromProto(const v1::PairRoundRequest& req);
void PairingToProto(const RoundPairing& p, v1::Pairing* out);

}  // namespace gorank::tournaments

#endif  // GORANK_SERVICES_TOURNAMENTS_PAIRING_PROTO_CONVERT_H_
