// gRPC handlers of ratings.proto (RatingService): convert the request, one
// call to the stored ratings (RatingRepository), the RatingLedger
// (recompute) or the PromotionDesk (rules, explain, evaluate, proposals,
// decisions), convert back. Who may call what is the access table's
// (services/auth/access_policy.cc); which players an operator may act for
// is the PromotionDesk's.
#ifndef GORANK_SERVICES_RATINGS_RATING_SERVICE_H_
#define GORANK_SERVICES_RATINGS_RATING_SERVICE_H_

#include "gorank/v1/ratings.grpc.pb.h"
#include "services/auth/call_gate.h"
#include "services/common/rpc_method.h"
#include "services/ratings/promotion_desk.h"
#include "services/ratings/rating_ledger.h"
#include "services/ratings/rating_lists.h"
#include "services/ratings/rating_repository.h"

namespace gorank::ratings {

// Thread-safe. Does not own its collaborators.
//
// GetRating: INVALID_ARGUMENT for player_id <= 0; NOT_FOUND when the player
//   has no stored rating.
// GetRatingHistory: oldest first, empty for a player without rated games.
// ListRatings, ListProposals: paged as services/common/paging.h (page_size
//   0 -> 50, at most 500; INVALID_ARGUMENT outside that or for a page_token
//   of another query or not given by rankd). ListRatings: the filters and
//   month as RatingLists::List documents; discipline GOMOKU is
//   INVALID_ARGUMENT (Gomoku has no rating).
// ListRatingSnapshots: the kept months, newest first.
// RecomputeRatings: the ledger's report; stores unless dry_run.
// The promotion RPCs: errors as PromotionDesk documents.
// GetRating also names the origin of an imported start (PlayerRating.origin;
//   ListRatings leaves it empty).
// ImportRatings: the rows of every message, options from the first one only
//   (INVALID_ARGUMENT for options in a later message); RESOURCE_EXHAUSTED
//   past kMaxImportRows rows; then the ledger's ImportStarts (refused rows
//   are in the summary, the call is OK). National admin only (access table).
class RatingServiceImpl final : public v1::RatingService::Service {
 public:
  RatingServiceImpl(CallGate* gate, RatingRepository* ratings,
                    RatingLists* lists, RatingLedger* ledger,
                    PromotionDesk* promotions)
      : gate_(gate),
        ratings_(ratings),
        lists_(lists),
        ledger_(ledger),
        promotions_(promotions) {}

  GORANK_RPC(GetRating);
  GORANK_RPC(GetRatingHistory);
  GORANK_RPC(ListRatings);
  GORANK_RPC(ListRatingSnapshots);
  GORANK_RPC(RecomputeRatings);
  GORANK_RPC(ListPromotionRules);
  GORANK_RPC(EvaluatePromotions);
  GORANK_RPC(ExplainPromotion);
  GORANK_RPC(ListProposals);
  GORANK_RPC(DecidePromotion);
  grpc::Status ImportRatings(
      grpc::ServerContext* ctx,
      grpc::ServerReader<v1::ImportRatingsRequest>* reader,
      v1::ImportRatingsResponse* resp) override;

 private:
  CallGate* gate_;
  RatingRepository* ratings_;
  RatingLists* lists_;
  RatingLedger* ledger_;
  PromotionDesk* promotions_;
};

}  // namespace gorank::ratings

#endif  // GORANK_SERVICES_RATINGS_RATING_SERVICE_H_
