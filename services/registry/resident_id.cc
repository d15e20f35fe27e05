#include "services/registry/resident_id.h"

#include "absl/status/status.h"

namespace gorank::registry {

char ResidentIdCheckChar(const std::string& first17) {
  static constexpr int kWeights[17] = {7, 9, 10, 5,  8, 4, 2, 1, 6,
                                       3, 7, 9,  10, 5, 8, 4, 2};
  static constexpr char kCheck[] = "10X98765432";
  int sum = 0;
  for (int i = 0; i < 17; ++i) sum += (first17[i] - '0') * kWeights[i];
  return kCheck[sum % 11];
}

absl::StatusOr<std::string> NormalizeResidentId(const std::string& id) {
  std::string s;
  for (char c : id) {
    if (c != ' ') s.push_back(c == 'x' ? 'X' : c);
  }
  if (s.size() != 18) {
    return absl::InvalidArgumentError(
        "resident ID must have 18 characters, got " + std::to_string(s.size()));
  }
  for (int i = 0; i < 17; ++i) {
    if (s[i] < '0' || s[i] > '9') {
      return absl::InvalidArgumentError(
          "resident ID: the first 17 characters must be digits");
    }
  }
  if (!ResidentIdBirthDate(s).IsValid()) {
    return absl::InvalidArgumentError(
        "resident ID: characters 7-14 are not a valid birth date");
  }
  if (s[17] != ResidentIdCheckChar(s.substr(0, 17))) {
    return absl::InvalidArgumentError(
        "resident ID: check character does not match (mistyped digit?)");
  }
  return s;
}

Date ResidentIdBirthDate(const std::string& s) {
  auto num = [&](int pos, int len) {
    int v = 0;
    for (int i = pos; i < pos + len; ++i) v = v * 10 + (s[i] - '0');
    return v;
  };
  return Date{num(6, 4), num(10, 2), num(12, 2)};
}

}  // namespace gorank::registry
