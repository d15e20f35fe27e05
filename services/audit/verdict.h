// Verdict: the answer of a verification ("does this proof / signature / log
// check out?"). A failed check is an answer, not an error, so verifiers
// return a Verdict with a reason a person can act on instead of a non-OK
// absl::Status; errors stay reserved for requests that cannot be evaluated.
#ifndef GORANK_SERVICES_AUDIT_VERDICT_H_
#define GORANK_SERVICES_AUDIT_VERDICT_H_

#include <string>
#include <utility>

namespace gorank::audit {

// Value type; thread-compatible.
struct Verdict {
  bool ok = false;
  std::string reason;  // Empty when ok; otherwise why the check failed.

  static Verdict Pass() { return Verdict{true, ""}; }
  static Verdict Fail(std::string why) {
    return Verdict{false, std::move(why)};
  }
};

}  // namespace gorank::audit

#endif  // GORANK_SERVICES_AUDIT_VERDICT_H_
