#include "services/ratings/rating_repository.h"

#include <bit>

#include "services/common/status_macros.h"

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

absl::StatusOr<Page<PlayerRating>> ListRatingPage(const RatingRepository& repo,
                                                  bool pro_list,
                                                  const PageArgs& page) {
  const PageQuery query =
      PageQuery("ListRatings").With("pro_list", pro_list ? 1 : 0);
  // The key: the rating's bits (exact) and the player.
  GORANK_ASSIGN_OR_RETURN(PageRequest request,
                          ReadPage(kRatingPage, query, "ii", page));
  std::optional<RatingListPosition> after;
  if (request.after) {
    after = RatingListPosition{std::bit_cast<double>(request.after->Int(0)),
                               PlayerId{request.after->Int(1)}};
  }
  GORANK_ASSIGN_OR_RETURN(
      std::vector<PlayerRating> found,
      repo.ListRatingsAfter(pro_list, after, request.FetchLimit()));
  return CutPage(
      std::move(found), request, query, [pro_list](const PlayerRating& r) {
        const double rating = pro_list ? r.pro_elo.value_or(0) : r.gor;
        return PageKey()
            .Add(std::bit_cast<int64_t>(rating))
            .Add(r.player.value);
      });
}

}  // namespace gorank::ratings
