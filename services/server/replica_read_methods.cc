#include "services/server/replica_read_methods.h"

namespace gorank::server {

const std::vector<std::string>& ReplicaReadMethods() {
  static const auto* const methods = new std::vector<std::string>{
      "/gorank.v1.PlayerRegistry/GetPlayer",
      "/gorank.v1.PlayerRegistry/SearchPlayers",
      "/gorank.v1.PlayerRegistry/GetRankHistory",
      "/gorank.v1.AgencyService/ListAgencies",
      "/gorank.v1.CertificateService/VerifyCertificate",
      "/gorank.v1.CertificateService/LookupRank",
      "/gorank.v1.CertificateService/ListNotices",
      "/gorank.v1.TournamentService/ListCompetitions",
      "/gorank.v1.TournamentService/ListEvents",
      "/gorank.v1.TournamentService/GetEvent",
      "/gorank.v1.TournamentService/GetResults",
      "/gorank.v1.TournamentService/GetStandings",
      "/gorank.v1.TournamentService/ExportResults",
      "/gorank.v1.EligibilityService/EvaluatePlayer",
      "/gorank.v1.EligibilityService/EvaluateEvent",
      "/gorank.v1.RatingService/GetRating",
      "/gorank.v1.RatingService/GetRatingHistory",
      "/gorank.v1.RatingService/ListRatings",
      "/gorank.v1.RatingService/ExplainPromotion",
  };
  return *methods;
}

}  // namespace gorank::server
