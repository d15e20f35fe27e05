// gRPC handlers of ratings.proto (RatingService), read side only: GetRating
// and GetRatingHistory. Each call recomputes every rating from all closed
// events of the EventRepository (event_ratings.h: RecomputeFromEvents) and
// answers from that book: deterministic and always consistent with the
// stored results, at the cost of one full pass per call (to be replaced by
// a stored book updated when an event closes). The other RPCs of the
// service are not implemented yet and answer UNIMPLEMENTED (the generated
// default).
#ifndef GORANK_SERVICES_RATINGS_RATING_SERVICE_H_
#define GORANK_SERVICES_RATINGS_RATING_SERVICE_H_

#include "gorank/v1/ratings.grpc.pb.h"
#include "services/common/call_gate.h"
#include "services/ratings/rating_book.h"
#include "services/tournaments/event_repository.h"

namespace gorank::ratings {

// Thread-safe. Does not own its collaborators.
class RatingServiceImpl final : public v1::RatingService::Service {
 public:
  RatingServiceImpl(CallGate* gate, const tournaments::EventRepository* events,
                    RatingSettings settings)
      : gate_(gate), events_(events), settings_(settings) {}

  // INVALID_ARGUMENT for player_id <= 0; NOT_FOUND when the player has no
  // rated game; errors of RecomputeFromEvents otherwise.
  grpc::Status GetRating(grpc::ServerContext* ctx,
                         const v1::GetRatingRequest* req,
                         v1::GetRatingResponse* resp) override;
  // Oldest first; empty for a player without rated games. INVALID_ARGUMENT
  // for player_id <= 0; errors of RecomputeFromEvents otherwise.
  grpc::Status GetRatingHistory(grpc::ServerContext* ctx,
                                const v1::GetRatingHistoryRequest* req,
                                v1::GetRatingHistoryResponse* resp) override;

 private:
  CallGate* gate_;
  const tournaments::EventRepository* events_;
  RatingSettings settings_;
};

}  // namespace gorank::ratings

#endif  // GORANK_SERVICES_RATINGS_RATING_SERVICE_H_
