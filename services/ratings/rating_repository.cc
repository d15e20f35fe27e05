#include "services/ratings/rating_repository.h"

namespace gorank::ratings {

const char* ProposalStateName(ProposalState state) {
  switch (state) {
    case ProposalState::kPending:
      return "PENDING";
    case ProposalState::kApproved:
      return "APPROVED";
    case ProposalState::kRejected:
      return "REJECTED";
    case ProposalState::kSuperseded:
      return "SUPERSEDED";
  }
  return "UNKNOWN";
}

}  // namespace gorank::ratings
