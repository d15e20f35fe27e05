// ChangeRecord: the domain's description of one state change, handed to a
// repository together with the change itself so that storage appends it to
// the audit log in the same transaction (DESIGN: "every state change appends
// to the audit log in the same transaction").
#ifndef GORANK_SERVICES_COMMON_CHANGE_H_
#define GORANK_SERVICES_COMMON_CHANGE_H_

#include <cstdint>
#include <string>

namespace gorank {

struct ChangeRecord {
  int64_t time_unix = 0;
  std::string actor;    // Caller::Describe(), e.g. "agency:110/token:7"
  std::string action;   // e.g. "player.register", "agency.suspend"
  std::string subject;  // e.g. "player:42", "agency:110"
  std::string before;   // JSON text of the state before ("" when none)
  std::string after;    // JSON text of the state after ("" when none)
};

}  // namespace gorank

#endif  // GORANK_SERVICES_COMMON_CHANGE_H_
