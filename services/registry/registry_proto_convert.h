// Conversions between the registry's domain types and gorank.v1 messages.
// Request-side conversions validate and return INVALID_ARGUMENT naming the
// field; answer-side conversions cannot fail.
#ifndef GORANK_SERVICES_REGISTRY_REGISTRY_PROTO_CONVERT_H_
#define GORANK_SERVICES_REGISTRY_REGISTRY_PROTO_CONVERT_H_

#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "gorank/v1/registry.pb.h"
#include "services/auth/caller.h"
#include "services/auth/token_repository.h"
#include "services/registry/player.h"
#include "services/registry/player_import.h"

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

// nullopt for an all-zero date.
absl::StatusOr<std::optional<Date>> DateFromProto(const v1::Date& d,
                                                  const std::string& field);
void DateToProto(const Date& d, v1::Date* out);

absl::StatusOr<Gender> GenderFromProto(v1::Gender g);
void PlayerToProto(const Player& p, v1::Player* out);
void AgencyToProto(const Agency& a, v1::Agency* out);
// Field by field; the import parses the text.
PlayerImportRow ImportRowFromProto(const v1::PlayerImportRow& r);
void ImportSummaryToProto(const ImportSummary& s, v1::ImportSummary* out);
void HistoryToProto(const RankHistoryEntry& e, v1::RankHistoryEntry* out);
absl::StatusOr<RankChangeReason> ReasonFromProto(v1::RankChangeReason r);

auth::Role RoleFromProto(v1::Role r);  // kPublic for unknown values
v1::Role RoleToProto(auth::Role r);
void TokenToProto(const auth::TokenRecord& t, v1::TokenInfo* out);

}  // namespace gorank::registry

#endif  // GORANK_SERVICES_REGISTRY_REGISTRY_PROTO_CONVERT_H_
