#include "services/ratings/rating_service.h"

#include <string>
#include <vector>

#include "services/common/status_macros.h"
#include "services/ratings/event_ratings.h"
#include "services/registry/registry_proto_convert.h"

namespace gorank::ratings {
namespace {

std::string M(const char* method) {
  return MethodName(v1::RatingService::service_full_name(), method);
}

absl::Status CheckPlayerId(int64_t player_id) {
  if (player_id <= 0) {
    return absl::InvalidArgumentError(
        "player_id must be a positive registry id, got " +
        std::to_string(player_id));
  }
  return absl::OkStatus();
}

void RatingToProto(const PlayerRating& r, v1::PlayerRating* out) {
  out->set_player_id(r.player.value);
  out->set_gor(r.gor);
  registry::RankToProto(r.Grade(), out->mutable_grade());
  out->set_rated_games(r.rated_games);
  out->set_rated_events(r.rated_events);
  if (r.pro_elo.has_value()) out->set_pro_rating(*r.pro_elo);
  out->set_pro_games(r.pro_games);
}

void ChangeToProto(const RatingChange& c, v1::RatingChange* out) {
  out->set_event_id(c.event.event_id);
  registry::DateToProto(c.event.date, out->mutable_event_date());
  out->set_event_order(c.event.order);
  out->set_gor_before(c.gor_before);
  out->set_gor_after(c.gor_after);
  out->set_games(c.games);
  if (c.pro_before.has_value()) out->set_pro_before(*c.pro_before);
  if (c.pro_after.has_value()) out->set_pro_after(*c.pro_after);
  out->set_pro_games(c.pro_games);
}

}  // namespace

grpc::Status RatingServiceImpl::GetRating(grpc::ServerContext* ctx,
                                          const v1::GetRatingRequest* req,
                                          v1::GetRatingResponse* resp) {
  return gate_->Run(
      ctx, M("GetRating"), [&](const auth::Caller&) -> absl::Status {
        GORANK_RETURN_IF_ERROR(CheckPlayerId(req->player_id()));
        GORANK_ASSIGN_OR_RETURN(RatingBook book,
                                RecomputeFromEvents(*events_, settings_));
        std::optional<PlayerRating> rating =
            book.Find(PlayerId{req->player_id()});
        if (!rating.has_value()) {
          return absl::NotFoundError("player " +
                                     std::to_string(req->player_id()) +
                                     " has no rated game in a closed event");
        }
        RatingToProto(*rating, resp->mutable_rating());
        return absl::OkStatus();
      });
}

grpc::Status RatingServiceImpl::GetRatingHistory(
    grpc::ServerContext* ctx, const v1::GetRatingHistoryRequest* req,
    v1::GetRatingHistoryResponse* resp) {
  return gate_->Run(
      ctx, M("GetRatingHistory"), [&](const auth::Caller&) -> absl::Status {
        GORANK_RETURN_IF_ERROR(CheckPlayerId(req->player_id()));
        GORANK_ASSIGN_OR_RETURN(RatingBook book,
                                RecomputeFromEvents(*events_, settings_));
        for (const RatingChange& c : book.History(PlayerId{req->player_id()})) {
          ChangeToProto(c, resp->add_changes());
        }
        return absl::OkStatus();
      });
}

}  // namespace gorank::ratings
