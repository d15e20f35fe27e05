// Conversions between the registry's domain types and gorank.v1 messages
// (the common.proto ones, Rank, Discipline, Gender and Date, are in
// common_proto_convert.h of services/registry and services/common).
// Request-side conversions validate and return INVALID_ARGUMENT naming the
// field; answer-side conversions cannot fail.
#ifndef GORANK_SERVICES_REGISTRY_REGISTRY_PROTO_CONVERT_H_
#define GORANK_SERVICES_REGISTRY_REGISTRY_PROTO_CONVERT_H_

#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "gorank/v1/registry.pb.h"
#include "services/common/common_proto_convert.h"
#include "services/registry/common_proto_convert.h"
#include "services/registry/player.h"
#include "services/registry/player_import.h"

namespace gorank::registry {

void PlayerToProto(const Player& p, v1::Player* out);
void AgencyToProto(const Agency& a, v1::Agency* out);
// Field by field; the import parses the text.
PlayerImportRow ImportRowFromProto(const v1::PlayerImportRow& r);
void ImportSummaryToProto(const ImportSummary& s, v1::ImportSummary* out);
void HistoryToProto(const RankHistoryEntry& e, v1::RankHistoryEntry* out);
absl::StatusOr<RankChangeReason> ReasonFromProto(v1::RankChangeReason r);

}  // namespace gorank::registry

#endif  // GORANK_SERVICES_REGISTRY_REGISTRY_PROTO_CONVERT_H_
