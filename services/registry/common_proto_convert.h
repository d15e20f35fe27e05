// Conversions between the registry's domain types that common.proto carries
// (Rank, Discipline, Gender) and gorank.v1 messages; every module's handlers
// use them (target registry_convert, not a handler). Request-side
// conversions validate and return INVALID_ARGUMENT naming the field;
// answer-side conversions cannot fail.
#ifndef GORANK_SERVICES_REGISTRY_COMMON_PROTO_CONVERT_H_
#define GORANK_SERVICES_REGISTRY_COMMON_PROTO_CONVERT_H_

#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "gorank/v1/common.pb.h"
#include "services/registry/player.h"
#include "services/registry/rank.h"

namespace gorank::registry {

// INVALID_ARGUMENT for a value outside the enum.
absl::StatusOr<Discipline> DisciplineFromProto(v1::Discipline d);
v1::Discipline DisciplineToProto(Discipline d);

// nullopt for an empty message (ladder unspecified, level 0, no notation).
// The rank must be one of `discipline` (a notation is read on its ladder);
// a rank of the other discipline is INVALID_ARGUMENT naming `field`.
absl::StatusOr<std::optional<Rank>> RankFromProto(
    const v1::Rank& r, const std::string& field,
    Discipline discipline = Discipline::kGo);
void RankToProto(const Rank& r, v1::Rank* out);

absl::StatusOr<Gender> GenderFromProto(v1::Gender g);

}  // namespace gorank::registry

#endif  // GORANK_SERVICES_REGISTRY_COMMON_PROTO_CONVERT_H_
