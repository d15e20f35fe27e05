// Resident identity numbers (GB 11643-1999): 17 digits (6-digit address
// code, 8-digit birth date, 3-digit sequence) and a check character 0-9 or X
// computed with ISO 7064 MOD 11-2.
#ifndef GORANK_SERVICES_REGISTRY_RESIDENT_ID_H_
#define GORANK_SERVICES_REGISTRY_RESIDENT_ID_H_

#include <string>

#include "absl/status/statusor.h"
#include "services/common/date.h"

namespace gorank::registry {

// The check character ('0'..'9' or 'X') for the first 17 digits.
// REQUIRES: `first17` is 17 ASCII digits.
char ResidentIdCheckChar(const std::string& first17);

// The normalised number (trimmed, lowercase x upper-cased) when `id` is 18
// characters with a valid birth date and a matching check character.
// INVALID_ARGUMENT otherwise, saying which part is wrong (never echoing the
// number, which is sensitive).
absl::StatusOr<std::string> NormalizeResidentId(const std::string& id);

// The birth date encoded in a normalised number.
Date ResidentIdBirthDate(const std::string& normalized_id);

}  // namespace gorank::registry

#endif  // GORANK_SERVICES_REGISTRY_RESIDENT_ID_H_
